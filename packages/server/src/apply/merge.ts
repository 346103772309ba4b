/**
 * Merging an applied configuration into the live object (structured-merge-diff's TypedValue.Merge): the
 * configuration wins at every leaf; granular maps merge key by key; granular lists merge item by item, keeping the
 * live order of items the configuration does not name and the configuration's order among the items it names.
 * Atomic lists and maps are replaced whole.
 */
import { ownValue, setOwn } from '@svc-apiserver/api';
import { indexItemsSteps, itemsPerStep } from './compare.js';
import { fieldSchemaOf, isAtomicMap, isObject, itemElement, itemSchemaOf, listKindOf, type ListKind, type Schema } from './schema-view.js';
import { runSteps, type Steps } from '../limits/turn-budget.js';

/**
 * `rhs` merged onto `lhs`; neither input is changed, and the result shares with them what it takes whole (the
 * caller copies the final object once: copying here would copy the largest values twice).
 */
export function merge(lhs: unknown, rhs: unknown, schema: Schema): unknown {
  return runSteps(mergeSteps(lhs, rhs, schema));
}

/** {@link merge} in steps (see limits/turn-budget.ts). */
export function mergeSteps(lhs: unknown, rhs: unknown, schema: Schema): Steps<unknown> {
  return mergeValues(lhs, rhs, schema, { visited: 0 });
}

interface Count {
  visited: number;
}

function* mergeValues(lhs: unknown, rhs: unknown, schema: Schema, count: Count): Generator<void, unknown, void> {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  if (isObject(lhs) && isObject(rhs) && !isAtomicMap(schema)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(lhs)) {
      if (++count.visited % itemsPerStep === 0) yield;
      setOwn(out, k, lhs[k]);
    }
    for (const k of Object.keys(rhs)) {
      if (++count.visited % itemsPerStep === 0) yield;
      const l = ownValue(lhs, k);
      const r = rhs[k];
      // A scalar from the configuration wins as it is.
      setOwn(out, k, l === undefined || typeof r !== 'object' || r === null ? r : yield* mergeValues(l, r, fieldSchemaOf(schema, k), count));
    }
    return out;
  }
  if (Array.isArray(lhs) && Array.isArray(rhs)) {
    const kind = listKindOf(schema);
    if (kind.kind !== 'atomic') return yield* mergeLists(lhs, rhs, kind, itemSchemaOf(schema), count);
  }
  return rhs;
}

/**
 * The merged list: walks both lists at once; a live item the configuration does not name stays where it is, an
 * item both name is emitted in the configuration's order (merged), and new items follow the configuration.
 */
function* mergeLists(lhs: readonly unknown[], rhs: readonly unknown[], kind: ListKind, items: Schema, count: Count): Generator<void, unknown[], void> {
  const lEls = lhs.map((item, i) => itemElement(item, kind, i));
  const rEls = rhs.map((item, i) => itemElement(item, kind, i));
  const lByEl = yield* indexItemsSteps(lhs, kind);
  const rByEl = yield* indexItemsSteps(rhs, kind);
  const shared = rEls.filter((el) => lByEl.has(el));
  let nextShared = 0;
  const done = new Set<string>();
  const out: unknown[] = [];
  let li = 0;
  let ri = 0;
  while (li < lEls.length || ri < rEls.length) {
    if (++count.visited % itemsPerStep === 0) yield;
    if (li < lEls.length) {
      const el = lEls[li]!;
      if (done.has(el)) {
        li++;
        continue;
      }
      if (!rByEl.has(el)) {
        out.push(lhs[li]);
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
      out.push(yield* mergeValues(lByEl.get(el), rByEl.get(el), items, count));
      if (shared[nextShared] === el) nextShared++;
      continue;
    }
    li++;
  }
  return out;
}
