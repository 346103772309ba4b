/**
 * JSON merge patch (RFC 7386). Written by hand: the RFC's algorithm is a dozen lines, smaller than a dependency.
 * A `null` in the patch removes the member; objects merge recursively; anything else (arrays too) replaces.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies `patch` to `target` and returns the result (the inputs are not changed). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
