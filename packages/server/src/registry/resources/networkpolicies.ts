/**
 * NetworkPolicies (pkg/registry/networking/networkpolicy): generation, defaults (SetDefaults_NetworkPolicy: port
 * protocol `TCP`; `policyTypes` `Ingress`, plus `Egress` when egress rules exist) and 1.27's ValidateNetworkPolicy
 * rule by rule: label selectors, policy types, ports (numbers, names, `endPort` only after a numeric port), peers
 * (an ipBlock alone) and ipBlock CIDRs as Go parses them, with `except` entries strictly inside.
 *
 * Status as 1.27 treats it with its NetworkPolicyStatus gate off (alpha, off by default): a create keeps the status
 * sent, an update keeps the stored one only once it holds conditions, and `/status` may only clear the conditions;
 * `status` is always present (`{}` when empty), as kube's JSON never omits the struct.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy, genericStatusStrategy, keepField } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy, SubresourceStrategy } from '../strategy.js';
import { isSet, list, num, obj, objects, portNameMessages, portNumErrors, text, type Json } from './field-checks.js';
import { validateLabelSelector, type LabelSelectorOptions } from './label-checks.js';
import { setDefault, specOf } from './object-fields.js';

const policyTypes = ['Egress', 'Ingress'];
const protocols = ['SCTP', 'TCP', 'UDP'];

/** SetDefaults_NetworkPolicy. */
export function defaultNetworkPolicy(object: KubeObject): void {
  const spec = specOf(object);
  for (const direction of ['ingress', 'egress']) {
    for (const rule of objects(spec[direction])) for (const port of objects(rule['ports'])) setDefault(port, 'protocol', 'TCP');
  }
  if (!Array.isArray(spec['policyTypes']) || spec['policyTypes'].length === 0) {
    spec['policyTypes'] = objects(spec['egress']).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

/** A parsed CIDR: the address bits, the address width and the prefix length. */
interface Cidr {
  readonly bits: bigint;
  readonly width: number;
  readonly prefix: number;
}

/** The 32 bits of a dotted IPv4 address. */
function ipv4Bits(addr: string): bigint {
  return addr.split('.').reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

/**
 * A CIDR as Go's net.ParseCIDR reads it (1.27's apivalidation.ValidateCIDR): strict addresses (no leading zeros in
 * IPv4, which node:net refuses too), a decimal prefix within the address width.
 */
function parseCidr(value: string): Cidr | undefined {
  const slash = value.indexOf('/');
  const addr = value.slice(0, slash);
  const prefixText = value.slice(slash + 1);
  if (slash < 0 || !/^\d+$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (isIPv4(addr)) return prefix <= 32 ? { bits: ipv4Bits(addr), width: 32, prefix } : undefined;
  if (!isIPv6(addr) || prefix > 128) return undefined;
  // Expand `::` and an embedded dotted tail into eight 16-bit groups.
  let head = addr;
  let tail: bigint[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (dotted !== null) {
    const v4 = ipv4Bits(dotted[1]!);
    tail = [v4 >> 16n, v4 & 0xffffn];
    head = addr.slice(0, dotted.index + 1);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left = '', right] = head.split('::');
  const groups = (s: string): bigint[] => (s === '' ? [] : s.split(':').map((g) => BigInt(parseInt(g, 16))));
  const l = groups(left);
  const r = [...groups(right ?? ''), ...tail];
  const words = right === undefined ? [...l, ...tail] : [...l, ...Array<bigint>(8 - l.length - r.length).fill(0n), ...r];
  return { bits: words.reduce((acc, g) => (acc << 16n) | g, 0n), width: 128, prefix };
}

/** IPNet.Contains of `outer` for the address of `inner`, and `inner`'s mask longer than `outer`'s. */
function strictSubset(inner: Cidr, outer: Cidr): boolean {
  if (inner.width !== outer.width || inner.prefix <= outer.prefix) return false;
  const shift = BigInt(outer.width - outer.prefix);
  return inner.bits >> shift === outer.bits >> shift;
}

/** ValidateIPBlock: a CIDR, and `except` entries strictly inside it (the first unparsable one ends the check). */
function ipBlockErrors(block: Json, path: string): FieldError[] {
  const cidrText = text(block['cidr']);
  if (cidrText === '') return [fieldError.required(`${path}.cidr`)];
  const cidr = parseCidr(cidrText);
  if (cidr === undefined) return [fieldError.invalid(`${path}.cidr`, cidrText, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  for (const [k, ex] of list(block['except']).entries()) {
    const at = `${path}.except[${k}]`;
    const parsed = parseCidr(text(ex));
    if (parsed === undefined) return [...errs, fieldError.invalid(at, ex, 'not a valid CIDR')];
    if (!strictSubset(parsed, cidr)) errs.push(fieldError.invalid(at, ex, 'must be a strict subset of `cidr`'));
  }
  return errs;
}

/** ValidateNetworkPolicyPeer: at least one peer; an ipBlock alone. */
function peerErrors(peer: Json, at: string, selectors: LabelSelectorOptions): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const key of ['podSelector', 'namespaceSelector']) {
    if (!isSet(peer[key])) continue;
    count++;
    errs.push(...validateLabelSelector(peer[key], `${at}.${key}`, selectors));
  }
  if (isSet(peer['ipBlock'])) {
    count++;
    errs.push(...ipBlockErrors(obj(peer['ipBlock']), `${at}.ipBlock`));
  }
  if (count === 0) errs.push(fieldError.required(at, 'must specify a peer'));
  else if (count > 1 && isSet(peer['ipBlock'])) errs.push(fieldError.forbidden(at, 'may not specify both ipBlock and another peer'));
  return errs;
}

/** ValidateNetworkPolicyPort of 1.27 (whose endPort-below-port error shows the port's value). */
function portErrors(port: Json, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(port['protocol']) && !protocols.includes(text(port['protocol']))) errs.push(fieldError.notSupported(`${at}.protocol`, port['protocol'], protocols));
  const value = port['port'];
  const end = port['endPort'];
  if (!isSet(value)) {
    if (isSet(end)) errs.push(fieldError.invalid(`${at}.endPort`, end, 'may not be specified when `port` is not specified'));
  } else if (typeof value === 'string') {
    if (isSet(end)) errs.push(fieldError.invalid(`${at}.endPort`, end, 'may not be specified when `port` is non-numeric'));
    for (const msg of portNameMessages(value)) errs.push(fieldError.invalid(`${at}.port`, value, msg));
  } else {
    errs.push(...portNumErrors(value, `${at}.port`));
    if (isSet(end)) {
      if (num(end) < num(value)) errs.push(fieldError.invalid(`${at}.endPort`, value, 'must be greater than or equal to `port`'));
      errs.push(...portNumErrors(end, `${at}.endPort`));
    }
  }
  return errs;
}

/**
 * ValidateNetworkPolicySpec of 1.27. `selectors` relaxes the selector value check when the stored object's pod
 * selector already failed it (ValidationOptionsForNetworking).
 */
export function validateNetworkPolicy(object: KubeObject, selectors: LabelSelectorOptions = {}): FieldError[] {
  const spec = obj(object['spec']);
  const errs: FieldError[] = [...validateLabelSelector(spec['podSelector'] ?? {}, 'spec.podSelector', selectors)];
  for (const [direction, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    objects(spec[direction]).forEach((rule, i) => {
      const at = `spec.${direction}[${i}]`;
      objects(rule['ports']).forEach((p, k) => errs.push(...portErrors(p, `${at}.ports[${k}]`)));
      objects(rule[peers]).forEach((p, k) => errs.push(...peerErrors(p, `${at}.${peers}[${k}]`, selectors)));
    });
  }
  const types = list(spec['policyTypes']);
  if (types.length > 2) return [...errs, fieldError.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes')];
  types.forEach((t, i) => {
    if (!policyTypes.includes(text(t))) errs.push(fieldError.notSupported(`spec.policyTypes[${i}]`, t, policyTypes));
  });
  return errs;
}

/** ValidateNetworkPolicyUpdate: the stored pod selector's invalid values stay allowed. */
function validateNetworkPolicyUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const stored = obj(old['spec'])['podSelector'] ?? {};
  return validateNetworkPolicy(object, { allowInvalidLabelValueInSelector: validateLabelSelector(stored, '').length > 0 });
}

/** The status struct, present even when empty. */
function withStatus(object: KubeObject): void {
  object['status'] = record(object['status']) ?? {};
}

function hasConditions(object: KubeObject): boolean {
  const conditions = record(object['status'])?.['conditions'];
  return Array.isArray(conditions) && conditions.length > 0;
}

/** networkPolicyStatusStrategy with the gate off: "no updates except to clear it". */
const networkPolicyStatus: SubresourceStrategy = {
  prepareForUpdate(object, old) {
    genericStatusStrategy.prepareForUpdate(object, old);
    if (hasConditions(object)) keepField(object, old, 'status');
    else object['status'] = {};
    withStatus(object);
  },
  validateUpdate: () => [],
};

/** The networkpolicy strategy. */
export function networkPolicyStrategy(): Strategy {
  const strategy = defineStrategy({
    tracksGeneration: true,
    defaults: defaultNetworkPolicy,
    prepareForCreate: withStatus,
    prepareForUpdate(object, old) {
      if (hasConditions(old)) keepField(object, old, 'status');
      withStatus(object);
    },
    validate: validateNetworkPolicy,
    validateUpdate: validateNetworkPolicyUpdate,
  });
  return { ...strategy, status: networkPolicyStatus };
}
