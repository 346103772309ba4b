/**
 * LimitRanger (plugin/pkg/admission/limitranger): enforces the LimitRanges of the namespace. A new pod's containers
 * get the `Container` limits' `default` (limits) and `defaultRequest` (requests) for resources they leave unset,
 * recorded in the `<domain>/limit-ranger` annotation; then every container must lie within `min` and `max` and
 * under `maxLimitRequestRatio`, the pod as a whole within the `Pod` limits (containers summed, init containers as
 * the floor, overhead added), and a claim's storage request within the `PersistentVolumeClaim` limits. Pod updates
 * are not checked (their resources cannot change).
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { formatQuantity, milliValue, type Quantity } from '../../meta/quantity.js';
import { defaultRequestsFromLimits } from '../../registry/resources/pod-spec.js';
import { admissionForbidden, aggregate } from '../admission-errors.js';
import { asObject, childObject, containersOf, objectsOf, specOf, stringOf, type Json } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type AdmissionAttributes, type InitializablePlugin } from '../plugin.js';
import { containerResources, podResourceTotals } from '../pod-resources.js';
import { resourceListOf, type ResourceList } from '../resource-lists.js';

/** The plugin's name. */
export const limitRangerPluginName = 'LimitRanger';

/**
 * SetDefaults_LimitRangeItem for `Container` items: `default` from `max`, `defaultRequest` from `default`, then
 * from `min`. Applied when read, so a LimitRange stored without its defaults enforces what kube's would.
 */
export function limitRangeItemWithDefaults(item: Json): Json {
  if (item['type'] !== 'Container') return item;
  const out = structuredClone(item);
  const defaults = childObject(out, 'default');
  const defaultRequest = childObject(out, 'defaultRequest');
  for (const [k, v] of Object.entries(asObject(out['max']) ?? {})) if (defaults[k] === undefined) defaults[k] = v;
  for (const [k, v] of Object.entries(defaults)) if (defaultRequest[k] === undefined) defaultRequest[k] = v;
  for (const [k, v] of Object.entries(asObject(out['min']) ?? {})) if (defaultRequest[k] === undefined) defaultRequest[k] = v;
  return out;
}

/** The items of a LimitRange, with their defaults. */
const itemsOf = (limitRange: KubeObject): Json[] => objectsOf(specOf(limitRange)['limits']).map(limitRangeItemWithDefaults);

/** Sorted names of a JSON resource list. */
const namesOf = (list: unknown): string[] => Object.keys(asObject(list) ?? {}).sort();

/** Milli-values compared as kube's requestLimitEnforcedValues compares them. */
const milli = (q: Quantity): bigint => milliValue(q);

/** minConstraint. */
function minConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  if (req === undefined) return `minimum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}.  No request is specified`;
  if (milli(req) < milli(enforced)) return `minimum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}, but request is ${formatQuantity(req)}`;
  if (lim !== undefined && milli(lim) < milli(enforced)) {
    return `minimum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}, but limit is ${formatQuantity(lim)}`;
  }
  return undefined;
}

/** maxConstraint. */
function maxConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  if (lim === undefined) return `maximum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}.  No limit is specified`;
  if (milli(lim) > milli(enforced)) return `maximum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}, but limit is ${formatQuantity(lim)}`;
  if (req !== undefined && milli(req) > milli(enforced)) {
    return `maximum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}, but request is ${formatQuantity(req)}`;
  }
  return undefined;
}

/** maxRequestConstraint (claims: what is requested is what is enforced). */
function maxRequestConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(resource);
  if (req === undefined) return `maximum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}.  No request is specified`;
  if (milli(req) > milli(enforced)) return `maximum ${resource} usage per ${limitType} is ${formatQuantity(enforced)}, but request is ${formatQuantity(req)}`;
  return undefined;
}

/** limitRequestRatioConstraint. */
function ratioConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  const shown = formatQuantity(enforced);
  if (req === undefined || milli(req) === 0n) {
    return `${resource} max limit to request ratio per ${limitType} is ${shown}, but no request is specified or request is 0`;
  }
  if (lim === undefined || milli(lim) === 0n) {
    return `${resource} max limit to request ratio per ${limitType} is ${shown}, but no limit is specified or limit is 0`;
  }
  const observed = Number(milli(lim)) / Number(milli(req));
  if (observed * 1000 > Number(milli(enforced))) {
    return `${resource} max limit to request ratio per ${limitType} is ${shown}, but provided ratio is ${observed.toFixed(6)}`;
  }
  return undefined;
}

/** The min, max and ratio checks of one item against requests and limits. */
function checkItem(item: Json, limitType: string, requests: ResourceList, limits: ResourceList): string[] {
  const errs: string[] = [];
  const min = resourceListOf(item['min']);
  const max = resourceListOf(item['max']);
  const ratio = resourceListOf(item['maxLimitRequestRatio']);
  for (const r of namesOf(item['min'])) if (min.has(r)) errs.push(minConstraint(limitType, r, min.get(r)!, requests, limits) ?? '');
  for (const r of namesOf(item['max'])) if (max.has(r)) errs.push(maxConstraint(limitType, r, max.get(r)!, requests, limits) ?? '');
  for (const r of namesOf(item['maxLimitRequestRatio'])) {
    if (ratio.has(r)) errs.push(ratioConstraint(limitType, r, ratio.get(r)!, requests, limits) ?? '');
  }
  return errs.filter((e) => e !== '');
}

/** The errors of a pod against one LimitRange (PodValidateLimitFunc). */
function podErrors(limitRange: KubeObject, spec: Json): string[] {
  const errs: string[] = [];
  for (const item of itemsOf(limitRange)) {
    if (item['type'] === 'Container') {
      for (const { container } of containersOf(spec, ['containers', 'initContainers'])) {
        const r = containerResources(container);
        errs.push(...checkItem(item, 'Container', r.requests, r.limits));
      }
    }
    if (item['type'] === 'Pod') {
      const totals = podResourceTotals(spec);
      errs.push(...checkItem(item, 'Pod', totals.requests, totals.limits));
    }
  }
  return errs;
}

/** The errors of a claim against one LimitRange (PersistentVolumeClaimValidateLimitFunc). */
function claimErrors(limitRange: KubeObject, claim: KubeObject): string[] {
  const requests = resourceListOf(asObject(specOf(claim)['resources'])?.['requests']);
  const errs: string[] = [];
  for (const item of itemsOf(limitRange)) {
    if (item['type'] !== 'PersistentVolumeClaim') continue;
    const min = resourceListOf(item['min']);
    const max = resourceListOf(item['max']);
    for (const r of [...min.keys()].sort()) errs.push(minConstraint('PersistentVolumeClaim', r, min.get(r)!, requests, new Map()) ?? '');
    for (const r of [...max.keys()].sort()) errs.push(maxRequestConstraint('PersistentVolumeClaim', r, max.get(r)!, requests) ?? '');
  }
  return errs.filter((e) => e !== '');
}

/** Sets a container's unset limits and requests from the defaults (mergeContainerResources); what was set, for the annotation. */
function mergeDefaults(container: Json, defaults: { limits: Json; requests: Json }, prefix: string): string[] {
  const resources = childObject(container, 'resources');
  const limits = childObject(resources, 'limits');
  const requests = childObject(resources, 'requests');
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(defaults.limits)) {
    if (limits[k] === undefined) {
      limits[k] = v;
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(defaults.requests)) {
    if (requests[k] === undefined) {
      requests[k] = v;
      setRequests.push(k);
    }
  }
  if (Object.keys(limits).length === 0) delete resources['limits'];
  if (Object.keys(requests).length === 0) delete resources['requests'];
  const name = stringOf(container['name']);
  const notes: string[] = [];
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${name}`);
  return notes;
}

/** Creates the plugin. */
export function limitRangerPlugin(names: Names): InitializablePlugin {
  const deps = dependencyHolder(limitRangerPluginName);
  const annotation = names.domain('limit-ranger');
  /** The namespace's LimitRanges, in name order. */
  const limitRanges = async (namespace: string): Promise<KubeObject[]> => {
    const informer = await deps.informer('', 'limitranges');
    return (informer?.listIn(namespace) ?? []).sort((x, y) => (x.metadata?.name ?? '').localeCompare(y.metadata?.name ?? ''));
  };
  const isPod = (a: AdmissionAttributes) => a.group === '' && a.resource === 'pods' && a.kind === 'Pod';
  const isClaim = (a: AdmissionAttributes) => a.group === '' && a.resource === 'persistentvolumeclaims';
  const applies = (a: AdmissionAttributes) =>
    a.subresource === '' && a.object !== undefined && ((isPod(a) && a.operation === 'CREATE') || isClaim(a));
  return {
    name: limitRangerPluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    actsOn: (group, resource) => group === '' && (resource === 'pods' || resource === 'persistentvolumeclaims'),
    async admit(a) {
      if (!applies(a) || !isPod(a)) return admitted;
      const ranges = await limitRanges(a.namespace);
      if (ranges.length === 0) return admitted;
      const pod = a.object!;
      const spec = childObject(pod, 'spec');
      // kube's API defaulting copied limits into unset requests before its admission ran.
      defaultRequestsFromLimits(spec);
      const notes: string[] = [];
      for (const limitRange of ranges) {
        const defaults = { limits: {} as Json, requests: {} as Json };
        for (const item of itemsOf(limitRange)) {
          if (item['type'] !== 'Container') continue;
          Object.assign(defaults.requests, structuredClone(asObject(item['defaultRequest']) ?? {}));
          Object.assign(defaults.limits, structuredClone(asObject(item['default']) ?? {}));
        }
        for (const { container } of containersOf(spec, ['containers'])) notes.push(...mergeDefaults(container, defaults, 'container'));
        for (const { container } of containersOf(spec, ['initContainers'])) notes.push(...mergeDefaults(container, defaults, 'init container'));
      }
      if (notes.length > 0) {
        const meta = (pod.metadata ??= {});
        meta.annotations = { ...(meta.annotations ?? {}), [annotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
      }
      return admitted;
    },
    async validate(a) {
      if (!applies(a)) return admitted;
      for (const limitRange of await limitRanges(a.namespace)) {
        const errs = isPod(a) ? podErrors(limitRange, specOf(a.object)) : claimErrors(limitRange, a.object!);
        if (errs.length > 0) return refused(admissionForbidden(a, aggregate(errs)));
      }
      return admitted;
    },
  };
}
