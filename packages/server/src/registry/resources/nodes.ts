/**
 * Nodes (pkg/registry/core/node; ValidateNode and ValidateNodeUpdate): cluster-scoped, status subresource; a create
 * keeps the status the node reports, completed as kube's decoding completes it (see {@link completeNode}). Taints
 * have a label-name key, a label-value value and a known effect, unique by key and effect; pod CIDRs parse;
 * `podCIDRs` and `providerID` are set once. A `/status` write keeps the spec and is validated as an update.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { labelKeyError, labelValueError } from '@svc-apiserver/api/label-selector';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { sameJson } from './pod-spec.js';
import { dropDisabledNodeFields } from './dropped-fields.js';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** The node's field selector set: `spec.unschedulable` as Go prints a bool (false when unset). */
function nodeFields(object: KubeObject): Record<string, string> {
  return { 'spec.unschedulable': String((object.spec as { unschedulable?: unknown } | undefined)?.unschedulable === true) };
}

/** True for a CIDR Go's net.ParseCIDR accepts. */
export function isCidr(value: string): boolean {
  const [ip, bits, extra] = value.split('/');
  if (ip === undefined || bits === undefined || extra !== undefined || !/^\d+$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  return isIPv6(ip) && Number(bits) <= 128;
}

/** validateNodeTaints at `path`. */
export function validateTaints(taints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(taints) ? taints : []).forEach((raw, i) => {
    const t = record(raw) ?? {};
    const at = `${path}[${i}]`;
    const key = typeof t['key'] === 'string' ? t['key'] : '';
    const keyErr = labelKeyError(key);
    if (keyErr !== undefined) errs.push(fieldError.invalid(`${at}.key`, key, keyErr));
    const value = typeof t['value'] === 'string' ? t['value'] : '';
    const valueErr = labelValueError(value);
    if (valueErr !== undefined) errs.push(fieldError.invalid(`${at}.value`, value, valueErr));
    const effect = typeof t['effect'] === 'string' ? t['effect'] : '';
    if (effect === '') errs.push(fieldError.required(`${at}.effect`));
    else if (!taintEffects.includes(effect)) errs.push(fieldError.notSupported(`${at}.effect`, effect, taintEffects));
    const id = `${effect}\u0000${key}`;
    if (seen.has(id)) errs.push({ type: 'FieldValueDuplicate', field: at, badValue: raw, detail: 'taints must be unique by key and effect pair' });
    seen.add(id);
  });
  return errs;
}

function validateNode(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs = validateTaints(spec['taints'], 'spec.taints');
  const cidrs = Array.isArray(spec['podCIDRs']) ? spec['podCIDRs'] : [];
  cidrs.forEach((c, i) => {
    if (typeof c !== 'string' || !isCidr(c)) errs.push(fieldError.invalid(`spec.podCIDRs[${i}]`, c, 'must be a valid CIDR'));
  });
  if (cidrs.length > 2) errs.push(fieldError.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
  return errs;
}

function validateNodeUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateNode(object);
  const spec = record(object['spec']) ?? {};
  const before = record(old['spec']) ?? {};
  const oldCidrs = Array.isArray(before['podCIDRs']) ? before['podCIDRs'] : [];
  if (oldCidrs.length > 0 && !sameJson(spec['podCIDRs'], before['podCIDRs'])) {
    errs.push(fieldError.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  const provider = before['providerID'];
  if (typeof provider === 'string' && provider !== '' && spec['providerID'] !== provider) {
    errs.push(fieldError.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  return errs;
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
  const capacity = record(status['capacity']);
  if ((status['allocatable'] === undefined || status['allocatable'] === null) && capacity !== undefined) status['allocatable'] = { ...capacity };
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
export function nodeStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true, clearStatusOnCreate: false, selectableFields: nodeFields,
    prepareForCreate(object) {
      dropDisabledNodeFields(specOfNode(object), undefined);
      mirrorPodCidrs(object);
      completeNode(object);
    },
    prepareForUpdate(object, old) {
      dropDisabledNodeFields(specOfNode(object), record(old['spec']));
      mirrorPodCidrs(object);
      completeNode(object);
    },
    validate: validateNode, validateUpdate: validateNodeUpdate,
    status: {
      prepareForUpdate(object, old) {
        genericStatusStrategy.prepareForUpdate(object, old);
        completeNode(object);
      },
      validateUpdate: validateNodeUpdate,
    },
  });
}
