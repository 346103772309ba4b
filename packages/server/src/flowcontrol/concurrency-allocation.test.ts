import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeConcurrencyAllocation, type AllocationItem } from './concurrency-allocation.js';

const item = (target: number, lowerBound: number, upperBound: number): AllocationItem => ({ target, lowerBound, upperBound });

function allocate(sum: number, items: AllocationItem[]): { allocs: number[]; fairProp: number } {
  const got = computeConcurrencyAllocation(sum, items);
  assert.ok(got.ok, got.ok ? '' : got.error);
  return { allocs: got.value.allocs.map((a) => Math.round(a * 1e6) / 1e6), fairProp: Math.round(got.value.fairProp * 1e6) / 1e6 };
}

test('concurrency allocation: targets scaled by one fair proportion, within each level\'s bounds', () => {
  assert.deepEqual(allocate(80, [item(10, 0, 100), item(30, 0, 100)]), { allocs: [20, 60], fairProp: 2 }, 'no bound matters');
  assert.deepEqual(allocate(40, [item(10, 0, 5), item(10, 0, 100)]), { allocs: [5, 35], fairProp: 3.5 }, 'an upper bound stops one');
  assert.deepEqual(allocate(60, [item(20, 20, 100), item(100, 0, 100)]), { allocs: [20, 40], fairProp: 0.4 }, 'a lower bound holds one up');
  assert.deepEqual(allocate(30, [item(20, 20, 100), item(10, 10, 100)]), { allocs: [20, 10], fairProp: 1 }, 'the lower bounds use every seat');
  assert.deepEqual(allocate(50, [item(5, 0, 20), item(5, 0, 30)]), { allocs: [20, 30], fairProp: 6 }, 'the upper bounds use every seat');
  assert.deepEqual(allocate(0, [item(5, 0, 20)]), { allocs: [0], fairProp: 0 });
  // A level that asks for nothing still gets a proportion, from a tiny target.
  const idle = allocate(100, [item(0, 0, 200), item(150, 48, 148), item(5, 5, 105)]);
  assert.equal(idle.allocs[1], 95 - idle.allocs[0]!);
  assert.ok(idle.allocs[0]! < 0.001);
});

test('concurrency allocation: the allocations always sum to the seats there are', () => {
  let seed = 7;
  const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let round = 0; round < 500; round++) {
    const items = Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
      const lowerBound = Math.floor(random() * 50);
      return item(lowerBound + random() * 100, lowerBound, lowerBound + Math.floor(random() * 200));
    });
    const low = items.reduce((s, i) => s + i.lowerBound, 0);
    const high = items.reduce((s, i) => s + i.upperBound, 0);
    const sum = Math.floor(low + random() * (high - low));
    const got = computeConcurrencyAllocation(sum, items);
    assert.ok(got.ok);
    assert.ok(Math.abs(got.value.allocs.reduce((s, a) => s + a, 0) - sum) < 1e-6, `round ${round}`);
    for (const [i, a] of got.value.allocs.entries()) {
      assert.ok(a >= items[i]!.lowerBound - 1e-9 && a <= items[i]!.upperBound + 1e-9);
      // Each is its fair share unless a bound stops it.
      const fair = got.value.fairProp * Math.max(items[i]!.target, 0.001);
      assert.ok(Math.abs(a - fair) < 1e-6 || Math.abs(a - items[i]!.lowerBound) < 1e-9 || Math.abs(a - items[i]!.upperBound) < 1e-9);
    }
  }
});

test('concurrency allocation: malformed items and impossible sums are errors', () => {
  const error = (sum: number, items: AllocationItem[]): string => {
    const got = computeConcurrencyAllocation(sum, items);
    assert.ok(!got.ok);
    return got.error;
  };
  assert.match(error(10, [item(5, 6, 10)]), /target 0 is 5, which is below its lower bound of 6/);
  assert.match(error(10, [item(5, -1, 10)]), /negative lower bounds are not allowed/);
  assert.match(error(10, [item(5, 5, 4)]), /should not be less than the lower bound/);
  assert.match(error(10, [item(20, 20, 30)]), /lower bounds sum to 20, which is higher than the required sum of 10/);
  assert.match(error(40, [item(20, 20, 30)]), /upper bounds sum to 30, which is lower than the required sum of 40/);
  assert.match(error(-1, []), /negative sums/);
});
