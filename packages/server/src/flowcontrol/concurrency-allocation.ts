/**
 * The division of the server's seats among the limited priority levels for borrowing (kube 1.27's
 * computeConcurrencyAllocation): find the one fair proportion p such that the levels' allocations
 * clamp(p × target, lower bound, upper bound) sum to the seats there are. Each level then gets its target scaled by
 * p, unless a bound stops it. The sum is a continuous non-decreasing function of p, linear between the points where
 * some level reaches a bound, so p is found by evaluating it at those points and interpolating in the segment that
 * crosses the required sum. Written here because it is this one small computation, not a general solver.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';

/** One level's part of the problem. */
export interface AllocationItem {
  readonly target: number;
  readonly lowerBound: number;
  readonly upperBound: number;
}

/** The answer: an allocation per item, in their order, and the fair proportion. */
export interface Allocation {
  readonly allocs: readonly number[];
  readonly fairProp: number;
}

/** Targets below this are taken as this (so that every level has a proportion). */
export const minTarget = 0.001;
const epsilon = 0.0000001;

const clamp = (x: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, x));

/**
 * Allocates `requiredSum` seats among `items`. Fails when an item is malformed (a negative lower bound, a target
 * below its lower bound, an upper bound below the lower) or the bounds cannot meet the sum.
 */
export function computeConcurrencyAllocation(requiredSum: number, items: readonly AllocationItem[]): Result<Allocation, string> {
  if (requiredSum < 0) return fail('negative sums are not supported');
  let lowSum = 0;
  let highSum = 0;
  const targets: number[] = [];
  for (const [i, item] of items.entries()) {
    if (item.lowerBound < 0) return fail(`lower bound ${i} is ${item.lowerBound} but negative lower bounds are not allowed`);
    if (item.target < item.lowerBound) return fail(`target ${i} is ${item.target}, which is below its lower bound of ${item.lowerBound}`);
    if (item.upperBound < item.lowerBound) return fail(`upper bound ${i} is ${item.upperBound} but should not be less than the lower bound ${item.lowerBound}`);
    lowSum += item.lowerBound;
    highSum += item.upperBound;
    targets.push(Math.max(item.target, minTarget));
  }
  if (lowSum - requiredSum > epsilon) return fail(`lower bounds sum to ${lowSum}, which is higher than the required sum of ${requiredSum}`);
  if (requiredSum - highSum > epsilon) return fail(`upper bounds sum to ${highSum}, which is lower than the required sum of ${requiredSum}`);
  if (requiredSum === 0) return ok({ allocs: items.map(() => 0), fairProp: 0 });
  const relativeLower = items.map((item, i) => item.lowerBound / targets[i]!);
  const relativeUpper = items.map((item, i) => item.upperBound / targets[i]!);
  if (lowSum - requiredSum > -epsilon) return ok({ allocs: items.map((item) => item.lowerBound), fairProp: Math.min(...relativeLower) });
  if (requiredSum - highSum > -epsilon) return ok({ allocs: items.map((item) => item.upperBound), fairProp: Math.max(...relativeUpper) });
  const sumAt = (p: number): number => items.reduce((sum, item, i) => sum + clamp(p * targets[i]!, item.lowerBound, item.upperBound), 0);
  // Below the smallest relative lower bound every level sits at its lower bound (sum < required); above the
  // largest relative upper bound at its upper bound (sum > required): the crossing is between two breakpoints.
  const points = [...new Set([...relativeLower, ...relativeUpper])].sort((a, b) => a - b);
  let previous = points[0]!;
  let previousSum = sumAt(previous);
  let fairProp = previous;
  for (const point of points.slice(1)) {
    const s = sumAt(point);
    if (s >= requiredSum) {
      fairProp = s === previousSum ? point : previous + ((requiredSum - previousSum) * (point - previous)) / (s - previousSum);
      break;
    }
    previous = point;
    previousSum = s;
  }
  return ok({ allocs: items.map((item, i) => clamp(fairProp * targets[i]!, item.lowerBound, item.upperBound)), fairProp });
}
