/**
 * Ingresses (pkg/registry/networking/ingress, networking/v1): status subresource, generation, and the basics of
 * ValidateIngress users meet: a default backend or rules; hosts are DNS names (a leading `*.` wildcard allowed),
 * not IP addresses; each path has a `pathType` (Exact, Prefix, ImplementationSpecific), Exact and Prefix paths are
 * absolute; each backend names exactly one of a service or a resource, and a service port by name or number.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { defineStrategy } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { validatePortNumber } from './pod-spec.js';

const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const ipAddress = /^(\d{1,3}\.){3}\d{1,3}$|:/;

function validateBackend(backend: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const service = record(backend['service']);
  const resource = record(backend['resource']);
  if (service !== undefined && resource !== undefined) return [fieldError.invalid(path, '', 'cannot set both service and resource backends')];
  if (service === undefined && resource === undefined) return [fieldError.invalid(path, '', 'one backend must be specified')];
  if (service !== undefined) {
    if (typeof service['name'] !== 'string' || service['name'] === '') errs.push(fieldError.required(`${path}.service.name`));
    const port = record(service['port']) ?? {};
    const hasName = typeof port['name'] === 'string' && port['name'] !== '';
    const hasNumber = port['number'] !== undefined && port['number'] !== 0;
    if (hasName && hasNumber) errs.push(fieldError.invalid(`${path}.service.port`, '', 'cannot set both port name & port number'));
    else if (!hasName && !hasNumber) errs.push(fieldError.invalid(`${path}.service.port`, '', 'port name or number is required'));
    else if (hasNumber) errs.push(...validatePortNumber(`${path}.service.port.number`, port['number']));
  } else if (resource !== undefined) {
    if (typeof resource['kind'] !== 'string' || resource['kind'] === '') errs.push(fieldError.required(`${path}.resource.kind`));
    if (typeof resource['name'] !== 'string' || resource['name'] === '') errs.push(fieldError.required(`${path}.resource.name`));
  }
  return errs;
}

/** ValidateIngress's spec checks. */
export function validateIngress(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = record(object['spec']) ?? {};
  const rules = Array.isArray(spec['rules']) ? spec['rules'] : [];
  const defaultBackend = record(spec['defaultBackend']);
  if (defaultBackend === undefined && rules.length === 0) errs.push(fieldError.invalid('spec', '', 'either `defaultBackend` or `rules` must be specified'));
  if (defaultBackend !== undefined) errs.push(...validateBackend(defaultBackend, 'spec.defaultBackend'));
  rules.forEach((raw, i) => {
    const rule = record(raw) ?? {};
    const base = `spec.rules[${i}]`;
    const host = rule['host'];
    if (typeof host === 'string' && host !== '') {
      if (ipAddress.test(host)) errs.push(fieldError.invalid(`${base}.host`, host, 'must be a DNS name, not an IP address'));
      else {
        const bare = host.startsWith('*.') ? host.slice(2) : host;
        for (const msg of isDns1123Subdomain(bare)) errs.push(fieldError.invalid(`${base}.host`, host, msg));
      }
    }
    const http = record(rule['http']);
    if (http === undefined) return;
    const paths = Array.isArray(http['paths']) ? http['paths'] : [];
    if (paths.length === 0) errs.push(fieldError.required(`${base}.http.paths`));
    paths.forEach((rawPath, j) => {
      const p = record(rawPath) ?? {};
      const at = `${base}.http.paths[${j}]`;
      const pathType = p['pathType'];
      if (pathType === undefined || pathType === '') errs.push(fieldError.required(`${at}.pathType`, 'pathType must be specified'));
      else if (!pathTypes.includes(String(pathType))) errs.push(fieldError.notSupported(`${at}.pathType`, pathType, pathTypes));
      const value = p['path'];
      if ((pathType === 'Exact' || pathType === 'Prefix') && (typeof value !== 'string' || !value.startsWith('/'))) {
        errs.push(fieldError.invalid(`${at}.path`, value ?? '', 'must be an absolute path'));
      }
      errs.push(...validateBackend(record(p['backend']) ?? {}, `${at}.backend`));
    });
  });
  return errs;
}

/** The ingress strategy. */
export function ingressStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true, tracksGeneration: true, initialStatus: () => ({ loadBalancer: {} }), validate: validateIngress, validateUpdate: (object) => validateIngress(object) });
}
