/**
 * Nodes (pkg/registry/core/node; ValidateNode and ValidateNodeUpdate, 1.27): cluster-scoped, status subresource; a
 * create keeps the status the node reports, with allocatable defaulted to the capacity (SetDefaults_NodeStatus).
 * Taints (in the spec and the alpha annotation) have a label-name key, a label-value value and a known effect,
 * unique by key and effect, and are reported under `metadata.taints` as kube reports them; capacity quantities are
 * valid; pod CIDRs parse, one per family; on update `podCIDRs` and `providerID` are set once, addresses unique.
 * A `/status` write keeps the spec and is validated as an update; the zero values kube's Go structs never omit
 * are filled in (see {@link completeNode}).
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { isLabelValue } from '../../meta/name-rules.js';
import { cidrErrors, cidrFamilyOf, isDualStack, list, obj, objects, qualifiedName, text } from './field-checks.js';
import { taintEffectErrors } from './pod-scheduling.js';
import { canonicalizeResourceList, resourceQuantityErrors } from './resource-names.js';
import { coreMetaErrors } from './core-meta.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { sameJson } from './object-fields.js';
import { dropDisabledNodeFields } from './dropped-fields.js';

/** The node's field selector set: `spec.unschedulable` as Go prints a bool (false when unset). */
function nodeFields(object: KubeObject): Record<string, string> {
  return { 'spec.unschedulable': String((object.spec as { unschedulable?: unknown } | undefined)?.unschedulable === true) };
}

/** validateNodeTaints at `path`: label-name keys, label values, known effects, unique by key and effect. */
export function validateTaints(taints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(taints).forEach((t, i) => {
    const at = `${path}[${i}]`;
    const key = text(t['key']);
    errs.push(...qualifiedName(key, `${at}.key`));
    const msgs = isLabelValue(text(t['value']));
    if (msgs.length > 0) errs.push(fieldError.invalid(`${at}.value`, text(t['value']), msgs.join(';')));
    const effect = text(t['effect']);
    errs.push(...taintEffectErrors(effect, false, `${at}.effect`));
    const id = `${effect}\u0000${key}`;
    if (seen.has(id)) {
      errs.push({ type: 'FieldValueDuplicate', field: at, badValue: t, detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(id);
  });
  return errs;
}

/** ValidateNodeSpecificAnnotations: the taints a node's alpha annotation holds. */
function nodeAnnotationErrors(object: KubeObject, names: Names): FieldError[] {
  const key = names.domain('taints', 'scheduler.alpha');
  const value = text(object.metadata?.annotations?.[key]);
  if (value === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (e) {
    return [fieldError.invalid('metadata.annotations', key, (e as Error).message)];
  }
  return validateTaints(parsed, `metadata.annotations.${key}`);
}

/** ValidateNodeResources: capacity and allocatable quantities (at `status.capacity.<name>`, as kube words them). */
function nodeResourceErrors(object: KubeObject): FieldError[] {
  const status = obj(object.status);
  return ['capacity', 'allocatable'].flatMap((kind) => Object.entries(obj(status[kind])).flatMap(([name, value]) => resourceQuantityErrors(name, value, `status.${kind}.${name}`)));
}

/** ValidateNode (1.27); taints are reported under `metadata`, as kube reports them. */
function validateNode(object: KubeObject, names: Names): FieldError[] {
  const spec = obj(object['spec']);
  const errs = [...coreMetaErrors(object, names), ...nodeAnnotationErrors(object, names), ...validateTaints(spec['taints'], 'metadata.taints'), ...nodeResourceErrors(object)];
  const cidrs = list(spec['podCIDRs']).map(text);
  cidrs.forEach((c, i) => errs.push(...cidrErrors(c, `spec.podCIDRs[${i}]`)));
  if (cidrs.length > 1) {
    if (!isDualStack(cidrs.map(cidrFamilyOf)) || cidrs.length > 2) errs.push(fieldError.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(fieldError.duplicate(`spec.podCIDRs[${i}]`, c));
      seen.add(c);
    });
  }
  return errs;
}

/** ValidateNodeUpdate (1.27): it does not re-run ValidateNode; pod CIDRs and the provider ID are set once. */
function validateNodeUpdate(object: KubeObject, old: KubeObject, names: Names): FieldError[] {
  const spec = obj(object['spec']);
  const before = obj(old['spec']);
  const errs = [...coreMetaErrors(object, names), ...nodeAnnotationErrors(object, names), ...nodeResourceErrors(object)];
  const addresses = objects(obj(object.status)['addresses']);
  addresses.forEach((a, i) => {
    if (addresses.slice(0, i).some((b) => sameJson(a, b))) errs.push(fieldError.duplicate(`status.addresses[${i}]`, a));
  });
  const oldCidrs = list(before['podCIDRs']);
  const cidrs = list(spec['podCIDRs']);
  if (oldCidrs.length > 0) {
    const message = 'node updates may not change podCIDR except from "" to valid';
    if (oldCidrs.length !== cidrs.length) errs.push(fieldError.forbidden('spec.podCIDRs', message));
    else oldCidrs.forEach((c, i) => {
      if (c !== cidrs[i]) errs.push(fieldError.forbidden('spec.podCIDRs', message));
    });
  }
  const provider = text(before['providerID']);
  if (provider !== '' && spec['providerID'] !== provider) {
    errs.push(fieldError.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  errs.push(...validateTaints(spec['taints'], 'metadata.taints'));
  if (text(spec['externalID']) !== text(before['externalID'])) errs.push(fieldError.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

/** SetDefaults_NodeStatus: allocatable is the capacity when unset; quantities as kube writes them. */
function defaultNodeStatus(object: KubeObject): void {
  const status = record(object.status);
  if (status === undefined) return;
  canonicalizeResourceList(status['capacity']);
  canonicalizeResourceList(status['allocatable']);
  if ((status['allocatable'] === undefined || status['allocatable'] === null) && status['capacity'] !== undefined) status['allocatable'] = structuredClone(status['capacity']);
}

/** The v1 conversion of a node's pod CIDRs: `spec.podCIDRs` from a lone `spec.podCIDR`, `spec.podCIDR` the first of them. */
function mirrorPodCidrs(object: KubeObject): void {
  const spec = record(object['spec']);
  if (spec === undefined) return;
  const cidrs = Array.isArray(spec['podCIDRs']) ? spec['podCIDRs'] : [];
  if (cidrs.length === 0 && typeof spec['podCIDR'] === 'string' && spec['podCIDR'] !== '') spec['podCIDRs'] = [spec['podCIDR']];
  const first = (spec['podCIDRs'] as unknown[] | undefined)?.[0];
  if (typeof first === 'string' && first !== '') spec['podCIDR'] = first;
}

function specOfNode(object: KubeObject): Record<string, unknown> {
  return record(object['spec']) ?? {};
}

/** NodeSystemInfo's fields: strings without omitempty, so kube's JSON shows each one, empty when unknown. */
const nodeInfoFields = [
  'machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion',
  'kubeProxyVersion', 'operatingSystem', 'architecture',
];

/**
 * A node as kube 1.27 stores and answers it after decoding: SetDefaults_NodeStatus (`allocatable` copied from
 * `capacity` when absent), then the zero values its Go structs never omit — `spec` and `status` themselves,
 * `status.daemonEndpoints.kubeletEndpoint.Port` and every `status.nodeInfo` field.
 */
export function completeNode(object: KubeObject): void {
  object['spec'] = record(object['spec']) ?? {};
  const status = record(object['status']) ?? {};
  object['status'] = status;
  defaultNodeStatus(object);
  const endpoints = record(status['daemonEndpoints']) ?? {};
  status['daemonEndpoints'] = endpoints;
  const kubelet = record(endpoints['kubeletEndpoint']) ?? {};
  endpoints['kubeletEndpoint'] = kubelet;
  kubelet['Port'] ??= 0;
  const info = record(status['nodeInfo']) ?? {};
  status['nodeInfo'] = info;
  for (const field of nodeInfoFields) info[field] ??= '';
}

/** The node strategy. */
export function nodeStrategy(names: Names): Strategy {
  return defineStrategy({
    hasStatus: true, clearStatusOnCreate: false, selectableFields: nodeFields,
    // Decoding in kube: the v1 conversion of the pod CIDRs, SetDefaults_NodeStatus and the structs' zero values.
    defaults(object) {
      mirrorPodCidrs(object);
      completeNode(object);
    },
    prepareForCreate: (object) => dropDisabledNodeFields(specOfNode(object), undefined),
    prepareForUpdate: (object, old) => dropDisabledNodeFields(specOfNode(object), record(old['spec'])),
    // fieldIsDeprecatedWarnings (configSource is dropped before, with DynamicKubeletConfig gone).
    warnings: (object) => (text(obj(object['spec'])['externalID']) !== '' ? ['spec.externalID: this field is deprecated, and is unused by Kubernetes'] : []),
    validate: (object) => validateNode(object, names),
    validateUpdate: (object, old) => validateNodeUpdate(object, old, names),
    status: {
      prepareForUpdate: genericStatusStrategy.prepareForUpdate,
      validateUpdate: (object, old) => validateNodeUpdate(object, old, names),
    },
  });
}
