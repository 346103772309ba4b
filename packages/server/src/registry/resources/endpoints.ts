/**
 * Endpoints (pkg/registry/core/endpoint; SetDefaults_Endpoints; ValidateEndpoints): ports default to TCP; each
 * subset has addresses, each address a valid IP that is not unspecified or link-local (loopback is allowed, see endpointIpErrors), an optional
 * DNS-label hostname; each port a valid number, a known protocol, and a name when the subset has several.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Label, isQualifiedName } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { setDefault, validatePortNumber } from './pod-spec.js';

const protocols = ['SCTP', 'TCP', 'UDP'];

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function defaults(object: KubeObject): void {
  for (const subset of list(object['subsets'])) {
    for (const port of list(record(subset)?.['ports'])) {
      const p = record(port);
      if (p !== undefined) setDefault(p, 'protocol', 'TCP');
    }
  }
}

/**
 * IsValidIP and ValidateNonSpecialIP, as field errors at `path`, but for loopback addresses: kube refuses them, yet
 * this server has no node network and reaches webhooks, conversion webhooks and extension servers named by a Service
 * at its endpoints on this host, so a loopback endpoint is the one way to point a Service at a local process.
 */
export function endpointIpErrors(ip: unknown, path: string): FieldError[] {
  const text = typeof ip === 'string' ? ip : '';
  if (!isIPv4(text) && !isIPv6(text)) return [fieldError.invalid(path, text, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  if (text === '0.0.0.0' || text === '::') return [fieldError.invalid(path, text, 'may not be unspecified (0.0.0.0)')];
  if (text.startsWith('169.254.') || /^fe[89ab]/i.test(text)) return [fieldError.invalid(path, text, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)')];
  if (text.startsWith('224.') || /^ff0?2:/i.test(text)) return [fieldError.invalid(path, text, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)')];
  return [];
}

function validateEndpoints(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  list(object['subsets']).forEach((raw, i) => {
    const subset = record(raw) ?? {};
    const at = `subsets[${i}]`;
    if (list(subset['addresses']).length === 0 && list(subset['notReadyAddresses']).length === 0) {
      errs.push(fieldError.required(at, 'must specify `addresses` or `notReadyAddresses`'));
    }
    for (const key of ['addresses', 'notReadyAddresses']) {
      list(subset[key]).forEach((a, j) => {
        const address = record(a) ?? {};
        const path = `${at}.${key}[${j}]`;
        const hostname = address['hostname'];
        if (typeof hostname === 'string' && hostname !== '') for (const msg of isDns1123Label(hostname)) errs.push(fieldError.invalid(`${path}.hostname`, hostname, msg));
        errs.push(...endpointIpErrors(address['ip'], `${path}.ip`));
      });
    }
    const ports = list(subset['ports']);
    ports.forEach((p, j) => {
      const port = record(p) ?? {};
      const path = `${at}.ports[${j}]`;
      const name = typeof port['name'] === 'string' ? port['name'] : '';
      if (ports.length > 1 && name === '') errs.push(fieldError.required(`${path}.name`));
      else if (name !== '') for (const msg of isDns1123Label(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
      errs.push(...validatePortNumber(`${path}.port`, port['port']));
      const protocol = port['protocol'];
      if (protocol === undefined || protocol === '') errs.push(fieldError.required(`${path}.protocol`));
      else if (!protocols.includes(String(protocol))) errs.push(fieldError.notSupported(`${path}.protocol`, protocol, protocols));
      const appProtocol = port['appProtocol'];
      if (typeof appProtocol === 'string') for (const msg of isQualifiedName(appProtocol)) errs.push(fieldError.invalid(`${path}.appProtocol`, appProtocol, msg));
    });
  });
  return errs;
}

/** The endpoints strategy. */
export function endpointsStrategy(): Strategy {
  return defineStrategy({ allowCreateOnUpdate: true, prepareForCreate: defaults, prepareForUpdate: defaults, validate: validateEndpoints, validateUpdate: validateEndpoints });
}
