/**
 * Ingresses (pkg/registry/networking/ingress and ValidateIngressCreate/Update/StatusUpdate of 1.27, rule by rule): a
 * status subresource whose status a create resets, generation; a default backend or rules; hosts and TLS hosts are
 * DNS subdomains (a `*.` wildcard allowed), rule hosts not IP addresses; each path has a `pathType`, Exact and Prefix
 * paths are absolute without `//`, `/./`, `/../`, `%2f` or a `/.`/`/..` ending; each backend names exactly one of a
 * service (a DNS-1035 name, a port by name or number) or a resource (path-segment kind and name); TLS secret names
 * and the class name are DNS subdomains; a create whose legacy class annotation differs from `ingressClassName` is
 * refused. An update keeps allowing the invalid TLS secret names and wildcard-host rules the stored object has.
 */
import type { FieldError, KubeObject, Names } from '@svc-apiserver/api';
import { fieldError } from '@svc-apiserver/api';
import { isDns1123Subdomain, isPathSegmentName } from '../../meta/name-rules.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { dns1035Label, dns1123Subdomain, ipFamilyOf, isSet, obj, objects, portNameMessages, portNumErrors, text, type Json } from './field-checks.js';

const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];
const wildcardFmt = `\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`;
const wildcard = new RegExp(`^${wildcardFmt}$`);

/** IsWildcardDNS1123Subdomain. */
function wildcardMessages(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!wildcard.test(value)) {
    errs.push(`a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${wildcardFmt}')`);
  }
  return errs;
}

/** A host as rules and TLS entries check it: a wildcard subdomain when it holds `*`, else a subdomain. */
function hostErrors(host: string, path: string): FieldError[] {
  const messages = host.includes('*') ? wildcardMessages(host) : isDns1123Subdomain(host);
  return messages.map((msg) => fieldError.invalid(path, host, msg));
}

/** validateIngressTypedLocalObjectReference (also the first part of an IngressClass's parameters). */
export function typedReferenceErrors(ref: Json, path: string, requiredDetail: (field: string) => string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(ref['apiGroup'])) errs.push(...dns1123Subdomain(text(ref['apiGroup']), `${path}.apiGroup`));
  for (const key of ['kind', 'name']) {
    const value = text(ref[key]);
    if (value === '') errs.push(fieldError.required(`${path}.${key}`, requiredDetail(key)));
    else for (const msg of isPathSegmentName(value)) errs.push(fieldError.invalid(`${path}.${key}`, value, msg));
  }
  return errs;
}

/** validateIngressBackend. */
function backendErrors(backend: Json, path: string): FieldError[] {
  const hasService = isSet(backend['service']);
  const hasResource = isSet(backend['resource']);
  if (hasService && hasResource) return [fieldError.invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return typedReferenceErrors(obj(backend['resource']), `${path}.resource`, (key) => `${key} is required`);
  if (!hasService) return [fieldError.invalid(path, '', 'resource or service backend is required')];
  const service = obj(backend['service']);
  const errs: FieldError[] = [];
  const name = text(service['name']);
  if (name === '') errs.push(fieldError.required(`${path}.service.name`));
  else errs.push(...dns1035Label(name, `${path}.service.name`));
  const port = obj(service['port']);
  const portName = text(port['name']);
  const portNumber = typeof port['number'] === 'number' ? port['number'] : 0;
  if (portName !== '' && portNumber !== 0) errs.push(fieldError.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') for (const msg of portNameMessages(portName)) errs.push(fieldError.invalid(`${path}.service.port.name`, portName, msg));
  else if (portNumber !== 0) errs.push(...portNumErrors(portNumber, `${path}.service.port.number`));
  else errs.push(fieldError.required(path, 'port name or number is required'));
  return errs;
}

/** validateHTTPIngressPath. */
function httpPathErrors(p: Json, at: string): FieldError[] {
  if (!isSet(p['pathType'])) return [fieldError.required(`${at}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const pathType = text(p['pathType']);
  const value = text(p['path']);
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(fieldError.invalid(`${at}.path`, value, 'must be an absolute path'));
    for (const seq of invalidPathSequences) if (value.includes(seq)) errs.push(fieldError.invalid(`${at}.path`, value, `must not contain '${seq}'`));
    for (const suffix of invalidPathSuffixes) if (value.endsWith(suffix)) errs.push(fieldError.invalid(`${at}.path`, value, `cannot end with '${suffix}'`));
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) errs.push(fieldError.invalid(`${at}.path`, value, 'must be an absolute path'));
  } else {
    errs.push(fieldError.notSupported(`${at}.pathType`, pathType, pathTypes));
  }
  return [...errs, ...backendErrors(obj(p['backend']), `${at}.backend`)];
}

/** validateIngressRuleValue: an http rule has paths, each valid. */
function ruleValueErrors(rule: Json, at: string): FieldError[] {
  if (!isSet(rule['http'])) return [];
  const paths = objects(obj(rule['http'])['paths']);
  const errs: FieldError[] = paths.length === 0 ? [fieldError.required(`${at}.http.paths`)] : [];
  paths.forEach((p, j) => errs.push(...httpPathErrors(p, `${at}.http.paths[${j}]`)));
  return errs;
}

/** IngressValidationOptions: what the stored object already did. */
interface IngressOptions {
  readonly allowInvalidSecretName: boolean;
  readonly allowInvalidWildcardHostRule: boolean;
}

/** ValidateIngressSpec. */
function ingressSpecErrors(spec: Json, options: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  const rules = objects(spec['rules']);
  if (rules.length === 0 && !isSet(spec['defaultBackend'])) {
    errs.push(fieldError.invalid('spec', '', 'either `defaultBackend` or `rules` must be specified'));
  }
  if (isSet(spec['defaultBackend'])) errs.push(...backendErrors(obj(spec['defaultBackend']), 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    const host = text(rule['host']);
    if (host !== '') {
      if (ipFamilyOf(host) !== undefined) errs.push(fieldError.invalid(`${at}.host`, host, 'must be a DNS name, not an IP address'));
      errs.push(...hostErrors(host, `${at}.host`));
    }
    if (!host.includes('*') || !options.allowInvalidWildcardHostRule) errs.push(...ruleValueErrors(rule, at));
  });
  objects(spec['tls']).forEach((tls, i) => {
    (Array.isArray(tls['hosts']) ? tls['hosts'] : []).forEach((h, k) => errs.push(...hostErrors(text(h), `spec.tls[${i}].hosts[${k}]`)));
    const secret = text(tls['secretName']);
    if (!options.allowInvalidSecretName && secret !== '') errs.push(...dns1123Subdomain(secret, `spec.tls[${i}].secretName`));
  });
  if (isSet(spec['ingressClassName'])) errs.push(...dns1123Subdomain(text(spec['ingressClassName']), 'spec.ingressClassName'));
  return errs;
}

/** The options an update takes from the stored object (allowInvalidSecretName, allowInvalidWildcardHostRule). */
function optionsFrom(old: KubeObject): IngressOptions {
  const spec = obj(old['spec']);
  return {
    allowInvalidSecretName: objects(spec['tls']).some((t) => text(t['secretName']) !== '' && isDns1123Subdomain(text(t['secretName'])).length > 0),
    allowInvalidWildcardHostRule: objects(spec['rules']).some((r) => text(r['host']).includes('*') && ruleValueErrors(r, '').length > 0),
  };
}

/** ValidateIngressLoadBalancerStatus of 1.27. */
function ingressStatusErrors(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  objects(obj(obj(object['status'])['loadBalancer'])['ingress']).forEach((ing, i) => {
    const at = `status.loadBalancer.ingress[${i}]`;
    const ip = text(ing['ip']);
    if (ip !== '' && ipFamilyOf(ip) === undefined) errs.push(fieldError.invalid(`${at}.ip`, ip, 'must be a valid IP address'));
    const hostname = text(ing['hostname']);
    if (hostname === '') return;
    errs.push(...dns1123Subdomain(hostname, `${at}.hostname`));
    if (ipFamilyOf(hostname) !== undefined) errs.push(fieldError.invalid(`${at}.hostname`, hostname, 'must be a DNS name, not an IP address'));
  });
  return errs;
}

/** ValidateIngressCreate's spec checks, with the legacy class annotation (named in the flavour's domain). */
export function validateIngress(object: KubeObject, names: Names): FieldError[] {
  const spec = obj(object['spec']);
  const errs = ingressSpecErrors(spec, { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false });
  const key = names.domain('ingress.class');
  const annotation = object.metadata?.annotations?.[key];
  if (annotation !== undefined && isSet(spec['ingressClassName']) && annotation !== spec['ingressClassName']) {
    errs.push(fieldError.invalid(`annotations.${key}`, annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

/** The ingress strategy of a flavour. */
export function ingressStrategy(names: Names): Strategy {
  return defineStrategy({
    hasStatus: true, tracksGeneration: true, initialStatus: () => ({ loadBalancer: {} }),
    validate: (object) => validateIngress(object, names),
    validateUpdate: (object, old) => ingressSpecErrors(obj(object['spec']), optionsFrom(old)),
    status: { prepareForUpdate: genericStatusStrategy.prepareForUpdate, validateUpdate: ingressStatusErrors },
  });
}
