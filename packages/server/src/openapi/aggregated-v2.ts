/**
 * The aggregated Swagger 2.0 document (kube-aggregator's OpenAPI v2 aggregator over kube-openapi's merge): the
 * server's own document, then each available APIService's `/openapi/v2` in the APIServices' priority order. Of a
 * remote document only the paths under `/apis/` count, with the definitions they reach; a path the merged document
 * already has is left out (the first server to serve it wins), and a definition whose name is taken by a different
 * one is renamed `<name>_v2` (then `_v3`, ...) with every reference to it in its own document, unless a definition
 * of that name is equal to it. A remote document that is not a Swagger object, or nests deeper than
 * {@link maxRemoteDepth}, adds nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import type { SwaggerDocument } from './v2.js';
import type { BuiltDocument } from './served.js';
import { built } from './v3.js';

type Json = Record<string, unknown>;

const definitionsRef = '#/definitions/';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A property of `obj` itself (a remote document may name a definition `constructor` or `__proto__`). */
const own = (obj: Readonly<Record<string, unknown>>, key: string): unknown => (Object.hasOwn(obj, key) ? obj[key] : undefined);

/** An empty record without a prototype, so that any name can be a key. */
const record = <T>(from: Readonly<Record<string, T>> = {}): Record<string, T> => Object.assign(Object.create(null) as Record<string, T>, from);

/** Deeper remote documents are refused: the merge walks them recursively (Go's decoder stops at 10,000 levels). */
export const maxRemoteDepth = 1000;

/** Whether `value` nests at most `max` levels (checked without recursion, so any depth is safe to ask about). */
function depthWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d >= max) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return true;
}

/** The names of the definitions `value` refers to directly (`$ref: '#/definitions/<name>'`). */
function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into);
    return;
  }
  if (!isObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(definitionsRef)) into.add(v.slice(definitionsRef.length));
    else collectRefs(v, into);
  }
}

/** `value` with its references renamed by `renames` (a copy; `value` is left alone). */
function renameRefs(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameRefs(v, renames));
  if (!isObject(value)) return value;
  // Plain objects like JSON.parse's (definitions are compared with their prototypes), every key its own property.
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const renamed = k === '$ref' && typeof v === 'string' && v.startsWith(definitionsRef) ? renames.get(v.slice(definitionsRef.length)) : undefined;
    Object.defineProperty(out, k, { value: renamed !== undefined ? `${definitionsRef}${renamed}` : renameRefs(v, renames), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The part of a remote document that is merged: its new `/apis/` paths and the definitions they reach. */
function mergeablePart(doc: Json, taken: Readonly<Record<string, unknown>>): { paths: Record<string, Json>; definitions: Record<string, Json> } | undefined {
  if (!isObject(doc['paths'])) return undefined;
  const ownDefinitions = isObject(doc['definitions']) ? doc['definitions'] : {};
  const paths = record<Json>();
  for (const [p, item] of Object.entries(doc['paths'])) {
    if (p.startsWith('/apis/') && isObject(item) && own(taken, p) === undefined) paths[p] = item;
  }
  // FilterSpecByPaths: the definitions the kept paths reach, transitively.
  const reached = new Set<string>();
  collectRefs(paths, reached);
  const definitions = record<Json>();
  const pending = [...reached];
  while (pending.length > 0) {
    const name = pending.pop()!;
    const def = own(ownDefinitions, name);
    if (!isObject(def) || own(definitions, name) !== undefined) continue;
    definitions[name] = def;
    const more = new Set<string>();
    collectRefs(def, more);
    for (const m of more) if (!reached.has(m)) {
      reached.add(m);
      pending.push(m);
    }
  }
  return { paths, definitions };
}

function sorted<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k] as T]));
}

/**
 * Merges remote Swagger documents (JSON text, in priority order) into `base`. Pure: the same inputs give the same
 * document, so callers cache it by the inputs' hashes.
 */
export function mergeAggregatedV2(base: SwaggerDocument, remotes: readonly string[]): BuiltDocument<SwaggerDocument> {
  const paths = record(base.paths);
  const definitions = record(base.definitions);
  for (const text of remotes) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(doc) || !depthWithin(doc, maxRemoteDepth)) continue;
    const part = mergeablePart(doc, paths);
    if (part === undefined) continue;
    // renameModelConflicts: a name taken by another definition gets the first free `_v<n>` suffix.
    const renames = new Map<string, string>();
    for (const [name, def] of Object.entries(part.definitions)) {
      let candidate = name;
      for (let n = 2; own(definitions, candidate) !== undefined && !isDeepStrictEqual(definitions[candidate], def); n++) candidate = `${name}_v${n}`;
      if (candidate !== name) renames.set(name, candidate);
    }
    const renamed = renames.size === 0 ? part : { paths: renameRefs(part.paths, renames) as Record<string, Json>, definitions: renameRefs(part.definitions, renames) as Record<string, Json> };
    for (const [p, item] of Object.entries(renamed.paths)) paths[p] = item;
    for (const [name, def] of Object.entries(renamed.definitions)) definitions[renames.get(name) ?? name] ??= def;
  }
  return built({ ...base, paths: sorted(paths), definitions: sorted(definitions) });
}

/** A remote document as the aggregator keeps it: its text and content hash. */
export interface RemoteV2Document {
  readonly json: string;
  readonly hash: string;
}

/**
 * {@link mergeAggregatedV2} remembered for its last inputs: the merge runs again only when the server's own document
 * or a remote one changed (kube rebuilds its merged spec when an APIService's spec changes, not per request).
 */
export function aggregatedV2(): (base: BuiltDocument<SwaggerDocument>, remotes: readonly RemoteV2Document[]) => BuiltDocument<SwaggerDocument> {
  let last: { key: string; doc: BuiltDocument<SwaggerDocument> } | undefined;
  return (base, remotes) => {
    if (remotes.length === 0) return base;
    const key = [base.hash, ...remotes.map((r) => r.hash)].join('\n');
    if (last?.key !== key) last = { key, doc: mergeAggregatedV2(base.document, remotes.map((r) => r.json)) };
    return last.doc;
  };
}
