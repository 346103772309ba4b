/**
 * Merging an applied configuration into the live object (structured-merge-diff's TypedValue.Merge): the
 * configuration wins at every leaf; granular maps merge key by key; granular lists merge item by item, keeping the
 * live order of items the configuration does not name and the configuration's order among the items it names.
 * Atomic lists and maps are replaced whole.
 */
import { indexItems } from './compare.js';
import { fieldSchemaOf, isAtomicMap, isObject, itemElement, itemSchemaOf, listKindOf, type ListKind, type Schema } from './schema-view.js';

/** A copy of JSON data (scalars are their own copy). */
function copy(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** `rhs` merged onto `lhs`; neither input is changed. */
export function merge(lhs: unknown, rhs: unknown, schema: Schema): unknown {
  if (rhs === undefined) return copy(lhs);
  if (lhs === undefined) return copy(rhs);
  if (isObject(lhs) && isObject(rhs) && !isAtomicMap(schema)) {
    const out: Record<string, unknown> = { ...lhs };
    for (const k of Object.keys(rhs)) out[k] = merge(lhs[k], rhs[k], fieldSchemaOf(schema, k));
    return out;
  }
  if (Array.isArray(lhs) && Array.isArray(rhs)) {
    const kind = listKindOf(schema);
    if (kind.kind !== 'atomic') return mergeLists(lhs, rhs, kind, itemSchemaOf(schema));
  }
  return copy(rhs);
}

/**
 * The merged list: walks both lists at once; a live item the configuration does not name stays where it is, an
 * item both name is emitted in the configuration's order (merged), and new items follow the configuration.
 */
function mergeLists(lhs: readonly unknown[], rhs: readonly unknown[], kind: ListKind, items: Schema): unknown[] {
  const lEls = lhs.map((item, i) => itemElement(item, kind, i));
  const rEls = rhs.map((item, i) => itemElement(item, kind, i));
  const lByEl = indexItems(lhs, kind);
  const rByEl = indexItems(rhs, kind);
  const shared = rEls.filter((el) => lByEl.has(el));
  let nextShared = 0;
  const done = new Set<string>();
  const out: unknown[] = [];
  let li = 0;
  let ri = 0;
  while (li < lEls.length || ri < rEls.length) {
    if (li < lEls.length) {
      const el = lEls[li]!;
      if (done.has(el)) {
        li++;
        continue;
      }
      if (!rByEl.has(el)) {
        out.push(copy(lhs[li]));
        done.add(el);
        li++;
        continue;
      }
      // A shared item waits until the configuration reaches it, unless it is the next shared one.
      if (ri < rEls.length && el !== shared[nextShared] && rEls[ri] !== el) {
        li++;
        continue;
      }
    }
    if (ri < rEls.length) {
      const el = rEls[ri]!;
      ri++;
      if (done.has(el)) continue;
      done.add(el);
      out.push(merge(lByEl.get(el), rByEl.get(el), items));
      if (shared[nextShared] === el) nextShared++;
      continue;
    }
    li++;
  }
  return out;
}
