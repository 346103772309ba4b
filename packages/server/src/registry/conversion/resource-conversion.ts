/**
 * Conversion between a served version and the version a resource is stored in (kube's scheme conversion through
 * the internal type, written here as direct pairs: each served version converts to and from the storage version).
 * Document 1 deprecation rule 2: objects round-trip between versions without information loss.
 */
import type { KubeObject } from '@svc-apiserver/api';

/** Where a resource's objects are stored and how a served version converts to and from it. */
export interface ResourceConversion {
  /** Neutral group key, version and plural of the storage version (its key prefix and stored apiVersion). */
  readonly storage: { readonly groupKey: string; readonly version: string; readonly resource: string; readonly kind: string };
  /** The stored apiVersion in the served flavour. */
  readonly storageApiVersion: string;
  /** A served object as the storage version holds it (a new object; the argument is not changed). */
  toStorage(object: KubeObject): KubeObject;
  /** A stored object as the served version shows it (a new object; the argument is not changed). */
  fromStorage(object: KubeObject): KubeObject;
}

/** A plain JSON object field, or undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * `object` with top-level fields renamed by `pairs` ([from, to]); fields not named keep their place. Used where
 * two versions differ only by field names (kube's generated conversions with a manual rename).
 */
export function renameFields(object: Record<string, unknown>, pairs: readonly (readonly [string, string])[]): Record<string, unknown> {
  const map = new Map(pairs);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(object)) {
    if (v === undefined) continue;
    out[map.get(k) ?? k] = v;
  }
  return out;
}

/** The same pairs read the other way. */
export function reversed(pairs: readonly (readonly [string, string])[]): [string, string][] {
  return pairs.map(([a, b]) => [b, a]);
}
