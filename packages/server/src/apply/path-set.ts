/**
 * Sets of field paths as structured-merge-diff keeps them (fieldpath.Set): a tree whose nodes hold the elements that
 * are members at that level and the child sets of elements with members below. The set algebra server-side apply
 * is written in works node by node, sharing unchanged subtrees, and the `FieldsV1` form (a nested map whose keys are
 * path elements, where a member that also has children carries a `.` key and a leaf member is `{}`) is the same
 * tree written out. Work is proportional to the elements touched, never to joined path strings: a map with a
 * hundred thousand keys is one node with a hundred thousand members.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { FieldPath } from './field-path.js';
import { runSteps, type Steps } from '../limits/turn-budget.js';
import { sortSteps } from '../limits/sort-steps.js';

/** A set of field paths. No child set is empty. */
export interface PathSet {
  readonly members: ReadonlySet<string>;
  readonly children: ReadonlyMap<string, PathSet>;
}

/** A node under construction. */
export interface PathSetNode extends PathSet {
  readonly members: Set<string>;
  readonly children: Map<string, PathSetNode>;
}

/** The empty set. */
export const emptySet: PathSet = { members: new Set(), children: new Map() };

/** A new, empty node to build a set in. */
export function newNode(): PathSetNode {
  return { members: new Set(), children: new Map() };
}

/** True when the set holds no path. */
export function isEmpty(s: PathSet): boolean {
  return s.members.size === 0 && s.children.size === 0;
}

/** The node of a set under construction that holds the members under the first `length` elements of `path`. */
export function nodeAt(root: PathSetNode, path: FieldPath, length = path.length): PathSetNode {
  let node = root;
  for (let i = 0; i < length; i++) {
    const el = path[i]!;
    let next = node.children.get(el);
    if (next === undefined) {
      next = newNode();
      node.children.set(el, next);
    }
    node = next;
  }
  return node;
}

/** Adds the first `length` elements of `path` (a non-empty path) to a set under construction. */
export function addPath(root: PathSetNode, path: FieldPath, length = path.length): void {
  nodeAt(root, path, length - 1).members.add(path[length - 1]!);
}

/** True when `path` is a member. */
export function hasPath(s: PathSet, path: FieldPath): boolean {
  let node: PathSet | undefined = s;
  for (let i = 0; i < path.length - 1 && node !== undefined; i++) node = node.children.get(path[i]!);
  return node !== undefined && node.members.has(path[path.length - 1]!);
}

/** a ∪ b. */
export function union(a: PathSet, b: PathSet): PathSet {
  if (isEmpty(b)) return a;
  if (isEmpty(a)) return b;
  let members: ReadonlySet<string> = a.members;
  if (b.members.size > 0) {
    const [large, small] = a.members.size >= b.members.size ? [a.members, b.members] : [b.members, a.members];
    let grown: Set<string> | undefined;
    for (const m of small) {
      if (!large.has(m)) {
        grown ??= new Set(large);
        grown.add(m);
      }
    }
    members = grown ?? large;
  }
  let children: ReadonlyMap<string, PathSet> = a.children;
  if (b.children.size > 0) {
    const merged = new Map(a.children);
    for (const [el, cb] of b.children) {
      const ca = merged.get(el);
      merged.set(el, ca === undefined ? cb : union(ca, cb));
    }
    children = merged;
  }
  return { members, children };
}

/** a − b. */
export function difference(a: PathSet, b: PathSet): PathSet {
  if (isEmpty(a) || isEmpty(b)) return a;
  let members: ReadonlySet<string> = a.members;
  if (b.members.size > 0 && a.members.size > 0) {
    let kept: Set<string> | undefined;
    if (b.members.size < a.members.size / 8) {
      for (const m of b.members) {
        if (a.members.has(m)) {
          kept ??= new Set(a.members);
          kept.delete(m);
        }
      }
    } else {
      kept = new Set();
      for (const m of a.members) if (!b.members.has(m)) kept.add(m);
      if (kept.size === a.members.size) kept = undefined;
    }
    members = kept ?? a.members;
  }
  let children: ReadonlyMap<string, PathSet> = a.children;
  if (b.children.size > 0 && a.children.size > 0) {
    let changed: Map<string, PathSet> | undefined;
    for (const [el, cb] of b.children) {
      const ca = a.children.get(el);
      if (ca === undefined) continue;
      const d = difference(ca, cb);
      if (d === ca) continue;
      changed ??= new Map(a.children);
      if (isEmpty(d)) changed.delete(el);
      else changed.set(el, d);
    }
    children = changed ?? a.children;
  }
  return members === a.members && children === a.children ? a : { members, children };
}

/** a ∩ b. */
export function intersection(a: PathSet, b: PathSet): PathSet {
  if (isEmpty(a) || isEmpty(b)) return emptySet;
  const members = new Set<string>();
  const [small, large] = a.members.size <= b.members.size ? [a.members, b.members] : [b.members, a.members];
  for (const m of small) if (large.has(m)) members.add(m);
  const children = new Map<string, PathSet>();
  const [fewer, more] = a.children.size <= b.children.size ? [a.children, b.children] : [b.children, a.children];
  for (const [el, c] of fewer) {
    const other = more.get(el);
    if (other === undefined) continue;
    const i = intersection(c, other);
    if (!isEmpty(i)) children.set(el, i);
  }
  return { members, children };
}

/** True when both hold the same paths. */
export function setsEqual(a: PathSet, b: PathSet): boolean {
  if (a === b) return true;
  if (a.members.size !== b.members.size || a.children.size !== b.children.size) return false;
  for (const m of a.members) if (!b.members.has(m)) return false;
  for (const [el, c] of a.children) {
    const other = b.children.get(el);
    if (other === undefined || !setsEqual(c, other)) return false;
  }
  return true;
}

/** The set with only the top-level elements `keep` accepts (and everything under them). */
export function filterTop(s: PathSet, keep: (element: string) => boolean): PathSet {
  const members = new Set([...s.members].filter(keep));
  const children = new Map([...s.children].filter(([el]) => keep(el)));
  return members.size === s.members.size && children.size === s.children.size ? s : { members, children };
}

/** Element order of structured-merge-diff: field names, then keys, then values, then indices (by number). */
const rank = (el: string): number => {
  switch (el.charCodeAt(0)) {
    case 0x66: return 0; // f
    case 0x6b: return 1; // k
    case 0x76: return 2; // v
    case 0x69: return 3; // i
    default: return 4;
  }
};

/** Index elements (`i:3`) by their number. */
const byIndex = (x: string, y: string): number => Number(x.slice(2)) - Number(y.slice(2));

/**
 * The elements of a node (members and children) in structured-merge-diff's order, in steps: a node of a hundred
 * thousand members is sorted across turns (limits/sort-steps.ts).
 */
function* sortedElements(node: PathSet): Steps<string[]> {
  const buckets: string[][] = [[], [], [], [], []];
  for (const el of node.members) buckets[rank(el)]!.push(el);
  for (const el of node.children.keys()) if (!node.members.has(el)) buckets[rank(el)]!.push(el);
  // Within a kind, plain code-unit order (the default sort, much faster than a comparator); indices by number.
  for (const b of [buckets[0]!, buckets[1]!, buckets[2]!, buckets[4]!]) yield* sortSteps(b);
  yield* sortSteps(buckets[3]!, byIndex);
  return buckets.flat();
}

/** The FieldsV1 map of a set, keys in structured-merge-diff's order. */
export function toFieldsV1(set: PathSet): Record<string, unknown> {
  return runSteps(toFieldsV1Steps(set));
}

/** Elements written or read between two points where FieldsV1 work may give the event loop back. */
const elementsPerStep = 2048;

/** {@link toFieldsV1} in steps (see limits/turn-budget.ts). */
export function toFieldsV1Steps(set: PathSet): Steps<Record<string, unknown>> {
  return writeFieldsV1(set, {}, { visited: 0 });
}

function* writeFieldsV1(set: PathSet, out: Record<string, unknown>, count: { visited: number }): Generator<void, Record<string, unknown>, void> {
  for (const el of yield* sortedElements(set)) {
    if (++count.visited % elementsPerStep === 0) yield;
    const child = set.children.get(el);
    if (child === undefined) out[el] = {};
    else out[el] = yield* writeFieldsV1(child, set.members.has(el) ? { '.': {} } : {}, count);
  }
  return out;
}

/** The paths of a set in structured-merge-diff's iteration order (depth first, elements in their order). */
export function sortedPaths(set: PathSet): FieldPath[] {
  const out: FieldPath[] = [];
  const walk = (node: PathSet, prefix: readonly string[]): void => {
    for (const el of runSteps(sortedElements(node))) {
      const path = [...prefix, el];
      if (node.members.has(el)) out.push(path);
      const child = node.children.get(el);
      if (child !== undefined) walk(child, path);
    }
  };
  walk(set, []);
  return out;
}

const elementPattern = /^(f:[\s\S]*|k:\{[\s\S]*\}|v:[\s\S]+|i:-?\d+)$/;

/** True for `{}`. */
function isLeaf(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** Reads a FieldsV1 map back into a set; an element that is not `f:`/`k:`/`v:`/`i:` or a non-map value fails. */
export function fromFieldsV1(fields: unknown): Result<PathSet, string> {
  return runSteps(fromFieldsV1Steps(fields));
}

/** {@link fromFieldsV1} in steps (see limits/turn-budget.ts). */
export function* fromFieldsV1Steps(fields: unknown): Steps<Result<PathSet, string>> {
  const path: string[] = [];
  const count = { visited: 0 };
  let failed: string | undefined;
  /** The node of a FieldsV1 map, and whether the map marks its own path a member. */
  const read = function* (json: unknown): Generator<void, { node: PathSetNode; member: boolean } | undefined, void> {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      failed = `expected a map at ${path.join('.') || 'the root'}`;
      return undefined;
    }
    const node = newNode();
    let member = false;
    let empty = true;
    for (const el in json) {
      if (++count.visited % elementsPerStep === 0) yield;
      empty = false;
      if (el === '.') {
        member = true;
        continue;
      }
      if (!elementPattern.test(el)) {
        failed = `unexpected path element ${JSON.stringify(el)}`;
        return undefined;
      }
      if (el[0] === 'k' || el[0] === 'v') {
        try {
          JSON.parse(el.slice(2));
        } catch {
          failed = `malformed path element ${JSON.stringify(el)}`;
          return undefined;
        }
      }
      const value = (json as Record<string, unknown>)[el];
      if (isLeaf(value)) {
        // `{}`: a member without children (most of any large set), read without a node of its own.
        node.members.add(el);
        continue;
      }
      path.push(el);
      const child = yield* read(value);
      path.pop();
      if (child === undefined) return undefined;
      if (child.member) node.members.add(el);
      if (!isEmpty(child.node)) node.children.set(el, child.node);
    }
    return { node, member: member || empty };
  };
  const root = yield* read(fields);
  return root === undefined ? fail(failed!) : ok(root.node);
}

/** Builds a set from literal element lists (tests and fixed sets such as the stripped metadata fields). */
export function setOf(...paths: readonly FieldPath[]): PathSet {
  const root = newNode();
  for (const p of paths) if (p.length > 0) addPath(root, p);
  return root;
}
