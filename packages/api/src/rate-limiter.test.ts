import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bucketRateLimiter, controllerRateLimiter, itemExponentialFailureRateLimiter, maxOfRateLimiter } from './rate-limiter.js';

test('exponential back-off per key doubles up to its cap; forget starts the key over', () => {
  const limiter = itemExponentialFailureRateLimiter(5, 40);
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => limiter.when('a')), [5, 10, 20, 40, 40, 40]);
  assert.equal(limiter.when('b'), 5, 'keys back off independently');
  assert.equal(limiter.numRequeues('a'), 6);
  limiter.forget('a');
  assert.equal(limiter.numRequeues('a'), 0);
  assert.equal(limiter.when('a'), 5);
});

test('the cap holds however often a key fails', () => {
  const limiter = itemExponentialFailureRateLimiter(5, 1_000_000);
  let last = 0;
  for (let i = 0; i < 2000; i++) last = limiter.when('k');
  assert.equal(last, 1_000_000);
});

test('bucket: a burst passes at once, then retries are spaced at the refill rate', () => {
  let now = 0;
  const limiter = bucketRateLimiter(10, 2, () => now);
  assert.deepEqual([limiter.when('a'), limiter.when('b'), limiter.when('c'), limiter.when('d')], [0, 0, 100, 200]);
  now = 1_000;
  // Refilled to the burst, never beyond it.
  assert.deepEqual([limiter.when('a'), limiter.when('a'), limiter.when('a')], [0, 0, 100]);
  assert.equal(limiter.numRequeues('a'), 0);
});

test('max of: the longest delay wins; forget reaches every limiter', () => {
  let now = 0;
  const limiter = maxOfRateLimiter(itemExponentialFailureRateLimiter(5, 1000), bucketRateLimiter(10, 1, () => now));
  assert.equal(limiter.when('a'), 5);
  assert.equal(limiter.when('a'), 100, 'the bucket is empty');
  now = 10_000;
  assert.equal(limiter.when('a'), 20);
  assert.equal(limiter.numRequeues('a'), 3);
  limiter.forget('a');
  assert.equal(limiter.numRequeues('a'), 0);
});

test('the default controller limiter starts at 5 ms', () => {
  const limiter = controllerRateLimiter();
  assert.deepEqual([limiter.when('a'), limiter.when('a'), limiter.when('b')], [5, 10, 5]);
  assert.equal(controllerRateLimiter({ baseMs: 1, maxMs: 2 }).when('x'), 1);
});
