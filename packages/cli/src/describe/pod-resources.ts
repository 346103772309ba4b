/**
 * What a Pod asks of its node, as kubectl computes it: the requests and limits of its containers summed, raised to
 * any init container's larger ones, plus the Pod's overhead (resourcehelper.PodRequestsAndLimits), and the QoS
 * class they put it in (qos.GetPodQOS) for Pods whose status does not name one.
 */
import type { Any } from './describe-context.js';
import { addQuantities, compareQuantities, parseQuantity, type Quantity } from './quantity.js';

/** Resource names to quantities. */
export type ResourceTotals = Map<string, Quantity>;

function eachQuantity(list: unknown, fn: (name: string, q: Quantity) => void): void {
  for (const [name, v] of Object.entries((list ?? {}) as Record<string, unknown>)) {
    const q = parseQuantity(v);
    if (q !== undefined) fn(name, q);
  }
}

/** Adds every quantity of `list` into `totals`. */
export function addResources(totals: ResourceTotals, list: unknown): void {
  eachQuantity(list, (name, q) => {
    const had = totals.get(name);
    totals.set(name, had === undefined ? q : addQuantities(had, q));
  });
}

/** Adds every quantity of `more` into `totals` (kubectl's getPodsTotalRequestsAndLimits, one Pod at a time). */
export function addTotals(totals: ResourceTotals, more: ResourceTotals): void {
  for (const [name, q] of more) {
    const had = totals.get(name);
    totals.set(name, had === undefined ? q : addQuantities(had, q));
  }
}

/** kubectl's PodRequestsAndLimits. */
export function podRequestsAndLimits(pod: Any): { requests: ResourceTotals; limits: ResourceTotals } {
  const requests: ResourceTotals = new Map();
  const limits: ResourceTotals = new Map();
  for (const c of pod.spec?.containers ?? []) {
    addResources(requests, c.resources?.requests);
    addResources(limits, c.resources?.limits);
  }
  const raise = (totals: ResourceTotals, list: unknown): void => eachQuantity(list, (name, q) => {
    const had = totals.get(name);
    if (had === undefined || compareQuantities(q, had) > 0) totals.set(name, q);
  });
  for (const c of pod.spec?.initContainers ?? []) {
    raise(requests, c.resources?.requests);
    raise(limits, c.resources?.limits);
  }
  const overhead = pod.spec?.overhead;
  if (overhead) {
    addResources(requests, overhead);
    // overhead counts towards a limit only where the Pod sets a non-zero one
    eachQuantity(overhead, (name, q) => {
      const had = limits.get(name);
      if (had !== undefined && had.nano !== 0n) limits.set(name, addQuantities(had, q));
    });
  }
  return { requests, limits };
}

/** qos.GetPodQOS: `BestEffort` without requests or limits, `Guaranteed` when every container's equal, else `Burstable`. */
export function podQOSClass(pod: Any): string {
  const requests: ResourceTotals = new Map();
  const limits: ResourceTotals = new Map();
  let guaranteed = true;
  const supported = (name: string): boolean => name === 'cpu' || name === 'memory';
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as Any[]) {
    const positive = (list: unknown): Record<string, unknown> => Object.fromEntries(Object.entries((list ?? {}) as Record<string, unknown>)
      .filter(([name, v]) => supported(name) && (parseQuantity(v)?.nano ?? 0n) > 0n));
    addResources(requests, positive(c.resources?.requests));
    const found = positive(c.resources?.limits);
    addResources(limits, found);
    if (!('cpu' in found && 'memory' in found)) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || compareQuantities(lim, req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
