/**
 * JSON merge patch (RFC 7386). Written by hand: the RFC's algorithm is a dozen lines, smaller than a dependency.
 * A `null` in the patch removes the member; objects merge recursively; anything else (arrays too) replaces.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies `patch` to `target` and returns the result (the inputs are not changed). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  // Scalars are their own copy: cloning each value of a map of many keys cost more than the merge.
  if (!isObject(patch)) return typeof patch === 'object' && patch !== null ? structuredClone(patch) : patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  // Keys, then values: Object.entries of a map of many keys costs several times as much.
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
