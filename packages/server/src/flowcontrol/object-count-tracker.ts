/**
 * The number of stored objects of each resource, for the cost of lists (k8s.io/apiserver's
 * StorageObjectCountTracker in 1.27): the store's count is set every minute per resource, keyed as kube's
 * GroupResource prints (`pods`, `deployments.apps`). A count not refreshed for 3 minutes is stale (a list then costs
 * the most seats); one not refreshed for an hour is forgotten (the resource went away, or is served elsewhere).
 */

/** How long a count stays fresh (kube: 3 transient failures of the one-minute poll). */
export const staleCountAfterMs = 3 * 60_000;
/** How long an unrefreshed count is kept before it is forgotten (kube's prune interval). */
export const forgetCountAfterMs = 60 * 60_000;

/** What the tracker knows of a resource. */
export type ObjectCount =
  | { readonly kind: 'fresh'; readonly count: number }
  | { readonly kind: 'stale'; readonly count: number }
  | { readonly kind: 'unknown' };

/** The tracker. */
export interface ObjectCountTracker {
  /** Sets the count of a resource; a negative count (the store could not count) keeps the last one. */
  set(groupResource: string, count: number): void;
  get(groupResource: string): ObjectCount;
  /** Forgets the counts not refreshed for `forgetCountAfterMs`. */
  prune(): void;
}

/** A resource's key: `resource` for the core group, `resource.group` otherwise (GroupResource.String()). */
export function groupResourceKey(group: string, resource: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

/** Creates a tracker over `now` (ms). */
export function createObjectCountTracker(now: () => number = Date.now): ObjectCountTracker {
  const counts = new Map<string, { count: number; at: number }>();
  return {
    set(groupResource, count) {
      if (count < 0) return;
      counts.set(groupResource, { count, at: now() });
    },
    get(groupResource) {
      const entry = counts.get(groupResource);
      if (entry === undefined) return { kind: 'unknown' };
      return now() - entry.at > staleCountAfterMs ? { kind: 'stale', count: entry.count } : { kind: 'fresh', count: entry.count };
    },
    prune() {
      const oldest = now() - forgetCountAfterMs;
      for (const [key, entry] of counts) if (entry.at <= oldest) counts.delete(key);
    },
  };
}
