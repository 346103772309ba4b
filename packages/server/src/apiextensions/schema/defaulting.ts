/**
 * Defaulting from a structural schema (apiextensions-apiserver's structural defaulting): a missing field whose
 * schema has a `default` gets a copy of it, and so does a `null` in a field that is not `nullable`; a `null` in a
 * non-nullable field without a default is dropped (kube's PruneNonNullableNullsWithoutDefaults). Defaults are
 * applied top-down, so a defaulted object gets the defaults of its own fields too. Applied when a body is decoded,
 * on every write and when objects are read from storage, as kube applies them.
 */
import { additionalPropertiesOf, isRecord, itemsOf, maxWalkDepth, propertiesOf, type JsonSchemaProps } from './json-schema-props.js';

/** Applies the schema's defaults to `value` in place. */
export function applyDefaults(schema: JsonSchemaProps, value: unknown): void {
  walk(schema, value, 0);
}

function walk(schema: JsonSchemaProps, value: unknown, depth: number): void {
  if (depth > maxWalkDepth) return;
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    if (items !== undefined) for (const item of value) walk(items, item, depth + 1);
    return;
  }
  if (!isRecord(value)) return;
  const props = propertiesOf(schema);
  if (props !== undefined) {
    for (const [key, sub] of props) {
      const current = value[key];
      const hasDefault = Object.hasOwn(sub, 'default') && sub['default'] !== undefined;
      if (current === undefined || (current === null && sub['nullable'] !== true)) {
        if (hasDefault) value[key] = structuredClone(sub['default']);
        else if (current === null) delete value[key];
      }
    }
  }
  const additional = additionalPropertiesOf(schema);
  for (const key of Object.keys(value)) {
    const sub = props?.get(key) ?? additional;
    if (sub === undefined) continue;
    if (value[key] === null && props?.get(key) === undefined && sub['nullable'] !== true) {
      delete value[key];
      continue;
    }
    walk(sub, value[key], depth + 1);
  }
}
