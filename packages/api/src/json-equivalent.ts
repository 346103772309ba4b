/**
 * Whether two JSON values serialize to the same document, key order aside: what comparing their canonical JSON
 * texts (keys sorted) tells, without building those texts. Written by hand: a walk over both values that allocates
 * nothing, where sorting the keys of a large map and serializing it costs hundreds of milliseconds. It never calls
 * two different documents equivalent; for values JSON cannot express (NaN, undefined inside lists) it may call equal
 * documents different, which only costs a redundant write.
 */

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True when `a` and `b` are the same JSON document, whatever the order of their keys. */
export function jsonEquivalent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquivalent(a[i], b[i])) return false;
    return true;
  }
  if (!isMap(a) || !isMap(b)) return false;
  // Keys holding undefined are left out of JSON: they count as absent on both sides.
  let defined = 0;
  for (const k of Object.keys(a)) {
    const v = a[k];
    if (v === undefined) continue;
    defined++;
    if (!Object.hasOwn(b, k) || !jsonEquivalent(v, b[k])) return false;
  }
  for (const k of Object.keys(b)) if (b[k] !== undefined) defined--;
  return defined === 0;
}
