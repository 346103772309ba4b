/**
 * The comparison of two values of one type (structured-merge-diff's TypedValue.Compare): the paths added, modified
 * and removed. Leaves (scalars, atomic lists and maps, or values that are empty on both sides) compare by value;
 * granular maps and lists compare item by item, and an item that appears or disappears is itself added or removed.
 * A declared struct field holding a non-empty struct is not itself recorded as added: typed (Go) objects always
 * carry their non-pointer structs, so kube-apiserver never reports them as new.
 */
import { fieldElement } from './field-path.js';
import { addPath, newNode, type PathSet, type PathSetNode } from './path-set.js';
import {
  fieldSchemaOf, isAtomicMap, isNamedField, isObject, itemElement, itemSchemaOf, jsonEqual, listKindOf, type ListKind,
  type Schema,
} from './schema-view.js';

/** What changed from one value to another. */
export interface Comparison {
  readonly added: PathSet;
  readonly modified: PathSet;
  readonly removed: PathSet;
}

interface Sink {
  readonly added: PathSetNode;
  readonly modified: PathSetNode;
  readonly removed: PathSetNode;
}

/** Compares `lhs` (before) with `rhs` (after). */
export function compare(lhs: unknown, rhs: unknown, schema: Schema): Comparison {
  const out: Sink = { added: newNode(), modified: newNode(), removed: newNode() };
  walk(lhs, rhs, schema, [], out);
  return out;
}

function hasKeys(v: Record<string, unknown>): boolean {
  for (const _ in v) return true;
  return false;
}

/** Indexes a list's items by path element (the first of duplicates wins). */
export function indexItems(list: readonly unknown[], kind: ListKind): Map<string, unknown> {
  const out = new Map<string, unknown>();
  list.forEach((item, i) => {
    const el = itemElement(item, kind, i);
    if (!out.has(el)) out.set(el, item);
  });
  return out;
}

/** Compares the values at `path` (a stack the walk pushes and pops). */
function walk(lhs: unknown, rhs: unknown, schema: Schema, path: string[], out: Sink): void {
  if (lhs === undefined && rhs === undefined) return;
  // Equal scalars (the bulk of any large map) need nothing more.
  if (lhs === rhs && (typeof lhs !== 'object' || lhs === null)) return;
  const lObject = isObject(lhs);
  const rObject = isObject(rhs);
  if ((lObject || lhs === undefined) && (rObject || rhs === undefined) && !isAtomicMap(schema)) {
    // Keys are listed once: enumerating a map of many keys is the costly part.
    const lKeys = lObject ? Object.keys(lhs) : [];
    const rKeys = rObject ? Object.keys(rhs) : [];
    if (lKeys.length > 0 || rKeys.length > 0) {
      const l = (lhs ?? {}) as Record<string, unknown>;
      const r = (rhs ?? {}) as Record<string, unknown>;
      const visit = (k: string, lv: unknown, rv: unknown): void => {
        if (lv === rv && (typeof lv !== 'object' || lv === null)) return;
        path.push(fieldElement(k));
        walk(lv, rv, fieldSchemaOf(schema, k), path, out);
        if (lv === undefined && rv !== undefined && !(isNamedField(schema, k) && isObject(rv) && hasKeys(rv))) addPath(out.added, path);
        else if (rv === undefined && lv !== undefined) addPath(out.removed, path);
        path.pop();
      };
      for (const k of lKeys) visit(k, l[k], r[k]);
      for (const k of rKeys) if (!Object.hasOwn(l, k)) visit(k, undefined, r[k]);
      return;
    }
  } else if ((Array.isArray(lhs) || lhs === undefined) && (Array.isArray(rhs) || rhs === undefined)
    && ((lhs as unknown[] | undefined)?.length ?? 0) + ((rhs as unknown[] | undefined)?.length ?? 0) > 0) {
    const kind = listKindOf(schema);
    if (kind.kind !== 'atomic') {
      const l = indexItems(lhs ?? [], kind);
      const r = indexItems(rhs ?? [], kind);
      const items = itemSchemaOf(schema);
      for (const el of new Set([...l.keys(), ...r.keys()])) {
        const lv = l.get(el);
        const rv = r.get(el);
        path.push(el);
        walk(lv, rv, items, path, out);
        if (lv === undefined) addPath(out.added, path);
        else if (rv === undefined) addPath(out.removed, path);
        path.pop();
      }
      return;
    }
  }
  if (path.length === 0) return;
  if (lhs === undefined) addPath(out.added, path);
  else if (rhs === undefined) addPath(out.removed, path);
  else if (!jsonEqual(lhs, rhs)) addPath(out.modified, path);
}
