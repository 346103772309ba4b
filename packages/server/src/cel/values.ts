/**
 * Values as expressions see them (kube's UnstructuredToVal): JSON data turned into the engine's values by its
 * declared type — integers as bigint, `format: byte` strings as bytes, `date`/`date-time` as timestamps, `duration`
 * as durations, objects of a declared type as instances whose fields convert when first read — plus the equality
 * and concatenation of lists with `x-kubernetes-list-type` `set` or `map`, which ignore order (document 3 §Expression
 * language).
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { DeclField, DeclType, ListType } from './schema-types.js';

type ObjectDecl = Extract<DeclType, { kind: 'object' }>;

/** A list's `x-kubernetes-list-type` semantics, remembered per converted list. */
interface ListSemantics {
  readonly listType: Exclude<ListType, 'atomic'>;
  readonly mapKeys: readonly string[];
}
const listSemantics = new WeakMap<readonly unknown[], ListSemantics>();

const rawOf = Symbol('raw');
const declOf = Symbol('decl');

/** An object of a declared type: its fields are read (and converted) on first access. */
export interface CelObject {
  readonly [rawOf]: Readonly<Record<string, unknown>>;
  readonly [declOf]: ObjectDecl;
}

const classes = new WeakMap<ObjectDecl, new (raw: Readonly<Record<string, unknown>>) => CelObject>();

/** The class whose instances hold values of object type `t` (one per type, registered with the engine). */
export function objectClass(t: ObjectDecl): new (raw: Readonly<Record<string, unknown>>) => CelObject {
  let cls = classes.get(t);
  if (cls !== undefined) return cls;
  const created = {
    [t.typeName]: class {
      readonly [rawOf]: Readonly<Record<string, unknown>>;
      constructor(raw: Readonly<Record<string, unknown>>) {
        this[rawOf] = raw;
      }
      get [declOf](): ObjectDecl {
        return t;
      }
    },
  }[t.typeName]!;
  for (const field of t.fields.values()) {
    Object.defineProperty(created.prototype, field.name, {
      get(this: CelObject) {
        const raw = this[rawOf][field.jsonName];
        const value = raw === undefined || raw === null ? undefined : toCelValue(raw, field.type);
        Object.defineProperty(this, field.name, { value, enumerable: false });
        return value;
      },
      enumerable: false,
      configurable: true,
    });
  }
  cls = created as unknown as new (raw: Readonly<Record<string, unknown>>) => CelObject;
  classes.set(t, cls);
  return cls;
}

/** True for values of a declared object type. */
export function isCelObject(v: unknown): v is CelObject {
  return typeof v === 'object' && v !== null && rawOf in v;
}

/** The declared fields of an object value that are set. */
export function setFieldsOf(v: CelObject): DeclField[] {
  return [...v[declOf].fields.values()].filter((f) => (v as unknown as Record<string, unknown>)[f.name] !== undefined);
}

/** The JSON an object value was made from. */
export function rawObjectOf(v: CelObject): Readonly<Record<string, unknown>> {
  return v[rawOf];
}

/** Remembers the list type of list `v` (for values made outside {@link toCelValue}). */
export function markList(v: unknown[], listType: ListType, mapKeys: readonly string[] = []): unknown[] {
  if (listType !== 'atomic') listSemantics.set(v, { listType, mapKeys });
  return v;
}

const isInteger = (v: number): boolean => Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER * 2 ** 11;

/** A JSON value of unknown shape as an expression value: whole numbers are ints, objects maps. */
export function toDynValue(v: unknown): unknown {
  if (v === null) return null;
  switch (typeof v) {
    case 'number': return isInteger(v) ? BigInt(v) : v;
    case 'string': case 'boolean': case 'bigint': return v;
    case 'object': {
      if (Array.isArray(v)) return v.map(toDynValue);
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toDynValue(x);
      return out;
    }
    default: return null;
  }
}

/** A JSON value of declared type `t` as an expression value. Values that do not fit their type stay as they are. */
export function toCelValue(v: unknown, t: DeclType): unknown {
  switch (t.kind) {
    case 'scalar':
      return toScalar(v, t.scalar);
    case 'library':
      return v;
    case 'list': {
      if (!Array.isArray(v)) return toDynValue(v);
      const out = v.map((x) => toCelValue(x, t.elem));
      if (t.listType !== 'atomic') listSemantics.set(out, { listType: t.listType, mapKeys: t.mapKeys });
      return out;
    }
    case 'map': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return toDynValue(v);
      const out: Record<string, unknown> = Object.create(null);
      for (const [k, x] of Object.entries(v)) if (x !== undefined && x !== null) out[k] = toCelValue(x, t.value);
      return out;
    }
    case 'object': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return toDynValue(v);
      return new (objectClass(t))(v as Record<string, unknown>);
    }
  }
}

function toScalar(v: unknown, kind: string): unknown {
  switch (kind) {
    case 'int': return typeof v === 'number' && isInteger(v) ? BigInt(v) : toDynValue(v);
    case 'double': return typeof v === 'number' ? v : toDynValue(v);
    case 'bytes': return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : toDynValue(v);
    case 'timestamp': {
      if (typeof v !== 'string') return toDynValue(v);
      const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
      return Number.isNaN(d.getTime()) ? v : d;
    }
    case 'duration': return typeof v === 'string' ? (parseDuration(v) ?? v) : toDynValue(v);
    default: return toDynValue(v);
  }
}

const unitNanos: Readonly<Record<string, bigint>> = {
  ns: 1n, us: 1_000n, 'µs': 1_000n, 'μs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
};

/** Go's time.ParseDuration (`1h30m`, `-1.5s`, `0`), as a duration value; undefined when malformed. */
export function parseDuration(text: string): Duration | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return new Duration(0, 0);
  if (s === '') return undefined;
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (s !== '') {
    const m = part.exec(s);
    if (m === null || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const unit = unitNanos[m[3]!]!;
    const frac = m[2] ?? '';
    total += BigInt(m[1] || '0') * unit + (frac === '' ? 0n : (BigInt(frac) * unit) / 10n ** BigInt(frac.length));
    s = s.slice(m[0].length);
  }
  if (negative) total = -total;
  return new Duration(total / 1_000_000_000n, Number(total % 1_000_000_000n));
}

/** Nanoseconds of a duration value. */
export function durationNanos(d: Duration): bigint {
  return d.seconds * 1_000_000_000n + BigInt(d.nanos);
}

/** A duration value of `nanos` nanoseconds. */
export function durationOf(nanos: bigint): Duration {
  return new Duration(nanos / 1_000_000_000n, Number(nanos % 1_000_000_000n));
}

/** An expression value as JSON: ints as numbers, bytes as base64, timestamps and durations as their strings. */
export function toJsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint': return Number(v);
    case 'string': case 'number': case 'boolean': return v;
    default: break;
  }
  if (v instanceof UnsignedInt) return Number(v.value);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Duration) return v.toString();
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (isCelObject(v)) return rawObjectOf(v);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), toJsonValue(x)]));
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJsonValue(x)]));
  return null;
}

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof UnsignedInt) return v.value;
  return undefined;
}

function mapEntries(v: unknown): [unknown, unknown][] | undefined {
  if (v instanceof Map) return [...v];
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && !isCelObject(v) && (v.constructor === Object || v.constructor === undefined)) {
    return Object.entries(v);
  }
  return undefined;
}

function mapKeyOf(item: unknown, keys: readonly string[]): string {
  return JSON.stringify(keys.map((k) => {
    const v = isCelObject(item) ? (item as unknown as Record<string, unknown>)[k] : (item as Record<string, unknown> | null)?.[k];
    return typeof v === 'bigint' ? `${v}n` : (v ?? null);
  }));
}

/**
 * Equality as kube-apiserver evaluates it: numbers compare across int, uint and double; values of different types are
 * unequal; lists of list type `set` are equal when they hold the same elements in any order, lists of list type `map`
 * when they hold equal items under the same keys in any order (the left operand's list type decides).
 */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return a === a;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    if (typeof na === typeof nb) return na === nb;
    const [int, dbl] = typeof na === 'bigint' ? [na, nb as number] : [nb as bigint, na as number];
    return Number.isInteger(dbl) && BigInt(dbl) === int;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b));
  }
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Duration || b instanceof Duration) {
    return a instanceof Duration && b instanceof Duration && durationNanos(a) === durationNanos(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    const semantics = listSemantics.get(a) ?? listSemantics.get(b);
    if (semantics === undefined) return a.every((x, i) => celEquals(x, b[i]));
    if (semantics.listType === 'set') return a.every((x) => b.some((y) => celEquals(x, y)));
    const byKey = new Map(b.map((y) => [mapKeyOf(y, semantics.mapKeys), y]));
    return a.every((x) => {
      const k = mapKeyOf(x, semantics.mapKeys);
      return byKey.has(k) && celEquals(x, byKey.get(k));
    });
  }
  if (isCelObject(a) || isCelObject(b)) {
    if (!isCelObject(a) || !isCelObject(b) || a[declOf].typeName !== b[declOf].typeName) return false;
    const fa = setFieldsOf(a);
    if (fa.length !== setFieldsOf(b).length) return false;
    const ra = a as unknown as Record<string, unknown>;
    const rb = b as unknown as Record<string, unknown>;
    return fa.every((f) => rb[f.name] !== undefined && celEquals(ra[f.name], rb[f.name]));
  }
  const ea = mapEntries(a);
  const eb = mapEntries(b);
  if (ea !== undefined && eb !== undefined) {
    if (ea.length !== eb.length) return false;
    const mb = b instanceof Map ? b : new Map(eb);
    return ea.every(([k, v]) => mb.has(k as never) && celEquals(v, mb.get(k as never)));
  }
  if ('name' in a && 'name' in b && a.constructor === b.constructor) return (a as { name: unknown }).name === (b as { name: unknown }).name;
  return false;
}

/**
 * List concatenation as kube-apiserver evaluates it: for list type `set` the right-hand elements not already present
 * are appended; for list type `map` right-hand items replace left-hand items with the same keys and new keys are
 * appended; otherwise the lists are joined. The result keeps the left operand's list type.
 */
export function celConcat(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const semantics = listSemantics.get(a);
  if (semantics === undefined) return [...a, ...b];
  let out: unknown[];
  if (semantics.listType === 'set') {
    out = [...a];
    for (const y of b) if (!out.some((x) => celEquals(x, y))) out.push(y);
  } else {
    out = [...a];
    const index = new Map(out.map((x, i) => [mapKeyOf(x, semantics.mapKeys), i]));
    for (const y of b) {
      const k = mapKeyOf(y, semantics.mapKeys);
      const at = index.get(k);
      if (at === undefined) {
        index.set(k, out.length);
        out.push(y);
      } else {
        out[at] = y;
      }
    }
  }
  listSemantics.set(out, semantics);
  return out;
}

/** True when list `list` holds an element equal to `v`. */
export function celListContains(list: readonly unknown[], v: unknown): boolean {
  return list.some((x) => celEquals(v, x));
}
