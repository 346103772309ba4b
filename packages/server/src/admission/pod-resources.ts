/**
 * A pod's resources as a whole (k8s.io/kubernetes pkg/api/v1/resource PodRequests and PodLimits): the containers
 * summed, each init container a floor (they run one at a time, before the others), the pod overhead added to the
 * requests and to the limits the pod has.
 */
import { asObject, containersOf, type Json } from './object-access.js';
import { addLists, maxLists, resourceListOf, type ResourceList } from './resource-lists.js';

/** A container's requests and limits. */
export function containerResources(container: Json): { requests: ResourceList; limits: ResourceList } {
  const resources = asObject(container['resources']) ?? {};
  return { requests: resourceListOf(resources['requests']), limits: resourceListOf(resources['limits']) };
}

/** The pod's requests and limits. */
export function podResourceTotals(spec: Json): { requests: ResourceList; limits: ResourceList } {
  let requests: ResourceList = new Map();
  let limits: ResourceList = new Map();
  for (const { container } of containersOf(spec, ['containers'])) {
    const r = containerResources(container);
    requests = addLists(requests, r.requests);
    limits = addLists(limits, r.limits);
  }
  for (const { container } of containersOf(spec, ['initContainers'])) {
    const r = containerResources(container);
    requests = maxLists(requests, r.requests);
    limits = maxLists(limits, r.limits);
  }
  const overhead = resourceListOf(spec['overhead']);
  requests = addLists(requests, overhead);
  limits = addLists(limits, new Map([...overhead].filter(([name]) => limits.has(name))));
  return { requests, limits };
}
