/**
 * The fuzzer's source of choices: the tests' one seeded generator, seeded per case from the run's seed and the
 * case's index, so that case `i` of seed `s` is the same request on every run and every machine, whatever order
 * the cases run in; with the helpers a request generator wants (picks, weights, text).
 */
import { seededRandom as seededNumbers } from '../testing/seeded-random.js';

/** A deterministic stream of choices. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element. */
  pick<T>(items: readonly T[]): T;
  /** One element by weight (`[weight, value]` pairs). */
  weighted<T>(items: readonly (readonly [number, T])[]): T;
  /** A string of `length` characters from `alphabet`. */
  text(length: number, alphabet?: string): string;
}

/** One 32-bit seed for case `stream` of `seed`, mixed (splitmix32's finalizer) so that neighbouring cases differ. */
function caseSeed(seed: number, stream: number): number {
  let z = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x7feb352d)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A generator for `seed` and stream `stream` (one stream per case). */
export function seededRandom(seed: number, stream = 0): Random {
  const numbers = seededNumbers(caseSeed(seed, stream));
  const r: Random = {
    next: numbers,
    int: (n) => Math.floor(r.next() * n),
    range: (lo, hi) => lo + r.int(hi - lo + 1),
    chance: (p) => r.next() < p,
    pick: (items) => items[r.int(items.length)]!,
    weighted(items) {
      const total = items.reduce((s, [w]) => s + w, 0);
      let x = r.next() * total;
      for (const [w, v] of items) {
        x -= w;
        if (x < 0) return v;
      }
      return items[items.length - 1]![1];
    },
    text(length, alphabet = lower) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[r.int(alphabet.length)];
      return out;
    },
  };
  return r;
}
