/**
 * The set of fields a value sets (structured-merge-diff's ToFieldSet): scalars, atomic lists and atomic maps are
 * leaves; every item of a granular list and every map key (but not a declared struct field, unless it holds
 * `null` or `{}`) is a member too. Apply records this set of the applied configuration as the applier's fields.
 */
import { fieldElement } from './field-path.js';
import { addPath, newNode, type PathSet, type PathSetNode } from './path-set.js';
import {
  fieldSchemaOf, isAtomicMap, isNamedField, isObject, itemElement, itemSchemaOf, listKindOf, type Schema,
} from './schema-view.js';

/** The fields `value` sets under `schema`. */
export function fieldSetOf(value: unknown, schema: Schema): PathSet {
  const out = newNode();
  walk(value, schema, [], out);
  return out;
}

/** Adds what `value` (at `path`) sets; `path` is a stack the walk pushes and pops. */
function walk(value: unknown, schema: Schema, path: string[], out: PathSetNode): void {
  if (isObject(value)) {
    if (isAtomicMap(schema)) {
      if (path.length > 0) addPath(out, path);
      return;
    }
    for (const k of Object.keys(value)) {
      const v = value[k];
      path.push(fieldElement(k));
      // A scalar or null is a member wherever it sits; an object or list is walked, and is a member itself when
      // it is an empty object or not a declared field.
      if (typeof v !== 'object' || v === null) addPath(out, path);
      else {
        walk(v, fieldSchemaOf(schema, k), path, out);
        if (!isNamedField(schema, k) || (!Array.isArray(v) && Object.keys(v).length === 0)) addPath(out, path);
      }
      path.pop();
    }
    return;
  }
  if (Array.isArray(value)) {
    const kind = listKindOf(schema);
    if (kind.kind === 'atomic') {
      if (path.length > 0) addPath(out, path);
      return;
    }
    const items = itemSchemaOf(schema);
    for (let i = 0; i < value.length; i++) {
      path.push(itemElement(value[i], kind, i));
      walk(value[i], items, path, out);
      addPath(out, path);
      path.pop();
    }
    return;
  }
  if (path.length > 0) addPath(out, path);
}
