/**
 * IngressClasses (pkg/registry/networking/ingressclass): `spec.controller` is required, at most 250 characters,
 * a domain-prefixed path, and immutable; `spec.parameters` needs a kind and a name, and a `Namespace` scope needs
 * a namespace (a `Cluster` scope none) (ValidateIngressClass, ValidateIngressClassUpdate).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { immutable } from './pod-spec.js';

const maxControllerLength = 250;
const domainPrefixedPath = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/\S+$/;

/** ValidateIngressClass. */
export function validateIngressClass(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = record(object['spec']) ?? {};
  const controller = spec['controller'];
  if (typeof controller !== 'string' || controller === '') errs.push(fieldError.required('spec.controller'));
  else if (controller.length > maxControllerLength) errs.push(fieldError.tooLong('spec.controller', maxControllerLength));
  else if (!domainPrefixedPath.test(controller)) errs.push(fieldError.invalid('spec.controller', controller, 'must be a domain-prefixed path (such as "acme.io/foo")'));
  const params = record(spec['parameters']);
  if (params !== undefined) {
    if (typeof params['kind'] !== 'string' || params['kind'] === '') errs.push(fieldError.required('spec.parameters.kind', 'kind is required'));
    if (typeof params['name'] !== 'string' || params['name'] === '') errs.push(fieldError.required('spec.parameters.name', 'name is required'));
    const scope = params['scope'] ?? 'Cluster';
    if (scope !== 'Cluster' && scope !== 'Namespace') errs.push(fieldError.notSupported('spec.parameters.scope', scope, ['Cluster', 'Namespace']));
    if (scope === 'Namespace' && (typeof params['namespace'] !== 'string' || params['namespace'] === '')) {
      errs.push(fieldError.required('spec.parameters.namespace', '`parameters.scope` is set to \'Namespace\''));
    }
    if (scope === 'Cluster' && params['namespace'] !== undefined) {
      errs.push(fieldError.forbidden('spec.parameters.namespace', '`parameters.scope` is set to \'Cluster\''));
    }
  }
  return errs;
}

/** The ingressclass strategy. */
export function ingressClassStrategy(): Strategy {
  return defineStrategy({
    tracksGeneration: true,
    validate: validateIngressClass,
    validateUpdate: (object, old) => [
      ...validateIngressClass(object),
      ...immutable('spec.controller', record(object['spec'])?.['controller'], record(old['spec'])?.['controller']),
    ],
  });
}
