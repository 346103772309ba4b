/**
 * discovery/v1 EndpointSlices (pkg/registry/discovery/endpointslice; ValidateEndpointSlice and its update): a
 * known address type, immutable; each endpoint has 1 to 100 addresses of that type; ports have valid numbers,
 * known protocols and DNS-label names; ports default to TCP. Generation starts at 1 and moves with any change but
 * metadata's, and with a change of labels.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Label, isDns1123Subdomain } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable, sameJson, setDefault, validatePortNumber } from './pod-spec.js';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const protocols = ['SCTP', 'TCP', 'UDP'];

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function defaults(object: KubeObject): void {
  for (const port of list(object['ports'])) {
    const p = record(port);
    if (p !== undefined) setDefault(p, 'protocol', 'TCP');
  }
}

function addressErrors(type: unknown, address: unknown, path: string): FieldError[] {
  const text = typeof address === 'string' ? address : '';
  if (type === 'IPv4' && !isIPv4(text)) return [fieldError.invalid(path, text, 'must be a valid IPv4 address')];
  if (type === 'IPv6' && !isIPv6(text)) return [fieldError.invalid(path, text, 'must be a valid IPv6 address')];
  if (type === 'FQDN') return isDns1123Subdomain(text).map((msg) => fieldError.invalid(path, text, msg));
  return [];
}

function validateSlice(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const type = object['addressType'];
  if (type === undefined || type === '') errs.push(fieldError.required('addressType'));
  else if (!addressTypes.includes(String(type))) errs.push(fieldError.notSupported('addressType', type, addressTypes));
  const endpoints = list(object['endpoints']);
  if (endpoints.length > 1000) errs.push(fieldError.tooMany('endpoints', endpoints.length, 1000));
  endpoints.forEach((raw, i) => {
    const addresses = list(record(raw)?.['addresses']);
    const at = `endpoints[${i}].addresses`;
    if (addresses.length === 0) errs.push(fieldError.required(at, 'must contain at least 1 address'));
    else if (addresses.length > 100) errs.push(fieldError.tooMany(at, addresses.length, 100));
    addresses.forEach((a, j) => errs.push(...addressErrors(type, a, `${at}[${j}]`)));
  });
  const names = new Set<string>();
  list(object['ports']).forEach((raw, i) => {
    const port = record(raw) ?? {};
    const at = `ports[${i}]`;
    const name = typeof port['name'] === 'string' ? port['name'] : '';
    if (name !== '') for (const msg of isDns1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
    if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    names.add(name);
    if (port['port'] !== undefined && port['port'] !== null) errs.push(...validatePortNumber(`${at}.port`, port['port']));
    const protocol = port['protocol'];
    if (protocol !== undefined && !protocols.includes(String(protocol))) errs.push(fieldError.notSupported(`${at}.protocol`, protocol, protocols));
  });
  return errs;
}

/** The endpointslice strategy. */
export function endpointSliceStrategy(): Strategy {
  return defineStrategy({
    tracksGeneration: true,
    prepareForCreate: defaults,
    prepareForUpdate(object, old) {
      defaults(object);
      // The generic bump covers everything but metadata; kube's slice strategy bumps on labels too.
      const meta = object.metadata ?? {};
      if (!sameJson(meta.labels ?? {}, old.metadata?.labels ?? {})) meta.generation = (old.metadata?.generation ?? 0) + 1;
    },
    validate: validateSlice,
    validateUpdate: (object, old) => [...validateSlice(object), ...immutable('addressType', object['addressType'], old['addressType'])],
  });
}
