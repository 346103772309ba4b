/**
 * NetworkPolicies (pkg/registry/networking/networkpolicy): generation, defaults (SetDefaults_NetworkPolicy: port
 * protocol `TCP`; `policyTypes` `Ingress`, plus `Egress` when egress rules exist) and the basics of
 * ValidateNetworkPolicy: label selectors, policy types, ports (a numeric port with `endPort` not below it) and
 * ipBlock CIDRs whose `except` entries lie inside them.
 *
 * Status as 1.27 treats it with its NetworkPolicyStatus gate off (alpha, off by default): a create keeps the status
 * sent, an update keeps the stored one only once it holds conditions, and `/status` may only clear the conditions;
 * `status` is always present (`{}` when empty), as kube's JSON never omits the struct.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy, genericStatusStrategy, keepField } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy, SubresourceStrategy } from '../strategy.js';
import { setDefault, specOf, validateLabelSelector, validatePortNumber } from './pod-spec.js';

const policyTypes = ['Egress', 'Ingress'];
const protocols = ['SCTP', 'TCP', 'UDP'];

function list(value: unknown): Record<string, unknown>[] {
  return (Array.isArray(value) ? value : []).map((v) => record(v) ?? {});
}

/** SetDefaults_NetworkPolicy. */
export function defaultNetworkPolicy(object: KubeObject): void {
  const spec = specOf(object);
  for (const direction of ['ingress', 'egress']) {
    for (const rule of list(spec[direction])) for (const port of list(rule['ports'])) setDefault(port, 'protocol', 'TCP');
  }
  if (!Array.isArray(spec['policyTypes']) || spec['policyTypes'].length === 0) {
    spec['policyTypes'] = list(spec['egress']).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

/** A CIDR (IPv4 or IPv6) as net.ParseCIDR accepts; the parsed address bits and prefix. */
function parseCidr(value: string): { bits: bigint; width: number; prefix: number } | undefined {
  const [addr, prefixText, extra] = value.split('/');
  if (addr === undefined || prefixText === undefined || extra !== undefined || !/^\d+$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (/^(\d{1,3}\.){3}\d{1,3}$/.test(addr)) {
    const parts = addr.split('.').map(Number);
    if (parts.some((p) => p > 255) || prefix > 32) return undefined;
    return { bits: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n), width: 32, prefix };
  }
  if (addr.includes(':') && prefix <= 128) {
    const [head, tail] = addr.split('::');
    const groups = (s: string | undefined): string[] => (s === undefined || s === '' ? [] : s.split(':'));
    const h = groups(head);
    const t = groups(tail);
    if (![...h, ...t].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
    const fill = tail === undefined ? 0 : 8 - h.length - t.length;
    if (fill < 0 || (tail === undefined && h.length !== 8)) return undefined;
    const all = [...h, ...Array<string>(fill).fill('0'), ...t];
    return { bits: all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n), width: 128, prefix };
  }
  return undefined;
}

function within(inner: { bits: bigint; width: number; prefix: number }, outer: { bits: bigint; width: number; prefix: number }): boolean {
  if (inner.width !== outer.width || inner.prefix < outer.prefix) return false;
  const shift = BigInt(outer.width - outer.prefix);
  return inner.bits >> shift === outer.bits >> shift;
}

function validatePeers(peers: Record<string, unknown>[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  peers.forEach((peer, i) => {
    const at = `${path}[${i}]`;
    if (peer['podSelector'] !== undefined) errs.push(...validateLabelSelector(peer['podSelector'], `${at}.podSelector`));
    if (peer['namespaceSelector'] !== undefined) errs.push(...validateLabelSelector(peer['namespaceSelector'], `${at}.namespaceSelector`));
    const block = record(peer['ipBlock']);
    if (block === undefined) {
      if (peer['podSelector'] === undefined && peer['namespaceSelector'] === undefined) errs.push(fieldError.required(at, 'must specify a peer'));
      return;
    }
    if (peer['podSelector'] !== undefined || peer['namespaceSelector'] !== undefined) errs.push(fieldError.forbidden(at, 'may not specify more than 1 peer type'));
    const cidrText = block['cidr'];
    const cidr = typeof cidrText === 'string' ? parseCidr(cidrText) : undefined;
    if (typeof cidrText !== 'string' || cidrText === '') errs.push(fieldError.required(`${at}.ipBlock.cidr`));
    else if (cidr === undefined) errs.push(fieldError.invalid(`${at}.ipBlock.cidr`, cidrText, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    (Array.isArray(block['except']) ? block['except'] : []).forEach((ex, k) => {
      const parsed = typeof ex === 'string' ? parseCidr(ex) : undefined;
      if (parsed === undefined) errs.push(fieldError.invalid(`${at}.ipBlock.except[${k}]`, ex, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
      else if (cidr !== undefined && (!within(parsed, cidr) || parsed.prefix === cidr.prefix)) {
        errs.push(fieldError.invalid(`${at}.ipBlock.except[${k}]`, ex, 'must be a strict subset of `cidr`'));
      }
    });
  });
  return errs;
}

function validatePorts(ports: Record<string, unknown>[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  ports.forEach((port, i) => {
    const at = `${path}[${i}]`;
    if (port['protocol'] !== undefined && !protocols.includes(String(port['protocol']))) errs.push(fieldError.notSupported(`${at}.protocol`, port['protocol'], protocols));
    const value = port['port'];
    if (typeof value === 'number') errs.push(...validatePortNumber(`${at}.port`, value));
    const end = port['endPort'];
    if (end !== undefined) {
      if (typeof value !== 'number') errs.push(fieldError.required(`${at}.port`, 'must specify a numeric port when endPort is specified'));
      else if (typeof end === 'number' && end < value) errs.push(fieldError.invalid(`${at}.endPort`, end, 'must be greater than or equal to `port`'));
    }
  });
  return errs;
}

/** ValidateNetworkPolicySpec's basics. */
export function validateNetworkPolicy(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [...validateLabelSelector(spec['podSelector'] ?? {}, 'spec.podSelector')];
  list(spec['ingress']).forEach((rule, i) => {
    errs.push(...validatePorts(list(rule['ports']), `spec.ingress[${i}].ports`), ...validatePeers(list(rule['from']), `spec.ingress[${i}].from`));
  });
  list(spec['egress']).forEach((rule, i) => {
    errs.push(...validatePorts(list(rule['ports']), `spec.egress[${i}].ports`), ...validatePeers(list(rule['to']), `spec.egress[${i}].to`));
  });
  const types = Array.isArray(spec['policyTypes']) ? spec['policyTypes'] : [];
  if (types.length > 2) errs.push(fieldError.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
  types.forEach((t, i) => {
    if (!policyTypes.includes(String(t))) errs.push(fieldError.notSupported(`spec.policyTypes[${i}]`, t, policyTypes));
  });
  return errs;
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
    prepareForCreate(object) {
      defaultNetworkPolicy(object);
      withStatus(object);
    },
    prepareForUpdate(object, old) {
      if (hasConditions(old)) keepField(object, old, 'status');
      defaultNetworkPolicy(object);
      withStatus(object);
    },
    validate: validateNetworkPolicy,
    validateUpdate: (object) => validateNetworkPolicy(object),
  });
  return { ...strategy, status: networkPolicyStatus };
}
