/**
 * The comparison of two values of one type (structured-merge-diff's TypedValue.Compare): the paths added, modified
 * and removed. Leaves (scalars, atomic lists and maps, or values that are empty on both sides) compare by value;
 * granular maps and lists compare item by item, and an item that appears or disappears is itself added or removed.
 * A declared struct field holding a non-empty struct is not itself recorded as added: typed (Go) objects always
 * carry their non-pointer structs, so kube-apiserver never reports them as new.
 */
import { childPath, fieldElement, rootPath } from './field-path.js';
import type { PathSet } from './path-set.js';
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
  readonly added: Set<string>;
  readonly modified: Set<string>;
  readonly removed: Set<string>;
}

/** Compares `lhs` (before) with `rhs` (after). */
export function compare(lhs: unknown, rhs: unknown, schema: Schema): Comparison {
  const out: Sink = { added: new Set(), modified: new Set(), removed: new Set() };
  walk(lhs, rhs, schema, rootPath, out);
  return out;
}

/** True when nothing changed. */
export function isEmptyComparison(c: Comparison): boolean {
  return c.added.size === 0 && c.modified.size === 0 && c.removed.size === 0;
}

const isEmptyOrAbsent = (v: unknown): boolean =>
  v === undefined || v === null || (isObject(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);

/** Indexes a list's items by path element (the first of duplicates wins). */
export function indexItems(list: readonly unknown[], kind: ListKind): Map<string, unknown> {
  const out = new Map<string, unknown>();
  list.forEach((item, i) => {
    const el = itemElement(item, kind, i);
    if (!out.has(el)) out.set(el, item);
  });
  return out;
}

function walk(lhs: unknown, rhs: unknown, schema: Schema, path: string, out: Sink): void {
  if (lhs === undefined && rhs === undefined) return;
  const bothEmpty = isEmptyOrAbsent(lhs) && isEmptyOrAbsent(rhs);
  if (!bothEmpty && !isAtomicMap(schema) && (isObject(lhs) || lhs === undefined) && (isObject(rhs) || rhs === undefined)) {
    const l = lhs ?? {};
    const r = rhs ?? {};
    const keys = new Set([...Object.keys(l), ...Object.keys(r)]);
    for (const k of keys) {
      const lv = l[k];
      const rv = r[k];
      const child = childPath(path, fieldElement(k));
      walk(lv, rv, fieldSchemaOf(schema, k), child, out);
      if (lv === undefined && rv !== undefined && !(isNamedField(schema, k) && isObject(rv) && Object.keys(rv).length > 0)) {
        out.added.add(child);
      } else if (rv === undefined && lv !== undefined) {
        out.removed.add(child);
      }
    }
    return;
  }
  if (!bothEmpty && (Array.isArray(lhs) || lhs === undefined) && (Array.isArray(rhs) || rhs === undefined)) {
    const kind = listKindOf(schema);
    if (kind.kind !== 'atomic') {
      const l = indexItems(lhs ?? [], kind);
      const r = indexItems(rhs ?? [], kind);
      const items = itemSchemaOf(schema);
      for (const el of new Set([...l.keys(), ...r.keys()])) {
        const lv = l.get(el);
        const rv = r.get(el);
        const child = childPath(path, el);
        walk(lv, rv, items, child, out);
        if (lv === undefined) out.added.add(child);
        else if (rv === undefined) out.removed.add(child);
      }
      return;
    }
  }
  if (path === rootPath) return;
  if (lhs === undefined) out.added.add(path);
  else if (rhs === undefined) out.removed.add(path);
  else if (!jsonEqual(lhs, rhs)) out.modified.add(path);
}
