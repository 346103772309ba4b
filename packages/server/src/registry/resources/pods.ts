/**
 * Pods (pkg/registry/core/pod, 1.27): status Pending with its QoS class on create (and a SchedulingGated condition
 * while scheduling gates remain), the status subresource (spec and owner references kept), the
 * `ephemeralcontainers` subresource, the field selectors kube serves, the pod spec's defaults (pod-spec.ts), and
 * ValidatePodCreate, ValidatePodUpdate and ValidatePodStatusUpdate with the validation options of the stored pod.
 */
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { podWarnings } from './pod-warnings.js';
import { dropDisabledPodFields, dropDisabledPodStatusFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, fieldsAt, genericStatusStrategy, keepField } from '../default-strategy.js';
import type { Strategy, SubresourceStrategy } from '../strategy.js';
import { endpointIpErrors } from './endpoints.js';
import {
  defaultPodOnly, defaultPodSpec, podAnnotationErrors, podAnnotationKeys, podSpecOptions, specOf, validatePodSpec, type PodAnnotationKeys,
  type PodSpecOptions,
} from './pod-spec.js';
import { ipFamilyOf, isDualStack, list, obj, objects, qualifiedName, text, type Json } from './field-checks.js';
import { computePodQos, podAnnotationUpdateErrors, podSpecUpdateErrors } from './pod-update.js';
import { seccompAnnotationFieldErrors } from './pod-security.js';
import { coreMetaErrors } from './core-meta.js';
import { sameJson } from './object-fields.js';

/** validatePodMetadataAndSpec: metadata, pod annotations, the spec, and the checks only pods (not templates) get. */
function podMetadataAndSpecErrors(object: KubeObject, keys: PodAnnotationKeys, options: PodSpecOptions, names: Names): FieldError[] {
  const spec = obj(object['spec']);
  const annotations = obj(object.metadata?.annotations);
  const errs = [
    ...coreMetaErrors(object, names),
    ...podAnnotationErrors(annotations, spec, keys, options, 'metadata.annotations'),
    ...validatePodSpec(spec, 'spec', undefined, options),
  ];
  if (text(spec['serviceAccountName']) === '') {
    objects(spec['volumes']).forEach((v, i) => {
      objects(obj(v['projected'])['sources']).forEach((s, j) => {
        if (s['serviceAccountToken'] !== undefined && s['serviceAccountToken'] !== null) {
          errs.push(fieldError.forbidden(`spec.volumes[${i}].projected.sources[${j}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  // validateContainersOnlyForPod: images without surrounding whitespace.
  for (const key of ['containers', 'initContainers']) {
    objects(spec[key]).forEach((c, i) => {
      const image = text(c['image']);
      if (image.trim().length !== image.length) errs.push(fieldError.invalid(`spec.${key}[${i}].image`, image, 'must not have leading or trailing whitespace'));
    });
  }
  return errs;
}

/** The options of a pod write: relaxed by what the stored pod already did. */
function optionsFor(object: KubeObject, old: KubeObject | undefined, gates: FeatureGates): PodSpecOptions {
  const stored = old === undefined ? undefined : { spec: obj(old['spec']), annotations: obj(old.metadata?.annotations) };
  return podSpecOptions(stored, object.metadata?.name ?? '', gates);
}

/** ValidatePodCreate. */
function validatePodCreate(object: KubeObject, keys: PodAnnotationKeys, names: Names, gates: FeatureGates): FieldError[] {
  const spec = obj(object['spec']);
  const errs = podMetadataAndSpecErrors(object, keys, optionsFor(object, undefined, gates), names);
  if (list(spec['ephemeralContainers']).length > 0) errs.push(fieldError.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (text(spec['nodeName']) !== '' && list(spec['schedulingGates']).length > 0) {
    errs.push(fieldError.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return [...errs, ...seccompAnnotationFieldErrors(obj(object.metadata?.annotations), spec, keys, 'spec')];
}

/** ValidatePodUpdate. */
function validatePodUpdate(object: KubeObject, old: KubeObject, keys: PodAnnotationKeys, names: Names, gates: FeatureGates): FieldError[] {
  const options = optionsFor(object, old, gates);
  const annotations = obj(object.metadata?.annotations);
  return [
    ...podMetadataAndSpecErrors(object, keys, options, names),
    ...podAnnotationUpdateErrors(annotations, obj(old.metadata?.annotations), keys),
    ...podAnnotationErrors(annotations, obj(object['spec']), keys, options, 'metadata.annotations'),
    ...podSpecUpdateErrors(object, old),
  ];
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

/** ValidateContainerStateTransition: a terminated container of a pod that does not restart it stays terminated. */
function stateTransitionErrors(now: unknown, before: unknown, restartPolicy: string, path: string): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  objects(before).forEach((old, i) => {
    const terminated = obj(old['state'])['terminated'];
    if (terminated === undefined || terminated === null) return;
    if (obj(terminated)['exitCode'] !== 0 && obj(terminated)['exitCode'] !== undefined && restartPolicy === 'OnFailure') return;
    for (const status of objects(now)) {
      const t = obj(status['state'])['terminated'];
      if (status['name'] === old['name'] && (t === undefined || t === null)) errs.push(fieldError.forbidden(`${path}[${i}].state`, 'may not be transitioned to non-terminated state'));
    }
  });
  return errs;
}

/** validatePodIPs: valid IPs, at most one per family, no duplicates. */
function podIpErrors(status: Json): FieldError[] {
  const ips = objects(status['podIPs']);
  const errs: FieldError[] = [];
  ips.forEach((ip, i) => {
    for (const e of endpointIpErrors(ip['ip'], `status.podIPs[${i}]`)) if (e.detail.startsWith('must be a valid IP')) errs.push(e);
  });
  if (ips.length > 1) {
    if (!isDualStack(ips.map((ip) => ipFamilyOf(text(ip['ip'])))) || ips.length > 2) {
      errs.push(fieldError.invalid('status.podIPs', status['podIPs'], 'may specify no more than one IP for each IP family'));
    }
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(text(ip['ip']))) errs.push(fieldError.duplicate(`status.podIPs[${i}]`, ip));
      seen.add(text(ip['ip']));
    });
  }
  return errs;
}

/** ValidatePodStatusUpdate (1.27). */
function validatePodStatus(object: KubeObject, old: KubeObject, keys: PodAnnotationKeys, gates: FeatureGates): FieldError[] {
  const annotations = obj(object.metadata?.annotations);
  const errs = [
    ...podAnnotationUpdateErrors(annotations, obj(old.metadata?.annotations), keys),
    ...podAnnotationErrors(annotations, obj(object['spec']), keys, optionsFor(object, old, gates), 'metadata.annotations'),
  ];
  const status = obj(object.status);
  const oldStatus = obj(old.status);
  const system = new Set(['PodScheduled', 'Ready', 'Initialized']);
  objects(status['conditions']).forEach((c, i) => {
    if (!system.has(text(c['type']))) errs.push(...qualifiedName(text(c['type']), `metadata.conditions[${i}].Type`));
  });
  if (!sameJson(obj(object['spec'])['nodeName'], obj(old['spec'])['nodeName'])) errs.push(fieldError.forbidden('status.nodeName', 'may not be changed directly'));
  const nominated = text(status['nominatedNodeName']);
  if (nominated !== '' && nominated !== text(oldStatus['nominatedNodeName'])) {
    for (const msg of isDns1123Subdomain(nominated)) errs.push(fieldError.invalid('status.nominatedNodeName', nominated, msg));
  }
  const restartPolicy = text(obj(old['spec'])['restartPolicy']);
  errs.push(...stateTransitionErrors(status['containerStatuses'], oldStatus['containerStatuses'], restartPolicy, 'status.containerStatuses'));
  errs.push(...stateTransitionErrors(status['initContainerStatuses'], oldStatus['initContainerStatuses'], restartPolicy, 'status.initContainerStatuses'));
  errs.push(...stateTransitionErrors(status['ephemeralContainerStatuses'], oldStatus['ephemeralContainerStatuses'], 'Never', 'status.ephemeralContainerStatuses'));
  return [...errs, ...podIpErrors(status)];
}

/** The pod status strategy (podStatusStrategy): the spec and owner references stay, IPs are mirrored. */
function podStatusStrategy(keys: PodAnnotationKeys, gates: FeatureGates): SubresourceStrategy {
  return {
    prepareForUpdate(object, old) {
      genericStatusStrategy.prepareForUpdate(object, old);
      dropDisabledPodStatusFields(obj(object.status), record(old.status), gates);
      // Old node agents corrupt owner references through pods/status; kube keeps the stored ones.
      const meta = (object.metadata ??= {});
      if (old.metadata?.ownerReferences === undefined) delete meta.ownerReferences;
      else meta.ownerReferences = structuredClone(old.metadata.ownerReferences);
      mirrorPodIps(object);
    },
    validateUpdate: (object, old) => validatePodStatus(object, old, keys, gates),
  };
}

/**
 * The ephemeral containers strategy (podEphemeralContainersStrategy, ValidatePodEphemeralContainersUpdate): only
 * `spec.ephemeralContainers` changes; the whole pod is validated, existing ephemeral containers may not change or
 * go away, and static pods take none.
 */
function ephemeralContainersStrategy(keys: PodAnnotationKeys, names: Names, gates: FeatureGates): SubresourceStrategy {
  return {
    prepareForUpdate(object, old) {
      const wanted = specOf(object)['ephemeralContainers'];
      for (const field of new Set([...Object.keys(object), ...Object.keys(old)])) {
        if (field === 'metadata' || field === 'kind' || field === 'apiVersion') continue;
        keepField(object, old, field);
      }
      const spec = specOf(object);
      if (wanted === undefined) delete spec['ephemeralContainers'];
      else spec['ephemeralContainers'] = wanted;
      dropDisabledPodFields(spec, record(old['spec']), gates);
    },
    validateUpdate(object, old) {
      const options = optionsFor(object, old, gates);
      const annotations = obj(object.metadata?.annotations);
      const errs = [
        ...podMetadataAndSpecErrors(object, keys, options, names),
        ...podAnnotationUpdateErrors(annotations, obj(old.metadata?.annotations), keys),
        ...podAnnotationErrors(annotations, obj(object['spec']), keys, options, 'metadata.annotations'),
      ];
      if (obj(old.metadata?.annotations)[keys.mirrorPod] !== undefined) return [fieldError.forbidden('', 'static pods do not support ephemeral containers')];
      const current = new Map(objects(obj(object['spec'])['ephemeralContainers']).map((c) => [text(c['name']), c]));
      for (const c of objects(obj(old['spec'])['ephemeralContainers'])) {
        const name = text(c['name']);
        const now = current.get(name);
        if (now === undefined) errs.push(fieldError.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`));
        else if (!sameJson(now, c)) errs.push(fieldError.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(name)} may not be changed`));
      }
      return errs;
    },
  };
}

/** applySchedulingGatedCondition: a pod created with scheduling gates is marked unschedulable for that reason. */
function schedulingGatedConditions(spec: Json): Json[] {
  if (list(spec['schedulingGates']).length === 0) return [];
  return [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: null, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }];
}

/** The pod strategy of a flavour. */
export function podStrategy(names: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  const keys = podAnnotationKeys(names);
  const strategy = defineStrategy({
    warnings: (object) => podWarnings(names, record(object['spec']) ?? {}, (object.metadata ?? {}) as Record<string, unknown>),
    hasStatus: true,
    returnDeletedObject: true,
    defaults(object) {
      const spec = specOf(object);
      defaultPodSpec(spec);
      defaultPodOnly(spec);
    },
    prepareForCreate(object) {
      const spec = specOf(object);
      dropDisabledPodFields(spec, undefined, gates);
      const conditions = schedulingGatedConditions(spec);
      object.status = { phase: 'Pending', ...(conditions.length > 0 ? { conditions } : {}), qosClass: computePodQos(spec) };
    },
    prepareForUpdate(object, old) {
      dropDisabledPodFields(specOf(object), record(old['spec']), gates);
    },
    validate: (object) => validatePodCreate(object, keys, names, gates),
    validateUpdate: (object, old) => validatePodUpdate(object, old, keys, names, gates),
    selectableFields: podFields,
    subresources: { ephemeralcontainers: ephemeralContainersStrategy(keys, names, gates) },
    status: podStatusStrategy(keys, gates),
  });
  return { ...strategy, gracePeriodFor: podGracePeriod };
}
