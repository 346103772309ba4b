/**
 * Equality of two decoded JSON values as kube-apiserver's validation compares typed objects
 * (apimachinery's equality.Semantic.DeepEqual): key order never matters, and an absent or null list or map equals
 * an empty one (Go's forked reflect.DeepEqual treats nil and empty slices and maps alike). Objects read back from
 * storage keep the key order they were written in, so comparing serializations would report changes that are not.
 */

function isEmptyCollection(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** True when `a` and `b` are semantically equal. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyCollection(a) && isEmptyCollection(b)) return (a === undefined || a === null || b === undefined || b === null) || Array.isArray(a) === Array.isArray(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticEqual(a[i], b[i])) return false;
    return true;
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const k of Object.keys(ra)) if (!semanticEqual(ra[k], rb[k])) return false;
    for (const k of Object.keys(rb)) if (!(k in ra) && !semanticEqual(undefined, rb[k])) return false;
    return true;
  }
  return false;
}
