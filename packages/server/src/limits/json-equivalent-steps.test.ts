import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonEquivalent } from '@svc-apiserver/api';
import { jsonEquivalentSteps } from './json-equivalent-steps.js';
import { runStepsCounted } from './turn-budget.js';

const map = (n: number, value: (i: number) => unknown = () => ''): Record<string, unknown> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value(i)]));

test('stepped comparison: the same answers as the whole one, with points to yield in large lists and maps', () => {
  const big = { data: map(100_000), list: Array.from({ length: 3000 }, (_, i) => ({ i })) };
  const cases: [unknown, unknown][] = [
    [big, structuredClone(big)],
    [big, { ...structuredClone(big), data: { ...map(100_000), k99999: 'x' } }],
    [big, { ...structuredClone(big), data: map(99_999) }],
    [big, { list: big.list, data: big.data, extra: undefined }],
    [{ data: map(1000) }, { data: { ...map(1000), added: 1 } }],
    [{ data: map(1000, (i) => ({ v: i })) }, { data: Object.fromEntries(Object.entries(map(1000, (i) => ({ v: i }))).reverse()) }],
    [[...Array(1000).keys()], [...Array(1000).keys()].reverse()],
    [{ a: 1 }, { a: 1 }],
    [{ a: 1 }, { a: 2 }],
    [map(300), null],
  ];
  for (const [a, b] of cases) {
    assert.equal(runStepsCounted(jsonEquivalentSteps(a, b)).value, jsonEquivalent(a, b));
  }
  const { value, yields } = runStepsCounted(jsonEquivalentSteps(big, structuredClone(big)));
  assert.equal(value, true);
  assert.ok(yields >= 2 * 100_000 / 256, `${yields} points to yield`);
  assert.equal(runStepsCounted(jsonEquivalentSteps({ a: { b: 1 } }, { a: { b: 1 } })).yields, 0, 'a small object is compared in one step');
});
