/**
 * Uniqueness in lists of `x-kubernetes-list-type: set` (values) and `map` (items by their `x-kubernetes-list-map-keys`),
 * as apiextensions-apiserver's listtype validation reports duplicates: `spec.ports[1]: Duplicate value: ...`.
 */
import { fieldError, goSharpV, ofDecodedValue, type FieldError } from '@svc-apiserver/api';
import {
  additionalPropertiesOf, childPath, isRecord, itemsOf, listMapKeysOf, maxWalkDepth, propertiesOf, stringOf, type JsonSchemaProps,
} from './json-schema-props.js';
import { entriesPerStep, runSteps, type Steps } from '../../limits/turn-budget.js';

/** The duplicates of every set and map list in `value`. */
export function validateListTypes(schema: JsonSchemaProps, value: unknown, path = ''): FieldError[] {
  return runSteps(validateListTypesSteps(schema, value, path));
}

/** {@link validateListTypes} in steps (limits/turn-budget.ts): a long list or a wide map is walked across turns. */
export function* validateListTypesSteps(schema: JsonSchemaProps, value: unknown, path = ''): Steps<FieldError[]> {
  const errors: FieldError[] = [];
  yield* walk(schema, value, path, errors, 0);
  return errors;
}

/**
 * A Duplicate error at the second occurrence of each identity (kube's validateListSet reports a repeated value once,
 * whatever its count), the identity printed as Go prints the decoded value.
 */
function* reportDuplicates(list: readonly unknown[], identity: (item: unknown) => unknown, path: string, errors: FieldError[]): Steps<void> {
  const seen = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    if (i % entriesPerStep === entriesPerStep - 1) yield;
    const id = identity(list[i]);
    // Go's %#v sorts map keys: the same text for the same decoded value, as kube's json.Marshal of it is.
    const text = goSharpV(id);
    const times = seen.get(text) ?? 0;
    seen.set(text, times + 1);
    if (times === 1) errors.push(ofDecodedValue(fieldError.duplicate(`${path}[${i}]`, id)));
  }
}

function* walk(schema: JsonSchemaProps, value: unknown, path: string, errors: FieldError[], depth: number): Steps<void> {
  if (depth > maxWalkDepth) return;
  if (Array.isArray(value)) {
    const listType = stringOf(schema, 'x-kubernetes-list-type');
    if (listType === 'set') {
      yield* reportDuplicates(value, (item) => item, path, errors);
    } else if (listType === 'map') {
      const keys = listMapKeysOf(schema);
      const invalid = value.findIndex((item) => item !== null && !isRecord(item));
      if (invalid >= 0) errors.push(ofDecodedValue(fieldError.invalid(`${path}[${invalid}]`, value[invalid], 'must be an object for an array of list-type map')));
      else {
        // An item's identity is its key fields; a null item or a missing key field is an unspecified key.
        yield* reportDuplicates(value, (item) => {
          const id: Record<string, unknown> = {};
          if (isRecord(item)) for (const k of keys) if (item[k] !== undefined) id[k] = item[k];
          return id;
        }, path, errors);
      }
    }
    const items = itemsOf(schema);
    if (items === undefined) return;
    for (let i = 0; i < value.length; i++) {
      if (i % entriesPerStep === entriesPerStep - 1) yield;
      yield* walk(items, value[i], `${path}[${i}]`, errors, depth + 1);
    }
    return;
  }
  if (!isRecord(value)) return;
  const props = propertiesOf(schema);
  const additional = additionalPropertiesOf(schema);
  // Only children with a schema of their own can hold a set or map list.
  if (props === undefined && additional === undefined) return;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i % entriesPerStep === entriesPerStep - 1) yield;
    const key = keys[i]!;
    const sub = props?.get(key) ?? additional;
    if (sub !== undefined) yield* walk(sub, value[key], childPath(path, key), errors, depth + 1);
  }
}
