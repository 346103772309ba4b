/**
 * Value generators of the fuzzer: odd strings and keys (control characters, long, non-BMP, lone surrogates as JSON
 * escapes, words YAML reads as something else), JSON values of every type, nesting just under, at and far past the
 * depth limit, and mutations of valid objects (a field replaced by an odd value, `null` metadata, unknown fields).
 */
import { setOwn } from '@svc-apiserver/api';
import type { Random } from './fuzz-random.js';

/** JSON-like data the generators build (bigint allowed: written as an exact number). */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

const specials = [
  '', ' ', '\u0000', '\t\r\n', '\u001b[31m', '\u007f', '"', '\\', '\\"', '\'', '{}', '[]', 'null', '~', 'yes', 'no', 'on',
  '0644', '0x1f', '1e999', '.inf', '.nan', 'NaN', '-0', '<<', '*a', '&a', '!!binary', '%YAML', '---', '...', '#',
  'ключ', 'مفتاح', '😀', 'e\u0301', '\u202e', '\uffff', '\ufeff', 'a'.repeat(64), 'a/b', 'a..b', '.', '..', '../..',
  'kube-system', 'system:masters', 'default', '\u2028', '$patch', '$retainKeys', '$setElementOrder/x', 'f:x', 'k:{"a":1}',
  // Near-misses of the formats the decoder parses (timestamps, quantities, base64), which it answers with 400.
  '2024-02-30T25:61:61Z', '2024-01-01T00:00:00.1234567890Z', '2024-01-01T00:00:00+25:00', '0000-00-00T00:00:00Z',
  '1.5.5Gi', '1e1000Ki', '-0.000000001m', '9'.repeat(40), 'QQ=', '====', 'YQ==\n',
];

/** An odd string, up to about `maxLength` characters. */
export function oddString(r: Random, maxLength = 64): string {
  return r.weighted<() => string>([
    [6, () => r.pick(specials)],
    [4, () => r.text(r.int(Math.min(maxLength, 40) + 1))],
    [2, () => r.text(r.int(maxLength + 1), 'aZ09-_.:/ \t\u0001\u001f"\\ü€😀\u0000{}[],:#&*!|>\'%@`')],
    [1, () => 'x'.repeat(r.range(maxLength, maxLength * 4))],
    [1, () => r.pick(specials) + r.text(r.int(8)) + r.pick(specials)],
  ])();
}

/** A key for an object field: mostly plain, sometimes odd (control characters, very long, empty). */
export function oddKey(r: Random): string {
  return r.weighted<() => string>([
    [8, () => r.text(r.range(1, 12))],
    [3, () => oddString(r, 32)],
    [1, () => 'k'.repeat(r.pick([253, 254, 1000, 20_000]))],
    [1, () => `x${String.fromCharCode(r.int(32))}y`],
    // Names JavaScript objects inherit: a member like any other to a client, and to the server.
    [1, () => r.pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])],
  ])();
}

/** An odd number: edges of int32, int64, doubles. */
export function oddNumber(r: Random): number | bigint {
  return r.pick<number | bigint>([
    0, -0, 1, -1, 0.5, 1e-300, 1e300, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER,
    2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n), 2n ** 64n, 10n ** 40n, r.int(1000), -r.int(1000), r.next(),
  ]);
}

/** A random JSON value with at most `budget` nodes and `depth` levels. */
export function randomJson(r: Random, depth = 4, budget = 20): Json {
  let left = budget;
  const build = (d: number): Json => {
    left--;
    const kinds: (readonly [number, () => Json])[] = [
      [3, () => oddString(r)], [2, () => oddNumber(r)], [1, () => r.chance(0.5)], [1, () => null],
    ];
    if (d > 0 && left > 0) {
      kinds.push([2, () => Array.from({ length: r.int(4) }, () => build(d - 1))]);
      kinds.push([3, () => {
        const o: Record<string, Json> = {};
        for (let i = r.int(4); i > 0 && left > 0; i--) setOwn(o, oddKey(r), build(d - 1));
        return o;
      }]);
    }
    return r.weighted(kinds)();
  };
  return build(depth);
}

/** A value nested `depth` levels: objects, lists, or both alternating. */
export function nested(depth: number, style: 'object' | 'array' | 'mixed', leaf: Json = 1): Json {
  let v: Json = leaf;
  for (let i = 0; i < depth; i++) {
    v = style === 'array' || (style === 'mixed' && i % 2 === 1) ? [v] : { a: v };
  }
  return v;
}

/** JSON text of nesting `depth`, built as text (values past the engine's own limits cannot be built as objects). */
export function nestedText(depth: number, style: 'object' | 'array'): string {
  return style === 'object' ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + '1' + ']'.repeat(depth);
}

/** A depth around the interesting places: just under, at and over the limit, and far past it. */
export function interestingDepth(r: Random, limit: number): number {
  return r.pick([limit - 1, limit, limit + 1, limit + r.int(50), 1000, 5000, 10_000, 100_000]);
}

/** JSON text of a value; bigints as exact numbers. */
export function jsonText(value: unknown, indent?: number): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v), indent);
  return (text ?? 'null').replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** A deep copy of JSON data. */
export function copyJson<T>(value: T): T {
  return structuredClone(value);
}

/** Paths (as key lists) of the objects inside a value, shallow first. */
function objectPaths(value: Json, max = 40): string[][] {
  const out: string[][] = [];
  const queue: { v: Json; p: string[] }[] = [{ v: value, p: [] }];
  while (queue.length > 0 && out.length < max) {
    const { v, p } = queue.shift()!;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    out.push(p);
    for (const [k, child] of Object.entries(v)) queue.push({ v: child, p: [...p, k] });
  }
  return out;
}

function at(value: Json, path: readonly string[]): Record<string, Json> | undefined {
  let v: Json = value;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = v[k]!;
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

/** Mutates an object in place a few times: odd values at known places, unknown fields, `null` metadata. */
export function mutateObject(r: Random, object: Record<string, Json>, times = r.range(1, 3)): void {
  for (let i = 0; i < times; i++) {
    const paths = objectPaths(object);
    const target = at(object, r.pick(paths)) ?? object;
    const keys = Object.keys(target);
    r.weighted<() => void>([
      [4, () => { setOwn(target, oddKey(r), randomJson(r, 2, 6)); }],
      [4, () => { if (keys.length > 0) target[r.pick(keys)] = randomJson(r, 2, 6); }],
      [2, () => { if (keys.length > 0) target[r.pick(keys)] = null; }],
      [3, () => {
        let meta = object['metadata'];
        if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) object['metadata'] = meta = {};
        const field = r.pick(['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields', 'name', 'namespace',
          'generateName', 'resourceVersion', 'uid', 'creationTimestamp', 'deletionTimestamp', 'generation']);
        meta[field] = r.weighted<() => Json>([
          [3, () => null],
          [2, () => ({ [oddKey(r)]: r.chance(0.5) ? null : oddString(r) })],
          [1, () => [null, oddString(r)]],
          [2, () => randomJson(r, 2, 5)],
          [1, () => Object.fromEntries(Array.from({ length: r.pick([10, 100, 1000]) }, (_, j) => [`k${j}`, `v${j}`]))],
        ])();
      }],
      [1, () => { object['metadata'] = r.pick<Json>([null, [], 'x', 5, {}]); }],
      [1, () => { setOwn(target, oddKey(r), nested(r.range(2, 40), r.pick(['object', 'array', 'mixed'] as const))); }],
    ])();
  }
}

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates as U+FFFD), keeping unreserved characters and `keep`. */
export function percentEncode(text: string, keep = ''): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) || (keep.includes(c) && byte < 0x80) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
