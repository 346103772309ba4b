import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runStepsCounted } from '../limits/turn-budget.js';
import { goStableSort, goStableSortSteps } from './go-stable-sort.js';

/** A seeded generator, so the cases are the same every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

test('Go\'s stable sort: an order sorts stably, as Array.prototype.sort does, at every size', () => {
  const r = random(7);
  for (const n of [0, 1, 2, 19, 20, 21, 39, 40, 41, 100, 1000, 5000]) {
    const items = Array.from({ length: n }, (_, i) => ({ key: Math.floor(r() * 50), at: i }));
    const expected = [...items].sort((x, y) => x.key - y.key);
    goStableSort(items, (x, y) => x.key < y.key);
    assert.deepEqual(items, expected, `n=${n}`);
  }
});

test('Go\'s stable sort: up to 20 items it is an insertion sort, whatever the comparison', () => {
  const r = random(11);
  for (let round = 0; round < 200; round++) {
    const n = 1 + Math.floor(r() * 20);
    // Items missing from the order (-1) compare "less" both ways, as strategic merge patch's comparison does.
    const items = Array.from({ length: n }, () => (r() < 0.3 ? -1 : Math.floor(r() * 10)));
    const less = (a: number, b: number): boolean => (a >= 0 && b >= 0 ? a < b : true);
    const insertion = [...items];
    for (let i = 1; i < insertion.length; i++) {
      for (let j = i; j > 0 && less(insertion[j]!, insertion[j - 1]!); j--) [insertion[j - 1], insertion[j]] = [insertion[j]!, insertion[j - 1]!];
    }
    goStableSort(items, less);
    assert.deepEqual(items, insertion);
  }
});

test('Go\'s stable sort: 100,000 items with a comparison that is no order end as a permutation of them', () => {
  const items = Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? -1 : i));
  goStableSort(items, (a, b) => (a >= 0 && b >= 0 ? a < b : true));
  assert.deepEqual([...items].sort((a, b) => a - b), Array.from({ length: 100_000 }, (_, i) => (i % 3 === 0 ? -1 : i)).sort((a, b) => a - b));
});

test('Go\'s stable sort in steps: the same order as in one go, with points to yield between blocks and merges', () => {
  const r = random(13);
  const items = Array.from({ length: 30_000 }, () => (r() < 0.2 ? -1 : Math.floor(r() * 5000)));
  const less = (a: number, b: number): boolean => (a >= 0 && b >= 0 ? a < b : true);
  const whole = [...items];
  goStableSort(whole, less);
  const stepped = [...items];
  const { yields } = runStepsCounted(goStableSortSteps(stepped, less));
  assert.deepEqual(stepped, whole);
  assert.ok(yields >= 30_000 / 4096, `${yields} yields`);
  assert.equal(runStepsCounted(goStableSortSteps(Array.from({ length: 100 }, (_, i) => 100 - i), (a, b) => a < b)).yields, 0);
});
