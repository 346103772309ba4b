/**
 * The patch of client-side apply: kubectl's three-way merge of the last applied configuration, the configuration
 * applied now, and the live object, expressed as a JSON merge patch (RFC 7386). Fields the user applied before and
 * dropped now are deleted (null); fields applied now that differ from the live object are set; fields others set
 * on the live object and the user never applied are left alone. Lists are replaced whole, as a merge patch does.
 */

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The merge patch taking `live` from `last` applied to `desired`, leaving fields `last` never had. */
export function threeWayMergePatch(last: unknown, desired: unknown, live: unknown): Obj {
  const l = isObj(last) ? last : {};
  const d = isObj(desired) ? desired : {};
  const v = isObj(live) ? live : {};
  const patch: Obj = {};
  for (const key of Object.keys(l)) {
    if (!(key in d) && key in v) patch[key] = null;
  }
  for (const [key, want] of Object.entries(d)) {
    const have = v[key];
    if (isObj(want) && isObj(have)) {
      const sub = threeWayMergePatch(l[key], want, have);
      if (Object.keys(sub).length > 0) patch[key] = sub;
    } else if (!equal(want, have)) {
      patch[key] = want;
    }
  }
  return patch;
}
