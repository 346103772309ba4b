/**
 * Uniqueness in lists of `x-kubernetes-list-type: set` (values) and `map` (items by their `x-kubernetes-list-map-keys`),
 * as apiextensions-apiserver's listtype validation reports duplicates: `spec.ports[1]: Duplicate value: ...`.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import {
  additionalPropertiesOf, childPath, isRecord, itemsOf, listMapKeysOf, maxWalkDepth, propertiesOf, stringOf, type JsonSchemaProps,
} from './json-schema-props.js';

/** The duplicates of every set and map list in `value`. */
export function validateListTypes(schema: JsonSchemaProps, value: unknown, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  walk(schema, value, path, errors, 0);
  return errors;
}

function walk(schema: JsonSchemaProps, value: unknown, path: string, errors: FieldError[], depth: number): void {
  if (depth > maxWalkDepth) return;
  if (Array.isArray(value)) {
    const listType = stringOf(schema, 'x-kubernetes-list-type');
    if (listType === 'set') {
      const seen = new Set<string>();
      value.forEach((item, i) => {
        const key = JSON.stringify(item);
        if (seen.has(key)) errors.push(fieldError.duplicate(`${path}[${i}]`, item));
        seen.add(key);
      });
    } else if (listType === 'map') {
      const keys = listMapKeysOf(schema);
      const seen = new Set<string>();
      value.forEach((item, i) => {
        if (!isRecord(item)) return;
        const id: Record<string, unknown> = {};
        for (const k of keys) if (item[k] !== undefined) id[k] = item[k];
        const text = JSON.stringify(id);
        if (seen.has(text)) errors.push(fieldError.duplicate(`${path}[${i}]`, id));
        seen.add(text);
      });
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
