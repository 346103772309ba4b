/**
 * Pods (pkg/registry/core/pod): status subresource, status Pending with its QoS class on create, the field
 * selectors kube serves, the pod spec's defaults and checks (pod-spec.ts) and ValidatePodUpdate's immutable spec.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { podWarnings } from './pod-warnings.js';
import { dropDisabledPodFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, fieldsAt, genericStatusStrategy } from '../default-strategy.js';
import type { SubresourceStrategy } from '../strategy.js';
import { endpointIpErrors } from './endpoints.js';
import type { Strategy } from '../strategy.js';
import { defaultPodOnly, defaultPodSpec, sameJson, specOf, validatePodSpec } from './pod-spec.js';
import { ephemeralContainersStrategy } from './pod-ephemeral-containers.js';

/** ValidatePod's checks kept here (pod-spec.ts), on the pod's `spec`. */
function validatePod(object: KubeObject): FieldError[] {
  return validatePodSpec(record(object['spec']), 'spec');
}

/** The pod QoS class (GetPodQOS): BestEffort without requests or limits, Guaranteed when limits equal requests. */
export function podQosClass(spec: Record<string, unknown>): string {
  const containers = [...(Array.isArray(spec['containers']) ? spec['containers'] : []), ...(Array.isArray(spec['initContainers']) ? spec['initContainers'] : [])];
  let any = false;
  let guaranteed = true;
  for (const raw of containers) {
    const resources = record(record(raw)?.['resources']) ?? {};
    const requests = record(resources['requests']) ?? {};
    const limits = record(resources['limits']) ?? {};
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined || (requests[r] !== undefined && String(requests[r]) !== String(limits[r]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

const updatablePodFields = '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

type Json = Record<string, unknown>;

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** ValidateContainerUpdates: the same number of containers, each with a non-blank image; true stops the checks. */
function containerUpdates(now: unknown, before: unknown, path: string): { errs: FieldError[]; stop: boolean } {
  const next = listOf(now);
  if (next.length !== listOf(before).length) return { errs: [fieldError.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  next.forEach((raw, i) => {
    const image = record(raw)?.['image'];
    const text = typeof image === 'string' ? image : '';
    if (text === '') errs.push(fieldError.required(`${path}[${i}].image`));
    if (text.trim().length !== text.length) errs.push(fieldError.invalid(`${path}[${i}].image`, text, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration is still there (only its tolerationSeconds may change). */
function onlyAddedTolerations(now: unknown, before: unknown, path: string): FieldError[] {
  for (const old of listOf(before)) {
    const found = listOf(now).some((t) => {
      const { tolerationSeconds: _a, ...rest } = record(t) ?? {};
      const { tolerationSeconds: _b, ...oldRest } = record(old) ?? {};
      return sameJson(rest, oldRest);
    });
    if (!found) return [fieldError.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return [];
}

/** validateOnlyDeletedSchedulingGates: no gate may be added once the pod exists. */
function onlyDeletedSchedulingGates(now: unknown, before: unknown, path: string): FieldError[] {
  const old = new Set(listOf(before).map((g) => record(g)?.['name']));
  const errs: FieldError[] = [];
  listOf(now).forEach((g, i) => {
    const name = record(g)?.['name'];
    if (!old.has(name)) errs.push(fieldError.forbidden(`${path}[${i}].name`, `only deletion is allowed, but found new scheduling gate '${String(name)}'`));
  });
  return errs;
}

/**
 * ValidatePodUpdate (pkg/apis/core/validation): container counts and images, activeDeadlineSeconds only set or
 * lowered, tolerations only added, scheduling gates only removed, an unchanged QoS class, and nothing else of the
 * spec changed (images, the deadline, tolerations, gates and a negative grace period turned 1 aside).
 */
function validatePodUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePod(object);
  const spec = record(object['spec']) ?? {};
  const before = record(old['spec']) ?? {};
  for (const key of ['containers', 'initContainers']) {
    const checked = containerUpdates(spec[key], before[key], `spec.${key}`);
    errs.push(...checked.errs);
    if (checked.stop) return errs;
  }
  const deadline = spec['activeDeadlineSeconds'];
  const oldDeadline = before['activeDeadlineSeconds'];
  if (typeof deadline === 'number') {
    if (deadline < 0 || deadline > 2147483647) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', deadline, 'must be between 0 and 2147483647, inclusive'));
      return errs;
    }
    if (typeof oldDeadline === 'number' && oldDeadline < deadline) {
      errs.push(fieldError.invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (typeof oldDeadline === 'number') {
    errs.push(fieldError.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...onlyAddedTolerations(spec['tolerations'], before['tolerations'], 'spec.tolerations'));
  errs.push(...onlyDeletedSchedulingGates(spec['schedulingGates'], before['schedulingGates'], 'spec.schedulingGates'));
  if (sameJson(spec, before)) return errs;
  if (podQosClass(spec) !== podQosClass(before)) errs.push(fieldError.invalid('metadata', record(object.status)?.['qosClass'] ?? '', 'Pod QoS is immutable'));
  const munged: Json = structuredClone(spec);
  for (const key of ['containers', 'initContainers']) {
    const oldList = listOf(before[key]);
    listOf(munged[key]).forEach((c, i) => {
      const target = record(c);
      const image = record(oldList[i])?.['image'];
      if (target === undefined) return;
      if (image === undefined) delete target['image'];
      else target['image'] = image;
    });
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (before[key] === undefined) delete munged[key];
    else munged[key] = before[key];
  }
  const oldGrace = before['terminationGracePeriodSeconds'];
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged['terminationGracePeriodSeconds'] === 1) munged['terminationGracePeriodSeconds'] = oldGrace;
  if (!sameJson(munged, before)) errs.push(fieldError.forbidden('spec', `pod updates may not change fields other than ${updatablePodFields}`));
  return errs;
}

const podPaths = fieldsAt(
  'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.nominatedNodeName',
);

/**
 * The pod's field selector set (pod strategy's ToSelectableFields): `spec.hostNetwork` as Go prints a bool (false
 * when unset), `status.podIP` from the first of `status.podIPs`.
 */
function podFields(object: KubeObject): Record<string, string> {
  const status = (object.status ?? {}) as { podIP?: unknown; podIPs?: { ip?: unknown }[] };
  const first = Array.isArray(status.podIPs) ? status.podIPs[0]?.ip : undefined;
  const podIP = typeof first === 'string' ? first : typeof status.podIP === 'string' ? status.podIP : '';
  const hostNetwork = (object.spec as { hostNetwork?: unknown } | undefined)?.hostNetwork === true;
  return { ...podPaths(object), 'spec.hostNetwork': String(hostNetwork), 'status.podIP': podIP };
}

/**
 * The pod's grace period on delete (podStrategy.CheckGracefulDelete): the requested one, else
 * `spec.terminationGracePeriodSeconds` (else 0); 0 for a pod not bound to a node (no node agent would ever stop
 * it) and for a pod already `Succeeded` or `Failed`.
 */
export function podGracePeriod(object: KubeObject, requested: number | undefined): number {
  const spec = record(object['spec']) ?? {};
  const configured = spec['terminationGracePeriodSeconds'];
  let period = requested ?? (typeof configured === 'number' ? configured : 0);
  const nodeName = spec['nodeName'];
  if (typeof nodeName !== 'string' || nodeName === '') period = 0;
  const phase = record(object.status)?.['phase'];
  if (phase === 'Succeeded' || phase === 'Failed') period = 0;
  return period;
}

/**
 * The v1 conversion of a pod's IPs: `status.podIPs` is taken from a lone `status.podIP`, and `status.podIP` is always
 * the first of `status.podIPs` (Convert_v1_PodStatus_To_core_PodStatus and back).
 */
export function mirrorPodIps(object: KubeObject): void {
  const status = record(object.status);
  if (status === undefined) return;
  const ips = Array.isArray(status['podIPs']) ? status['podIPs'] : [];
  if (ips.length === 0 && typeof status['podIP'] === 'string' && status['podIP'] !== '') status['podIPs'] = [{ ip: status['podIP'] }];
  const first = record((status['podIPs'] as unknown[] | undefined)?.[0])?.['ip'];
  if (typeof first === 'string' && first !== '') status['podIP'] = first;
  else delete status['podIP'];
}

/**
 * The pod status strategy (podStatusStrategy, ValidatePodStatusUpdate): the spec stays, IPs are mirrored and must be
 * valid, the node name may not change through status, a nominated node name is a node name.
 */
const podStatusStrategy: SubresourceStrategy = {
  prepareForUpdate(object, old) {
    genericStatusStrategy.prepareForUpdate(object, old);
    mirrorPodIps(object);
  },
  validateUpdate(object, old) {
    const errs: FieldError[] = [];
    const status = record(object.status) ?? {};
    if (!sameJson(record(object['spec'])?.['nodeName'], record(old['spec'])?.['nodeName'])) errs.push(fieldError.forbidden('status.nodeName', 'may not be changed directly'));
    const nominated = status['nominatedNodeName'];
    if (typeof nominated === 'string' && nominated !== '' && nominated !== record(old.status)?.['nominatedNodeName']) {
      for (const msg of isDns1123Subdomain(nominated)) errs.push(fieldError.invalid('status.nominatedNodeName', nominated, msg));
    }
    (Array.isArray(status['podIPs']) ? status['podIPs'] : []).forEach((ip, i) => {
      for (const e of endpointIpErrors(record(ip)?.['ip'], `status.podIPs[${i}]`)) {
        if (e.detail.startsWith('must be a valid IP')) errs.push(e);
      }
    });
    return errs;
  },
};

/** The pod strategy. */
export function podStrategy(names?: Names): Strategy {
  return { ...podStrategyBase(names), gracePeriodFor: podGracePeriod };
}

function podStrategyBase(names: Names | undefined): Strategy {
  return defineStrategy({
    warnings: (object) => (names === undefined ? [] : podWarnings(names, record(object['spec']) ?? {}, (object.metadata ?? {}) as Record<string, unknown>)),
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate(object) {
      const spec = specOf(object);
      dropDisabledPodFields(spec, undefined);
      defaultPodSpec(spec);
      defaultPodOnly(spec);
      object.status = { phase: 'Pending', qosClass: podQosClass(spec) };
    },
    prepareForUpdate(object, old) {
      const spec = specOf(object);
      dropDisabledPodFields(spec, record(old['spec']));
      defaultPodSpec(spec);
      defaultPodOnly(spec);
    },
    validate: validatePod,
    validateUpdate: validatePodUpdate,
    selectableFields: podFields,
    subresources: { ephemeralcontainers: ephemeralContainersStrategy },
    status: podStatusStrategy,
  });
}
