/**
 * Endpoints (pkg/registry/core/endpoint; SetDefaults_Endpoints; ValidateEndpoints, 1.27): created by PUT as well,
 * ports default to TCP; each subset has addresses, each address a valid IP that is not unspecified or link-local
 * (loopback is allowed, see endpointIpErrors), an optional DNS-label hostname and node name; each port a valid
 * number, a known protocol, a qualified app protocol, and a name when the subset has several.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { setDefault } from './object-fields.js';
import { dns1123Label, dns1123Subdomain, ipErrors, ipFamilyOf, list, nonSpecialIpErrors, objects, portNumErrors, protocolErrors, qualifiedName, text } from './field-checks.js';
import { coreMetaErrors } from './core-meta.js';

function defaults(object: KubeObject): void {
  for (const subset of list(object['subsets'])) {
    for (const port of list(record(subset)?.['ports'])) {
      const p = record(port);
      if (p !== undefined) setDefault(p, 'protocol', 'TCP');
    }
  }
}

/**
 * ValidateNonSpecialIP of an endpoint address, as field errors at `path`, but for loopback addresses: kube refuses
 * them, yet this server has no node network and reaches webhooks, conversion webhooks and extension servers named by
 * a Service at its endpoints on this host, so a loopback endpoint is the one way to point a Service at a local
 * process; and the `kubernetes` Service's Endpoints and EndpointSlice carry the advertised address, which is a
 * loopback one when the server is bound to loopback.
 */
export function nonSpecialEndpointIpErrors(ip: unknown, path: string): FieldError[] {
  return nonSpecialIpErrors(ip, path).filter((e) => !e.detail.startsWith('may not be in the loopback range'));
}

/** IsValidIP and ValidateNonSpecialIP of an endpoint address (loopback allowed: {@link nonSpecialEndpointIpErrors}). */
export function endpointIpErrors(ip: unknown, path: string): FieldError[] {
  const invalid = ipErrors(ip, path);
  return invalid.length > 0 ? invalid : nonSpecialEndpointIpErrors(ip, path);
}

/** ValidateEndpoints (1.27): every subset has addresses; each address a valid, non-special IP, hostname and node name; each port named when several. */
function validateEndpoints(object: KubeObject, names: Names): FieldError[] {
  const errs = coreMetaErrors(object, names);
  objects(object['subsets']).forEach((subset, i) => {
    const at = `subsets[${i}]`;
    if (list(subset['addresses']).length === 0 && list(subset['notReadyAddresses']).length === 0) {
      errs.push(fieldError.required(at, 'must specify `addresses` or `notReadyAddresses`'));
    }
    for (const key of ['addresses', 'notReadyAddresses']) {
      objects(subset[key]).forEach((address, j) => {
        const path = `${at}.${key}[${j}]`;
        // IsValidIP, then ValidateNonSpecialIP, which repeats an invalid address's error.
        errs.push(...ipErrors(address['ip'], `${path}.ip`));
        if (text(address['hostname']) !== '') errs.push(...dns1123Label(text(address['hostname']), `${path}.hostname`));
        if (address['nodeName'] !== undefined && address['nodeName'] !== null) errs.push(...dns1123Subdomain(text(address['nodeName']), `${path}.nodeName`));
        const special = endpointIpErrors(address['ip'], `${path}.ip`);
        errs.push(...(ipFamilyOf(text(address['ip'])) === undefined ? [fieldError.invalid(`${path}.ip`, text(address['ip']), 'must be a valid IP address')] : special));
      });
    }
    const ports = objects(subset['ports']);
    ports.forEach((port, j) => {
      const path = `${at}.ports[${j}]`;
      const name = text(port['name']);
      if (ports.length > 1 && name === '') errs.push(fieldError.required(`${path}.name`));
      else if (name !== '') errs.push(...dns1123Label(name, `${path}.name`));
      errs.push(...portNumErrors(port['port'], `${path}.port`), ...protocolErrors(port['protocol'], `${path}.protocol`));
      if (port['appProtocol'] !== undefined && port['appProtocol'] !== null) errs.push(...qualifiedName(text(port['appProtocol']), `${path}.appProtocol`));
    });
  });
  return errs;
}

/** The endpoints strategy. */
export function endpointsStrategy(names: Names): Strategy {
  const validate = (object: KubeObject): FieldError[] => validateEndpoints(object, names);
  return defineStrategy({ allowCreateOnUpdate: true, defaults, validate, validateUpdate: validate });
}
