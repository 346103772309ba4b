/**
 * Pods (pkg/registry/core/pod): status subresource, status Pending with its QoS class on create, the field
 * selectors kube serves, the pod spec's defaults and checks (pod-spec.ts) and ValidatePodUpdate's immutable spec.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, fieldsAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { defaultPodSpec, defaultRequestsFromLimits, sameJson, specOf, validatePodSpec } from './pod-spec.js';
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

/** Fields of a pod spec an update may change (ValidatePodUpdate's allowed mutations). */
function mutablePart(spec: unknown): unknown {
  const s = structuredClone(record(spec) ?? {});
  for (const key of ['containers', 'initContainers']) {
    for (const c of Array.isArray(s[key]) ? s[key] : []) delete (c as Record<string, unknown>)['image'];
  }
  delete s['activeDeadlineSeconds'];
  delete s['tolerations'];
  delete s['terminationGracePeriodSeconds'];
  delete s['schedulingGates'];
  return s;
}

/** ValidatePodUpdate: only images, activeDeadlineSeconds, tolerations (and a few more) may change. */
function validatePodUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePod(object);
  if (!sameJson(mutablePart(object['spec']), mutablePart(old['spec']))) {
    errs.push(fieldError.forbidden('spec', 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'));
  }
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

/** The pod strategy. */
export function podStrategy(): Strategy {
  return { ...podStrategyBase(), gracePeriodFor: podGracePeriod };
}

function podStrategyBase(): Strategy {
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate(object) {
      const spec = specOf(object);
      defaultPodSpec(spec);
      defaultRequestsFromLimits(spec);
      object.status = { phase: 'Pending', qosClass: podQosClass(spec) };
    },
    prepareForUpdate(object) {
      defaultPodSpec(specOf(object));
      defaultRequestsFromLimits(specOf(object));
    },
    validate: validatePod,
    validateUpdate: validatePodUpdate,
    selectableFields: podFields,
    subresources: { ephemeralcontainers: ephemeralContainersStrategy },
  });
}
