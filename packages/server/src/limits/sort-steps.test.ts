import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortRun, sortSteps } from './sort-steps.js';
import { runStepsCounted } from './turn-budget.js';

/** A deterministic pseudo-random sequence (a linear congruential generator), so a failure repeats. */
function numbers(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31);
}

test('a long list sorted in steps is in the order of one native sort, and yields between steps', () => {
  const next = numbers(7);
  // Duplicates, surrogate pairs and characters above them: code-unit order, not code-point order.
  const alphabet = ['a', 'b', 'Z', '\u{1F600}', '\uFF5E', 'é', '0', ''];
  const items = Array.from({ length: 5 * sortRun + 123 }, () =>
    Array.from({ length: 1 + (next() % 4) }, () => alphabet[next() % alphabet.length]).join(''));
  const { value, yields } = runStepsCounted(sortSteps([...items]));
  assert.deepEqual(value, [...items].sort());
  assert.ok(yields >= 6, `${yields} yields`);
});

test('a comparator with ties keeps equal elements in their order, as the native sort does', () => {
  const next = numbers(11);
  const items = Array.from({ length: 3 * sortRun + 5 }, (_, i) => `i:${next() % 500}${i % 2 === 0 ? '' : ' '}`);
  const byNumber = (x: string, y: string): number => parseInt(x.slice(2), 10) - parseInt(y.slice(2), 10);
  assert.deepEqual(runStepsCounted(sortSteps([...items], byNumber)).value, [...items].sort(byNumber));
});

test('a short list is sorted at once', () => {
  const items = Array.from({ length: sortRun }, (_, i) => `k${(i * 7919) % sortRun}`);
  assert.deepEqual(runStepsCounted(sortSteps([...items])), { value: [...items].sort(), yields: 0 });
});
