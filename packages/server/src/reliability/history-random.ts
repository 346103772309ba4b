/**
 * A seeded pseudo-random generator (mulberry32) for the reliability harness: a run prints its seed, so the same
 * choices of requests, objects and fault moments can be made again.
 */

/** Numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
