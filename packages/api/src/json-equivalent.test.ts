import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonEquivalent } from './json-equivalent.js';

/** The canonical JSON text (keys sorted), the reference. */
function canonical(value: unknown): string {
  const sort = (v: unknown): unknown => (Array.isArray(v) ? v.map(sort)
    : typeof v === 'object' && v !== null ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v);
  return JSON.stringify(sort(value));
}

test('the same documents as comparing canonical JSON, key order and undefined-valued keys aside', () => {
  const pairs: [unknown, unknown][] = [
    [{ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }],
    [{ a: 1, u: undefined }, { a: 1 }],
    [{ a: 1 }, { a: 2 }],
    [{ a: [1, 2] }, { a: [2, 1] }],
    [{ a: {} }, { a: [] }],
    [{ a: null }, { a: undefined }],
    [{ a: 0 }, { a: '0' }],
    [{ a: 1 }, { a: 1, b: 2 }],
    [[], {}],
    ['x', 'x'],
    [{ a: { b: { c: null } } }, { a: { b: { c: null } } }],
  ];
  for (const [a, b] of pairs) {
    assert.equal(jsonEquivalent(a, b), canonical(a) === canonical(b), `${canonical(a)} vs ${canonical(b)}`);
    assert.equal(jsonEquivalent(b, a), canonical(a) === canonical(b));
  }
});
