/**
 * The comparison of two values of one type (structured-merge-diff's TypedValue.Compare): the paths added, modified
 * and removed. Leaves (scalars, atomic lists and maps, or values that are empty on both sides) compare by value;
 * granular maps and lists compare item by item, and an item that appears or disappears is itself added or removed.
 * A declared struct field holding a non-empty struct is not itself recorded as added: typed (Go) objects always
 * carry their non-pointer structs, so kube-apiserver never reports them as new.
 */
import { fieldElement } from './field-path.js';
import { addPath, newNode, nodeAt, type PathSet, type PathSetNode } from './path-set.js';
import {
  fieldSchemaOf, isAtomicMap, isNamedField, isObject, itemElement, itemSchemaOf, jsonEqual, listKindOf, type ListKind,
  type Schema,
} from './schema-view.js';
import { runSteps, type Steps } from '../limits/turn-budget.js';

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
  /** Map keys and list items visited, to yield every so many. */
  visited: number;
}

/** Map keys or list items between two points where a comparison may give the event loop back. */
export const itemsPerStep = 2048;

/** Compares `lhs` (before) with `rhs` (after). */
export function compare(lhs: unknown, rhs: unknown, schema: Schema): Comparison {
  return runSteps(compareSteps(lhs, rhs, schema));
}

/** {@link compare} in steps of {@link itemsPerStep} keys or items (see limits/turn-budget.ts). */
export function* compareSteps(lhs: unknown, rhs: unknown, schema: Schema): Steps<Comparison> {
  const out: Sink = { added: newNode(), modified: newNode(), removed: newNode(), visited: 0 };
  yield* walk(lhs, rhs, schema, [], out);
  return out;
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

const isScalar = (v: unknown): boolean => typeof v !== 'object' || v === null;

/**
 * Compares the values at `path` (a stack the walk pushes and pops). Answers whether `rhs` is an object with keys
 * (listing the keys of a map of many keys again would cost as much as the walk).
 */
function* walk(lhs: unknown, rhs: unknown, schema: Schema, path: string[], out: Sink): Generator<void, boolean, void> {
  if (lhs === undefined && rhs === undefined) return false;
  // Equal scalars (the bulk of any large map) need nothing more.
  if (lhs === rhs && isScalar(lhs)) return false;
  const lObject = isObject(lhs);
  const rObject = isObject(rhs);
  if ((lObject || lhs === undefined) && (rObject || rhs === undefined) && !isAtomicMap(schema)) {
    // Keys are listed once: enumerating a map of many keys is the costly part.
    const lKeys = lObject ? Object.keys(lhs) : [];
    const rKeys = rObject ? Object.keys(rhs) : [];
    if (lKeys.length > 0 || rKeys.length > 0) {
      const l = (lhs ?? {}) as Record<string, unknown>;
      const r = (rhs ?? {}) as Record<string, unknown>;
      // Scalar leaves (most keys of a large map) are added to this map's node directly, made on first use.
      let added: PathSetNode | undefined;
      let removed: PathSetNode | undefined;
      let modified: PathSetNode | undefined;
      // Scalars are settled inline: a generator per key would cost every write's comparison more than the keys do.
      // The keys of `rhs` alone come after those of `lhs`, with nothing on the left (not an inherited property).
      const rOnly = lKeys.length === 0 ? rKeys : rKeys.filter((k) => !Object.hasOwn(l, k));
      const count = lKeys.length + rOnly.length;
      for (let i = 0; i < count; i++) {
        if (++out.visited % itemsPerStep === 0) yield;
        const fromLeft = i < lKeys.length;
        const k = fromLeft ? lKeys[i]! : rOnly[i - lKeys.length]!;
        const lv = fromLeft ? l[k] : undefined;
        const rv = r[k];
        if (lv === rv && isScalar(lv)) continue;
        if (isScalar(lv) && isScalar(rv)) {
          if (lv === undefined) (added ??= nodeAt(out.added, path)).members.add(fieldElement(k));
          else if (rv === undefined) (removed ??= nodeAt(out.removed, path)).members.add(fieldElement(k));
          else if (!jsonEqual(lv, rv)) (modified ??= nodeAt(out.modified, path)).members.add(fieldElement(k));
          continue;
        }
        path.push(fieldElement(k));
        const rvHasKeys = yield* walk(lv, rv, fieldSchemaOf(schema, k), path, out);
        if (lv === undefined && rv !== undefined && !(isNamedField(schema, k) && rvHasKeys)) addPath(out.added, path);
        else if (rv === undefined && lv !== undefined) addPath(out.removed, path);
        path.pop();
      }
      return rKeys.length > 0;
    }
  } else if ((Array.isArray(lhs) || lhs === undefined) && (Array.isArray(rhs) || rhs === undefined)
    && ((lhs as unknown[] | undefined)?.length ?? 0) + ((rhs as unknown[] | undefined)?.length ?? 0) > 0) {
    const kind = listKindOf(schema);
    if (kind.kind !== 'atomic') {
      const l = indexItems(lhs ?? [], kind);
      const r = indexItems(rhs ?? [], kind);
      const items = itemSchemaOf(schema);
      for (const el of new Set([...l.keys(), ...r.keys()])) {
        if (++out.visited % itemsPerStep === 0) yield;
        const lv = l.get(el);
        const rv = r.get(el);
        path.push(el);
        yield* walk(lv, rv, items, path, out);
        if (lv === undefined) addPath(out.added, path);
        else if (rv === undefined) addPath(out.removed, path);
        path.pop();
      }
      return false;
    }
  }
  if (path.length === 0) return false;
  if (lhs === undefined) addPath(out.added, path);
  else if (rhs === undefined) addPath(out.removed, path);
  else if (!jsonEqual(lhs, rhs)) addPath(out.modified, path);
  return false;
}
