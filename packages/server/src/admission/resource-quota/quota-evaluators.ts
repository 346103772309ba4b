/**
 * What objects count against a ResourceQuota (k8s.io/kubernetes pkg/quota/v1/evaluator/core and the generic object
 * count evaluator), shared by the ResourceQuota admission plugin and the resourcequota controller: per kind, the
 * resource names it consumes, its usage, whether it falls under a quota's scopes, and the constraints a quota puts
 * on it (a quota on cpu or memory requires every container to state them).
 *
 * - pods: `pods` and compute (`cpu`/`requests.cpu`, `limits.cpu`, memory, ephemeral-storage, hugepages,
 *   `requests.<extended>`) while not terminal; `count/pods` always. Scopes Terminating, NotTerminating, BestEffort,
 *   NotBestEffort, PriorityClass (scope selectors), CrossNamespacePodAffinity.
 * - services: `services`, `services.loadbalancers`, `services.nodeports`, `count/services`.
 * - persistentvolumeclaims: `persistentvolumeclaims`, `requests.storage`, and both per storage class
 *   (`<class>.storageclass.storage.<suffix>/...`), `count/persistentvolumeclaims`.
 * - every other resource: `count/<resource>[.<group>]`, and the legacy names of configmaps, secrets,
 *   replicationcontrollers and resourcequotas.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { compareQuantities, quantityOf, type Quantity } from '../../meta/quantity.js';
import { isExtendedResourceName } from '../plugins/extended-resource-toleration.js';
import { isBestEffort } from '../plugins/pod-toleration-restriction.js';
import { annotationsOf, asObject, containersOf, objectsOf, specOf, stringOf, type Json } from '../object-access.js';
import { containerResources, podResourceTotals } from '../pod-resources.js';
import { resourceListOf, type ResourceList } from '../resource-lists.js';
import type { AdmissionOperation } from '../plugin.js';

/** A scope selector requirement (ScopedResourceSelectorRequirement). */
export interface ScopeRequirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values: readonly string[];
}

/** How one kind counts against quotas. */
export interface QuotaEvaluator {
  /** The group and resource evaluated. */
  readonly group: string;
  readonly resource: string;
  /** Whether an operation can change usage (kube's Evaluator.Handles). */
  handles(operation: AdmissionOperation): boolean;
  /** The names among `names` this kind consumes. */
  matchingResources(names: readonly string[]): string[];
  /** The object's usage. */
  usage(object: KubeObject, now: number): ResourceList;
  /** Whether the object falls under one scope requirement. */
  matchesScope(scope: ScopeRequirement, object: KubeObject): boolean;
  /** Why the object cannot be admitted under a quota restricting `required`, or undefined. */
  constraints(required: readonly string[], object: KubeObject): string | undefined;
}

const one = (): Quantity => quantityOf(1);

/** The scope requirements of a quota: its `spec.scopes` (Exists) and `spec.scopeSelector` (getScopeSelectorsFromQuota). */
export function quotaScopes(quota: KubeObject): ScopeRequirement[] {
  const spec = specOf(quota);
  const scopes = (Array.isArray(spec['scopes']) ? spec['scopes'] : []).map((s) => ({ scopeName: String(s), operator: 'Exists', values: [] }));
  const selector = objectsOf(asObject(spec['scopeSelector'])?.['matchExpressions']).map((e) => ({
    scopeName: stringOf(e['scopeName']), operator: stringOf(e['operator']), values: (Array.isArray(e['values']) ? e['values'] : []).map(String),
  }));
  return [...scopes, ...selector];
}

/** Whether an object falls under every scope of a quota and the quota limits something the kind consumes (generic.Matches). */
export function quotaMatches(evaluator: QuotaEvaluator, quota: KubeObject, object: KubeObject): boolean {
  const hard = Object.keys(asObject(asObject(quota['status'])?.['hard']) ?? {});
  if (evaluator.matchingResources(hard).length === 0) return false;
  return quotaScopes(quota).every((s) => evaluator.matchesScope(s, object));
}

/** A selector requirement over one value (the pod's priority class): In, NotIn, Exists, DoesNotExist. */
function requirementMatches(scope: ScopeRequirement, value: string): boolean {
  switch (scope.operator) {
    case 'In': return scope.values.includes(value);
    case 'NotIn': return !scope.values.includes(value);
    case 'Exists': return value !== '';
    case 'DoesNotExist': return value === '';
    default: return false;
  }
}

/** QuotaV1Pod: a pod counts toward compute quota unless terminal or past its deletion grace period. */
export function podCountsForQuota(pod: KubeObject, now: number): boolean {
  const phase = stringOf(asObject(pod['status'])?.['phase']);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const meta = pod.metadata;
  if (meta?.deletionTimestamp !== undefined && meta.deletionGracePeriodSeconds !== undefined) {
    if (now > Date.parse(meta.deletionTimestamp) + meta.deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

const podComputeResources = new Set(['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'count/pods']);
/** The resources a quota on cpu or memory requires every container to state (the pod evaluator's validationSet). */
const requiredStated = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

function usesCrossNamespaceAffinity(spec: Json): boolean {
  const affinity = asObject(spec['affinity']) ?? {};
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = asObject(affinity[kind]) ?? {};
    const terms = [
      ...objectsOf(a['requiredDuringSchedulingIgnoredDuringExecution']),
      ...objectsOf(a['preferredDuringSchedulingIgnoredDuringExecution']).map((w) => asObject(w['podAffinityTerm']) ?? {}),
    ];
    if (terms.some((t) => (Array.isArray(t['namespaces']) && t['namespaces'].length > 0) || (t['namespaceSelector'] !== undefined && t['namespaceSelector'] !== null))) {
      return true;
    }
  }
  return false;
}

function podEvaluator(names: Names): QuotaEvaluator {
  const extendedRequest = (r: string) => r.startsWith('requests.') && isExtendedResourceName(r.slice('requests.'.length), names);
  return {
    group: '', resource: 'pods',
    handles: (operation) => operation === 'CREATE',
    matchingResources: (list) => list.filter((r) => podComputeResources.has(r) || r.startsWith('hugepages-') || r.startsWith('requests.hugepages-') || extendedRequest(r)),
    usage(pod, now) {
      const result: ResourceList = new Map([['count/pods', one()]]);
      if (!podCountsForQuota(pod, now)) return result;
      const { requests, limits } = podResourceTotals(specOf(pod));
      result.set('pods', one());
      for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
        const req = requests.get(r);
        if (req !== undefined) {
          result.set(r, req);
          result.set(`requests.${r}`, req);
        }
        const lim = limits.get(r);
        if (lim !== undefined) result.set(`limits.${r}`, lim);
      }
      for (const [r, q] of requests) {
        if (r.startsWith('hugepages-')) {
          result.set(r, q);
          result.set(`requests.${r}`, q);
        }
        if (isExtendedResourceName(r, names)) result.set(`requests.${r}`, q);
      }
      return result;
    },
    matchesScope(scope, pod) {
      const spec = specOf(pod);
      const terminating = typeof spec['activeDeadlineSeconds'] === 'number' && spec['activeDeadlineSeconds'] >= 0;
      switch (scope.scopeName) {
        case 'Terminating': return terminating;
        case 'NotTerminating': return !terminating;
        case 'BestEffort': return isBestEffort(spec);
        case 'NotBestEffort': return !isBestEffort(spec);
        case 'PriorityClass': return requirementMatches(scope, stringOf(spec['priorityClassName']));
        case 'CrossNamespacePodAffinity': return usesCrossNamespaceAffinity(spec);
        default: return false;
      }
    },
    constraints(required, pod) {
      const needed = required.filter((r) => requiredStated.has(r));
      if (needed.length === 0) return undefined;
      const missing = new Map<string, Set<string>>();
      for (const { container } of containersOf(specOf(pod), ['containers', 'initContainers'])) {
        const { requests, limits } = containerResources(container);
        for (const r of needed) {
          const base = r.replace(/^(requests|limits)\./, '');
          const stated = r.startsWith('limits.') ? limits.has(base) : requests.has(base) || limits.has(base);
          if (!stated) {
            const set = missing.get(r) ?? new Set<string>();
            set.add(stringOf(container['name']));
            missing.set(r, set);
          }
        }
      }
      if (missing.size === 0) return undefined;
      return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`).join('; ')}`;
    },
  };
}

function serviceEvaluator(): QuotaEvaluator {
  const resources = new Set(['count/services', 'services', 'services.nodeports', 'services.loadbalancers']);
  return {
    group: '', resource: 'services',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    matchingResources: (list) => list.filter((r) => resources.has(r)),
    usage(service) {
      const spec = specOf(service);
      const ports = objectsOf(spec['ports']).length;
      const type = stringOf(spec['type']);
      const allocatesNodePorts = type === 'NodePort' || (type === 'LoadBalancer' && spec['allocateLoadBalancerNodePorts'] !== false);
      return new Map([
        ['count/services', one()], ['services', one()],
        ['services.loadbalancers', quantityOf(type === 'LoadBalancer' ? 1 : 0)],
        ['services.nodeports', quantityOf(allocatesNodePorts ? ports : 0)],
      ]);
    },
    matchesScope: () => false,
    constraints: () => undefined,
  };
}

function claimEvaluator(names: Names): QuotaEvaluator {
  const classSuffix = `.storageclass.${names.group('storage')}/`;
  const betaClassAnnotation = names.domain('storage-class', 'volume.beta');
  const base = new Set(['persistentvolumeclaims', 'requests.storage', 'count/persistentvolumeclaims']);
  return {
    group: '', resource: 'persistentvolumeclaims',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    matchingResources: (list) => list.filter((r) => base.has(r) ||
      (r.includes(classSuffix) && (r.endsWith(`${classSuffix}persistentvolumeclaims`) || r.endsWith(`${classSuffix}requests.storage`)))),
    usage(claim) {
      const result: ResourceList = new Map([['persistentvolumeclaims', one()], ['count/persistentvolumeclaims', one()]]);
      const className = annotationsOf(claim)[betaClassAnnotation] ?? stringOf(specOf(claim)['storageClassName']);
      if (className !== '') result.set(`${className}${classSuffix}persistentvolumeclaims`, one());
      const storage = resourceListOf(asObject(specOf(claim)['resources'])?.['requests']).get('storage');
      if (storage !== undefined) {
        result.set('requests.storage', storage);
        if (className !== '') result.set(`${className}${classSuffix}requests.storage`, storage);
      }
      return result;
    },
    matchesScope: () => false,
    constraints: () => undefined,
  };
}

/** The resources counted by their legacy name beside `count/<resource>`. */
const legacyCounted = new Set(['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']);

/** The object count name of a resource: `count/<resource>` in the core group, `count/<resource>.<group>` else. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

function objectCountEvaluator(group: string, resource: string): QuotaEvaluator {
  const names = new Set([objectCountName(group, resource), ...(group === '' && legacyCounted.has(resource) ? [resource] : [])]);
  return {
    group, resource,
    handles: (operation) => operation === 'CREATE',
    matchingResources: (list) => list.filter((r) => names.has(r)),
    usage: () => new Map([...names].map((n) => [n, one()])),
    matchesScope: () => false,
    constraints: () => undefined,
  };
}

/** The evaluators of a flavour, by group and resource; any other resource gets an object count evaluator. */
export function quotaEvaluators(names: Names): (group: string, resource: string) => QuotaEvaluator {
  const built = new Map<string, QuotaEvaluator>([
    ['/pods', podEvaluator(names)], ['/services', serviceEvaluator()], ['/persistentvolumeclaims', claimEvaluator(names)],
  ]);
  return (group, resource) => {
    const key = `${group}/${resource}`;
    let e = built.get(key);
    if (e === undefined) {
      e = objectCountEvaluator(group, resource);
      built.set(key, e);
    }
    return e;
  };
}

/**
 * The group and resource a quota resource name is about, for the controller's monitoring: `count/deployments.apps`
 * → apps/deployments, and the names of the built-in evaluators.
 */
export function resourceOfQuotaName(name: string, names: Names): { group: string; resource: string } | undefined {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
  }
  if (name === 'services' || name.startsWith('services.')) return { group: '', resource: 'services' };
  if (name === 'persistentvolumeclaims' || name === 'requests.storage' || name.includes(`.storageclass.${names.group('storage')}/`)) {
    return { group: '', resource: 'persistentvolumeclaims' };
  }
  if (legacyCounted.has(name)) return { group: '', resource: name };
  const pods = podEvaluator(names);
  if (pods.matchingResources([name]).length > 0) return { group: '', resource: 'pods' };
  return undefined;
}

/** True when two usages are equal on every name of either. */
export function sameUsage(a: ResourceList, b: ResourceList): boolean {
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k);
    const y = b.get(k);
    if (x === undefined || y === undefined) {
      if ((x ?? y)!.nano !== 0n) return false;
    } else if (compareQuantities(x, y) !== 0) {
      return false;
    }
  }
  return true;
}
