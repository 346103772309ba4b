/**
 * Sets of field paths (structured-merge-diff's fieldpath.Set) as plain `Set<string>` values with the set algebra
 * server-side apply is written in, and their `FieldsV1` form: a nested map whose keys are path elements, where a
 * path that is itself a member and also has children carries a `.` key, and a leaf member is `{}`.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { childPath, pathElements, pathFromElements } from './field-path.js';

/** A set of field paths. */
export type PathSet = ReadonlySet<string>;

/** The empty set. */
export const emptySet: PathSet = new Set();

/** a ∪ b. */
export function union(a: PathSet, b: PathSet): PathSet {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  const out = new Set(a);
  for (const p of b) out.add(p);
  return out;
}

/** a − b. */
export function difference(a: PathSet, b: PathSet): PathSet {
  if (b.size === 0 || a.size === 0) return a;
  const out = new Set<string>();
  for (const p of a) if (!b.has(p)) out.add(p);
  return out;
}

/** a ∩ b. */
export function intersection(a: PathSet, b: PathSet): PathSet {
  const out = new Set<string>();
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const p of small) if (large.has(p)) out.add(p);
  return out;
}

/** True when both hold the same paths. */
export function setsEqual(a: PathSet, b: PathSet): boolean {
  if (a.size !== b.size) return false;
  for (const p of a) if (!b.has(p)) return false;
  return true;
}

/** Element order of structured-merge-diff: field names, then keys, then values, then indices. */
const elementRank: Readonly<Record<string, number>> = { f: 0, k: 1, v: 2, i: 3 };

function compareElements(a: string, b: string): number {
  const ra = elementRank[a[0]!] ?? 4;
  const rb = elementRank[b[0]!] ?? 4;
  if (ra !== rb) return ra - rb;
  if (ra === 3) return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Node {
  member: boolean;
  readonly children: Map<string, Node>;
}

/** The set as a tree of elements (members flagged). */
export function pathTree(set: PathSet): { readonly member: boolean; readonly children: ReadonlyMap<string, ReturnType<typeof pathTree>> } {
  const root: Node = { member: false, children: new Map() };
  for (const path of set) {
    let node = root;
    for (const el of pathElements(path)) {
      let next = node.children.get(el);
      if (next === undefined) {
        next = { member: false, children: new Map() };
        node.children.set(el, next);
      }
      node = next;
    }
    node.member = true;
  }
  return root;
}

/** The FieldsV1 map of a set, keys in structured-merge-diff's order. */
export function toFieldsV1(set: PathSet): Record<string, unknown> {
  const emit = (node: ReturnType<typeof pathTree>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    if (node.member && node.children.size > 0) out['.'] = {};
    for (const el of [...node.children.keys()].sort(compareElements)) out[el] = emit(node.children.get(el)!);
    return out;
  };
  return emit(pathTree(set));
}

const elementPattern = /^(f:[\s\S]*|k:\{[\s\S]*\}|v:[\s\S]+|i:-?\d+)$/;

/** Reads a FieldsV1 map back into a set; an element that is not `f:`/`k:`/`v:`/`i:` or a non-map value fails. */
export function fromFieldsV1(fields: unknown): Result<PathSet, string> {
  const out = new Set<string>();
  const walk = (node: unknown, path: string[]): string | undefined => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return `expected a map at ${path.join('.') || 'the root'}`;
    const entries = Object.entries(node as Record<string, unknown>);
    if (entries.length === 0 && path.length > 0) out.add(pathFromElements(path));
    for (const [el, child] of entries) {
      if (el === '.') {
        if (path.length > 0) out.add(pathFromElements(path));
        continue;
      }
      if (!elementPattern.test(el)) return `unexpected path element ${JSON.stringify(el)}`;
      if (el[0] === 'k' || el[0] === 'v') {
        try {
          JSON.parse(el.slice(2));
        } catch {
          return `malformed path element ${JSON.stringify(el)}`;
        }
      }
      const failed = walk(child, [...path, el]);
      if (failed !== undefined) return failed;
    }
    return undefined;
  };
  const failed = walk(fields, []);
  return failed === undefined ? ok(out) : fail(failed);
}

/** The paths of a set in structured-merge-diff's iteration order (depth first, elements in their order). */
export function sortedPaths(set: PathSet): string[] {
  const split = [...set].map((p) => ({ p, els: pathElements(p) }));
  split.sort((a, b) => {
    const n = Math.min(a.els.length, b.els.length);
    for (let i = 0; i < n; i++) {
      const c = compareElements(a.els[i]!, b.els[i]!);
      if (c !== 0) return c;
    }
    return a.els.length - b.els.length;
  });
  return split.map((x) => x.p);
}

/** Builds a set from literal element lists (tests and fixed sets such as the stripped metadata fields). */
export function setOf(...paths: readonly (readonly string[])[]): PathSet {
  return new Set(paths.map((p) => p.reduce((acc, el) => childPath(acc, el), '')));
}
