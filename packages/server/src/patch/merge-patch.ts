/**
 * JSON merge patch (RFC 7386). Written by hand: the RFC's algorithm is a dozen lines, smaller than a dependency.
 * A `null` in the patch removes the member; objects merge recursively; anything else (arrays too) replaces.
 */
import { ownValue, setOwn } from '@svc-apiserver/api';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Applies `patch` to `target` and returns the result (the inputs are not changed, unless `target` is `owned`: a
 * private copy the caller made, changed in place, which spares copying every map the patch reaches).
 */
export function mergePatch(target: unknown, patch: unknown, owned = false): unknown {
  // Scalars are their own copy: cloning each value of a map of many keys cost more than the merge.
  if (!isObject(patch)) return typeof patch === 'object' && patch !== null ? structuredClone(patch) : patch;
  const result: Record<string, unknown> = isObject(target) ? (owned ? target : { ...target }) : {};
  // Keys, then values: Object.entries of a map of many keys costs several times as much.
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete result[key];
    else setOwn(result, key, mergePatch(ownValue(result, key), value, owned));
  }
  return result;
}
