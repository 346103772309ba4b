/**
 * Pruning (apiextensions-apiserver's structural pruning): fields a structural schema does not specify are dropped
 * from a custom object, except below `x-kubernetes-preserve-unknown-fields: true`; `apiVersion`, `kind` and
 * `metadata` of the object and of every embedded resource are kept. The paths of the dropped fields are what
 * field validation reports (`unknown field "spec.foo"`), as kube's decoder reports pruned fields.
 */
import {
  additionalPropertiesOf, childPath, flag, isRecord, itemsOf, maxWalkDepth, propertiesOf, type JsonSchemaProps,
} from './json-schema-props.js';

const typeMetaFields: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/** Drops, in place, every field of `value` the schema does not specify; answers their paths. */
export function prune(schema: JsonSchemaProps, value: unknown, options: { readonly root?: boolean } = {}): string[] {
  const pruned: string[] = [];
  walk(schema, value, '', pruned, options.root === true, 0);
  return pruned;
}

function walk(schema: JsonSchemaProps, value: unknown, path: string, pruned: string[], embedded: boolean, depth: number): void {
  if (depth > maxWalkDepth) return;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items !== undefined) for (let i = 0; i < value.length; i++) walk(items, value[i], `${path}[${i}]`, pruned, flag(items, 'x-kubernetes-embedded-resource'), depth + 1);
    return;
  }
  if (!isRecord(value)) return;
  const preserve = flag(schema, 'x-kubernetes-preserve-unknown-fields');
  const props = propertiesOf(schema);
  const additional = additionalPropertiesOf(schema);
  for (const key of Object.keys(value)) {
    const sub = props?.get(key) ?? additional;
    if (sub !== undefined) {
      walk(sub, value[key], childPath(path, key), pruned, flag(sub, 'x-kubernetes-embedded-resource'), depth + 1);
      continue;
    }
    if (preserve || (embedded && typeMetaFields.has(key))) continue;
    // An int-or-string or untyped node carries no structure to prune by.
    if (schema['x-kubernetes-int-or-string'] === true) continue;
    pruned.push(childPath(path, key));
    delete value[key];
  }
}
