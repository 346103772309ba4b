/**
 * A small seeded generator for randomized tests (mulberry32), so a failing seed can be replayed. Not for anything
 * that needs unpredictability.
 */

/** Numbers in [0, 1) from `seed`, the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
