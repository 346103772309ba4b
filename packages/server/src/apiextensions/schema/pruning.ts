/**
 * Pruning (apiextensions-apiserver's structural pruning): fields a structural schema does not specify are dropped
 * from a custom object, except below `x-kubernetes-preserve-unknown-fields: true`; `apiVersion`, `kind` and
 * `metadata` of the object and of every embedded resource are kept. The paths of the dropped fields are what
 * field validation reports (`unknown field "spec.foo"`), as kube's decoder reports pruned fields.
 */
import {
  additionalPropertiesOf, childPath, flag, isRecord, itemsOf, maxWalkDepth, propertiesOf, type JsonSchemaProps,
} from './json-schema-props.js';
import { entriesPerStep, runSteps, type Steps } from '../../limits/turn-budget.js';

const typeMetaFields: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/** Drops, in place, every field of `value` the schema does not specify; answers their paths. */
export function prune(schema: JsonSchemaProps, value: unknown, options: { readonly root?: boolean } = {}): string[] {
  return runSteps(pruneSteps(schema, value, options));
}

/** {@link prune} in steps (limits/turn-budget.ts): a long list or a wide map is pruned across turns. */
export function* pruneSteps(schema: JsonSchemaProps, value: unknown, options: { readonly root?: boolean } = {}): Steps<string[]> {
  const pruned: string[] = [];
  yield* walk(schema, value, '', pruned, options.root === true, 0);
  return pruned;
}

function* walk(schema: JsonSchemaProps, value: unknown, path: string, pruned: string[], embedded: boolean, depth: number): Steps<void> {
  if (depth > maxWalkDepth) return;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items === undefined) return;
    const embeddedItems = flag(items, 'x-kubernetes-embedded-resource');
    for (let i = 0; i < value.length; i++) {
      if (i % entriesPerStep === entriesPerStep - 1) yield;
      yield* walk(items, value[i], `${path}[${i}]`, pruned, embeddedItems, depth + 1);
    }
    return;
  }
  if (!isRecord(value)) return;
  const preserve = flag(schema, 'x-kubernetes-preserve-unknown-fields');
  const props = propertiesOf(schema);
  const additional = additionalPropertiesOf(schema);
  // A map that keeps unknown fields and has no schema for any child has nothing to prune below it.
  if (preserve && props === undefined && additional === undefined) return;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i % entriesPerStep === entriesPerStep - 1) yield;
    const key = keys[i]!;
    const sub = props?.get(key) ?? additional;
    if (sub !== undefined) {
      yield* walk(sub, value[key], childPath(path, key), pruned, flag(sub, 'x-kubernetes-embedded-resource'), depth + 1);
      continue;
    }
    if (preserve || (embedded && typeMetaFields.has(key))) continue;
    // An int-or-string or untyped node carries no structure to prune by.
    if (schema['x-kubernetes-int-or-string'] === true) continue;
    pruned.push(childPath(path, key));
    delete value[key];
  }
}
