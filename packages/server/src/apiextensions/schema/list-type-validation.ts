/**
 * Uniqueness in lists of `x-kubernetes-list-type: set` (values) and `map` (items by their `x-kubernetes-list-map-keys`),
 * as apiextensions-apiserver's listtype validation reports duplicates: `spec.ports[1]: Duplicate value: ...`.
 */
import { fieldError, goSharpV, ofDecodedValue, type FieldError } from '@svc-apiserver/api';
import {
  additionalPropertiesOf, childPath, isRecord, itemsOf, listMapKeysOf, maxWalkDepth, propertiesOf, stringOf, type JsonSchemaProps,
} from './json-schema-props.js';

/** The duplicates of every set and map list in `value`. */
export function validateListTypes(schema: JsonSchemaProps, value: unknown, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  walk(schema, value, path, errors, 0);
  return errors;
}

/**
 * A Duplicate error at the second occurrence of each identity (kube's validateListSet reports a repeated value once,
 * whatever its count), the identity printed as Go prints the decoded value.
 */
function reportDuplicates(list: readonly unknown[], identity: (item: unknown) => unknown, path: string, errors: FieldError[]): void {
  const seen = new Map<string, number>();
  list.forEach((item, i) => {
    const id = identity(item);
    // Go's %#v sorts map keys: the same text for the same decoded value, as kube's json.Marshal of it is.
    const text = goSharpV(id);
    const times = seen.get(text) ?? 0;
    seen.set(text, times + 1);
    if (times === 1) errors.push(ofDecodedValue(fieldError.duplicate(`${path}[${i}]`, id)));
  });
}

function walk(schema: JsonSchemaProps, value: unknown, path: string, errors: FieldError[], depth: number): void {
  if (depth > maxWalkDepth) return;
  if (Array.isArray(value)) {
    const listType = stringOf(schema, 'x-kubernetes-list-type');
    if (listType === 'set') {
      reportDuplicates(value, (item) => item, path, errors);
    } else if (listType === 'map') {
      const keys = listMapKeysOf(schema);
      const invalid = value.findIndex((item) => item !== null && !isRecord(item));
      if (invalid >= 0) errors.push(ofDecodedValue(fieldError.invalid(`${path}[${invalid}]`, value[invalid], 'must be an object for an array of list-type map')));
      else {
        // An item's identity is its key fields; a null item or a missing key field is an unspecified key.
        reportDuplicates(value, (item) => {
          const id: Record<string, unknown> = {};
          if (isRecord(item)) for (const k of keys) if (item[k] !== undefined) id[k] = item[k];
          return id;
        }, path, errors);
      }
    }
    const items = itemsOf(schema);
    if (items !== undefined) value.forEach((item, i) => walk(items, item, `${path}[${i}]`, errors, depth + 1));
    return;
  }
  if (!isRecord(value)) return;
  const props = propertiesOf(schema);
  const additional = additionalPropertiesOf(schema);
  for (const [key, child] of Object.entries(value)) {
    const sub = props?.get(key) ?? additional;
    if (sub !== undefined) walk(sub, child, childPath(path, key), errors, depth + 1);
  }
}
