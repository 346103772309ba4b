/**
 * Toleration algebra of kube's pkg/util/tolerations, shared by RuntimeClass, PodTolerationRestriction,
 * DefaultTolerationSeconds and ExtendedResourceToleration: whether one toleration covers another, merging two
 * lists without redundant entries, and checking a list against a whitelist.
 */
import { asObject, jsonEqual, objectsOf, stringOf, type Json } from './object-access.js';

/** True when `ss` tolerates everything `t` does (tolerations.isSuperset). */
export function coversToleration(ss: Json, t: Json): boolean {
  if (jsonEqual(ss, t)) return true;
  const ssKey = stringOf(ss['key']);
  const ssOperator = stringOf(ss['operator']);
  // An empty key with Exists matches every key.
  if (stringOf(t['key']) !== ssKey && (ssKey !== '' || ssOperator !== 'Exists')) return false;
  const ssEffect = stringOf(ss['effect']);
  if (stringOf(t['effect']) !== ssEffect && ssEffect !== '') return false;
  if (ssEffect === 'NoExecute' && typeof ss['tolerationSeconds'] === 'number') {
    const seconds = t['tolerationSeconds'];
    if (typeof seconds !== 'number' || seconds > ss['tolerationSeconds']) return false;
  }
  switch (ssOperator) {
    case '':
    case 'Equal':
      return stringOf(t['operator']) === 'Equal' && stringOf(t['value']) === stringOf(ss['value']);
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** `first` and `second` without tolerations another one covers (tolerations.MergeTolerations). */
export function mergeTolerations(first: readonly Json[], second: readonly Json[]): Json[] {
  const all = [...first, ...second];
  const merged: Json[] = [];
  outer: for (const [i, t] of all.entries()) {
    for (const kept of merged) if (coversToleration(kept, t)) continue outer;
    for (const later of all.slice(i + 1)) {
      // Of equal tolerations the first is kept.
      if (!jsonEqual(t, later) && coversToleration(later, t)) continue outer;
    }
    merged.push(t);
  }
  return merged;
}

/** True when every toleration is covered by one of the whitelist (tolerations.VerifyAgainstWhitelist). */
export function tolerationsWithin(tolerations: readonly Json[], whitelist: readonly Json[]): boolean {
  if (whitelist.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => coversToleration(w, t)));
}

/** The tolerations of a pod spec. */
export function tolerationsOf(spec: Json): Json[] {
  return objectsOf(spec['tolerations']);
}

/** A toleration list read from an annotation or configuration (a JSON array of objects); undefined when malformed. */
export function parseTolerations(value: unknown): Json[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every((t) => asObject(t) !== undefined) ? (value as Json[]) : undefined;
}
