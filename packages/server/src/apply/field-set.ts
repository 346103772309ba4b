/**
 * The set of fields a value sets (structured-merge-diff's ToFieldSet): scalars, atomic lists and atomic maps are
 * leaves; every item of a granular list and every map key (but not a declared struct field, unless it holds
 * `null` or `{}`) is a member too. Apply records this set of the applied configuration as the applier's fields.
 */
import { childPath, fieldElement, rootPath } from './field-path.js';
import type { PathSet } from './path-set.js';
import {
  fieldSchemaOf, isAtomicMap, isNamedField, isObject, itemElement, itemSchemaOf, listKindOf, type Schema,
} from './schema-view.js';

/** The fields `value` sets under `schema`. */
export function fieldSetOf(value: unknown, schema: Schema): PathSet {
  const out = new Set<string>();
  walk(value, schema, rootPath, out);
  return out;
}

function walk(value: unknown, schema: Schema, path: string, out: Set<string>): void {
  if (isObject(value)) {
    if (isAtomicMap(schema)) {
      if (path !== rootPath) out.add(path);
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      const child = childPath(path, fieldElement(k));
      walk(v, fieldSchemaOf(schema, k), child, out);
      if (v === null || (isObject(v) && Object.keys(v).length === 0) || !isNamedField(schema, k)) out.add(child);
    }
    return;
  }
  if (Array.isArray(value)) {
    const kind = listKindOf(schema);
    if (kind.kind === 'atomic') {
      out.add(path);
      return;
    }
    const items = itemSchemaOf(schema);
    value.forEach((item, i) => {
      const child = childPath(path, itemElement(item, kind, i));
      walk(item, items, child, out);
      out.add(child);
    });
    return;
  }
  if (path !== rootPath) out.add(path);
}
