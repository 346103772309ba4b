/**
 * The watches open on this server, for the cost of writes (kube 1.27's WatchTracker): each watch is counted under
 * its group, resource, namespace and name, and a write counts the watches of its whole resource, of its namespace
 * and of its object. Selectors are ignored — they are evaluated for every event anyway — except the watch cache's
 * index of pods by `spec.nodeName`: a pod watch that selects one node is not counted (kube approximates every pod
 * event as going to the watches of no node).
 */
import { parseFieldSelector } from '@svc-apiserver/api';
import type { RequestInfo } from '../request/request-info.js';

/** The tracker. */
export interface WatchTracker {
  /** Counts a watch; the returned function forgets it (once). */
  register(info: RequestInfo, query: URLSearchParams): () => void;
  /** The watches that may be interested in a write (0 for reads). */
  interestedWatchCount(info: RequestInfo): number;
}

/** The field the watch cache indexes watches of a resource by (kube's builtin indexes). */
const indexedFields: Readonly<Record<string, string>> = { pods: 'spec.nodeName' };

const readOnlyVerbs: ReadonlySet<string> = new Set(['get', 'list', 'watch', 'proxy']);

const keyOf = (group: string, resource: string, namespace: string, name: string): string => `${group}\u0000${resource}\u0000${namespace}\u0000${name}`;

/** The value a watch's field selector requires of `field` exactly, or undefined. */
function exactMatch(query: URLSearchParams, field: string): string | undefined {
  const parsed = parseFieldSelector(query.get('fieldSelector') ?? '');
  if (!parsed.ok) return undefined;
  return parsed.value.requirements.find((r) => r.field === field && r.operator === 'equals')?.value;
}

/** Creates an empty tracker. */
export function createWatchTracker(): WatchTracker {
  const counts = new Map<string, number>();
  const add = (key: string, delta: number): void => {
    const n = (counts.get(key) ?? 0) + delta;
    if (n === 0) counts.delete(key);
    else counts.set(key, n);
  };
  return {
    register(info, query) {
      if (info.verb !== 'watch') return () => {};
      const indexed = indexedFields[info.resource];
      if (indexed !== undefined && (exactMatch(query, indexed) ?? '') !== '') return () => {};
      const key = keyOf(info.apiGroup, info.resource, info.namespace, info.name);
      add(key, 1);
      let forgotten = false;
      return () => {
        if (forgotten) return;
        forgotten = true;
        add(key, -1);
      };
    },
    interestedWatchCount(info) {
      if (readOnlyVerbs.has(info.verb)) return 0;
      let n = counts.get(keyOf(info.apiGroup, info.resource, '', '')) ?? 0;
      if (info.namespace !== '') n += counts.get(keyOf(info.apiGroup, info.resource, info.namespace, '')) ?? 0;
      if (info.name !== '') n += counts.get(keyOf(info.apiGroup, info.resource, info.namespace, info.name)) ?? 0;
      return n;
    },
  };
}
