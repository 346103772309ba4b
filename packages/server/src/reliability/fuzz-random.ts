/**
 * The fuzzer's source of choices: a seeded PRNG (xoshiro128**, seeded through splitmix32), so that case `i` of seed
 * `s` is the same request on every run and every machine. Hand-written: a dozen lines, and no randomness package
 * offers a seedable generator with the helpers a request generator wants.
 */

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

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A generator for `seed` and stream `stream` (one stream per case). */
export function seededRandom(seed: number, stream = 0): Random {
  const init = splitmix32((seed * 0x9e3779b1) ^ Math.imul(stream + 1, 0x7feb352d));
  let a = init();
  let b = init();
  let c = init();
  let d = init() | 1;
  const nextU32 = (): number => {
    const result = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = (d << 11) | (d >>> 21);
    return result;
  };
  const r: Random = {
    next: () => nextU32() / 0x1_0000_0000,
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
