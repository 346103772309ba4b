/**
 * IngressClasses (pkg/registry/networking/ingressclass and ValidateIngressClass/ValidateIngressClassUpdate of 1.27,
 * rule by rule): generation; `spec.controller` required, at most 250 bytes, a domain-prefixed path, immutable;
 * `spec.parameters` (its scope defaulted to `Cluster` by networking/v1) with a path-segment kind and name, an
 * apiGroup that is a DNS subdomain, and a namespace exactly when the scope is `Namespace`.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { dns1123Label, dns1123Subdomain, isSet, obj, text, type Json } from './field-checks.js';
import { typedReferenceErrors } from './ingresses.js';
import { immutable } from './object-fields.js';

const maxControllerLength = 250;
const scopes = ['Cluster', 'Namespace'];
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPath = new RegExp(`^${httpPathFmt}$`);

/** validation.IsDomainPrefixedPath: `<DNS subdomain>/<HTTP path>`. */
export function domainPrefixedPathErrors(value: string, path: string): FieldError[] {
  if (value === '') return [fieldError.required(path)];
  const slash = value.indexOf('/');
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  if (slash <= 0 || rest === '') return [fieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = dns1123Subdomain(host, path);
  if (!httpPath.test(rest)) errs.push(fieldError.invalid(path, rest, `Invalid path (regex used for validation is '${httpPathFmt}')`));
  return errs;
}

/** SetDefaults_IngressClass (networking/v1): parameters without a scope are cluster-scoped. */
function defaultIngressClass(object: KubeObject): void {
  const params = obj(object['spec'])['parameters'];
  if (isSet(params) && typeof params === 'object' && !isSet((params as Json)['scope'])) (params as Json)['scope'] = 'Cluster';
}

/** validateIngressClassParametersReference. */
function parametersErrors(params: Json, path: string): FieldError[] {
  const errs = typedReferenceErrors(params, path, (key) => `${key} is required`);
  if (!isSet(params['scope'])) return [...errs, fieldError.required(`${path}.scope`)];
  const scope = text(params['scope']);
  if (!scopes.includes(scope)) return [...errs, fieldError.notSupported(`${path}.scope`, scope, scopes)];
  if (scope === 'Namespace') {
    if (!isSet(params['namespace'])) errs.push(fieldError.required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...dns1123Label(text(params['namespace']), `${path}.namespace`));
  }
  if (scope === 'Cluster' && isSet(params['namespace'])) errs.push(fieldError.forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

/** ValidateIngressClass. */
export function validateIngressClass(object: KubeObject): FieldError[] {
  const spec = obj(object['spec']);
  const controller = text(spec['controller']);
  const errs: FieldError[] = [];
  if (controller.length > maxControllerLength) errs.push(fieldError.tooLong('spec.controller', maxControllerLength));
  errs.push(...domainPrefixedPathErrors(controller, 'spec.controller'));
  if (isSet(spec['parameters'])) errs.push(...parametersErrors(obj(spec['parameters']), 'spec.parameters'));
  return errs;
}

/** The ingressclass strategy. */
export function ingressClassStrategy(): Strategy {
  return defineStrategy({
    tracksGeneration: true,
    defaults: defaultIngressClass,
    validate: validateIngressClass,
    validateUpdate: (object, old) => [
      ...immutable('spec.controller', obj(object['spec'])['controller'] ?? '', obj(old['spec'])['controller'] ?? ''),
      ...validateIngressClass(object),
    ],
  });
}
