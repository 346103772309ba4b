/**
 * The comparison of two values of one type (structured-merge-diff's TypedValue.Compare): the paths added, modified
 * and removed. Leaves (scalars, atomic lists and maps, or values that are empty on both sides) compare by value;
 * granular maps and lists compare item by item, and an item that appears or disappears is itself added or removed.
 *
 * kube-apiserver compares typed objects: a built-in kind's old object (the live one, or for a create the zero value
 * of its Go type) always holds its non-pointer structs (`spec`, `spec.strategy`, `spec.template`: the fields the
 * 1.27 OpenAPI gives `default: {}`) and its fields without omitempty (the schema's `required`: a pod spec's
 * `containers`, null until set). A map or list under such a field that the new object fills is not itself added;
 * one under a pointer or omitempty field (`labels`, `strategy.rollingUpdate`, a container's `ports`), or anywhere in
 * a new list item, is (the `.` of managedFields). Custom objects are maps: nothing exists before it is written.
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
  /** The objects are of a built-in (Go) type: see {@link ZeroValue}. */
  readonly typed: boolean;
}

/**
 * What a typed old object holds where the compared old value is absent: nothing (`absent`), a non-pointer struct's
 * zero value (`struct`, `{}`), or a field without omitempty whose zero value is there (`field`: null for a pointer,
 * list or map).
 */
type ZeroValue = 'absent' | 'struct' | 'field';

/** What a typed parent holding `zero` (or a value, `present`) holds at its field `name` when the old value lacks it. */
function zeroOfField(schema: Schema, name: string, parent: ZeroValue | 'present', typed: boolean): ZeroValue {
  if (!typed || parent === 'absent' || parent === 'field' || !isNamedField(schema, name)) return 'absent';
  const field = fieldSchemaOf(schema, name);
  if (isEmptyObject(field.default) && field.additionalProperties() === undefined) return 'struct';
  return schema.required?.includes(name) === true ? 'field' : 'absent';
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}

/** Map keys or list items between two points where a comparison may give the event loop back. */
export const itemsPerStep = 2048;

/**
 * Compares `lhs` (before; undefined for a create) with `rhs` (after); `typed` when they are of a built-in kind, whose
 * old object kube sees as a Go value.
 */
export function compare(lhs: unknown, rhs: unknown, schema: Schema, typed = false): Comparison {
  return runSteps(compareSteps(lhs, rhs, schema, typed));
}

/** {@link compare} in steps of {@link itemsPerStep} keys or items (see limits/turn-budget.ts). */
export function* compareSteps(lhs: unknown, rhs: unknown, schema: Schema, typed = false): Steps<Comparison> {
  const out: Sink = { added: newNode(), modified: newNode(), removed: newNode(), visited: 0, typed };
  // The old object of a create is the zero value of its type (an empty map for custom objects).
  yield* walk(lhs, rhs, schema, [], out, 'struct');
  return out;
}

/**
 * Indexes a list's items by path element (the first of duplicates wins), in steps of {@link itemsPerStep} items:
 * naming the items of a list of tens of thousands (a key element is JSON text) takes a turn's budget.
 */
export function* indexItemsSteps(list: readonly unknown[], kind: ListKind): Steps<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (let i = 0; i < list.length; i++) {
    if (i > 0 && i % itemsPerStep === 0) yield;
    const item = list[i];
    const el = itemElement(item, kind, i);
    if (!out.has(el)) out.set(el, item);
  }
  return out;
}

const isScalar = (v: unknown): boolean => typeof v !== 'object' || v === null;

/**
 * Compares the values at `path` (a stack the walk pushes and pops); `zero` is what a typed old object holds here when
 * `lhs` is undefined. Answers whether `rhs` is an object with keys (listing the keys of a map of many keys again would
 * cost as much as the walk).
 */
function* walk(lhs: unknown, rhs: unknown, schema: Schema, path: string[], out: Sink, zero: ZeroValue): Generator<void, boolean, void> {
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
        const childZero = lv === undefined ? zeroOfField(schema, k, lhs === undefined ? zero : 'present', out.typed) : 'absent';
        yield* walk(lv, rv, fieldSchemaOf(schema, k), path, out, childZero);
        if (lv === undefined && rv !== undefined && childZero === 'absent') addPath(out.added, path);
        else if (rv === undefined && lv !== undefined) addPath(out.removed, path);
        path.pop();
      }
      return rKeys.length > 0;
    }
  } else if ((Array.isArray(lhs) || lhs === undefined) && (Array.isArray(rhs) || rhs === undefined)
    && ((lhs as unknown[] | undefined)?.length ?? 0) + ((rhs as unknown[] | undefined)?.length ?? 0) > 0) {
    const kind = listKindOf(schema);
    if (kind.kind !== 'atomic') {
      const l = yield* indexItemsSteps(lhs ?? [], kind);
      const r = yield* indexItemsSteps(rhs ?? [], kind);
      const items = itemSchemaOf(schema);
      for (const el of new Set([...l.keys(), ...r.keys()])) {
        if (++out.visited % itemsPerStep === 0) yield;
        const lv = l.get(el);
        const rv = r.get(el);
        path.push(el);
        yield* walk(lv, rv, items, path, out, 'absent');
        if (lv === undefined) addPath(out.added, path);
        else if (rv === undefined) addPath(out.removed, path);
        path.pop();
      }
      return false;
    }
  }
  if (path.length === 0) return false;
  // An empty struct where the typed old object holds its zero value is no change.
  if (lhs === undefined) {
    if (!(zero === 'struct' && isEmptyObject(rhs))) addPath(out.added, path);
  }
  else if (rhs === undefined) addPath(out.removed, path);
  else if (!jsonEqual(lhs, rhs)) addPath(out.modified, path);
  return false;
}
