/**
 * ResourceQuotas (pkg/registry/core/resourcequota; ValidateResourceQuota): status subresource; every `spec.hard`
 * quantity is valid and not negative, and whole for the object counts (pods, services, `count/...`); scopes are
 * known.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { quantityValue } from './quantity.js';

const integerResources = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);
const scopes = ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating'];

function validateQuota(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = record(object['spec']) ?? {};
  for (const [name, q] of Object.entries(record(spec['hard']) ?? {})) {
    const at = `spec.hard[${name}]`;
    const v = quantityValue(q);
    if (v === undefined || v < 0) errs.push(fieldError.invalid(at, q, 'must be greater than or equal to 0'));
    else if ((integerResources.has(name) || name.startsWith('count/')) && !Number.isInteger(v)) errs.push(fieldError.invalid(at, q, 'must be an integer'));
  }
  (Array.isArray(spec['scopes']) ? spec['scopes'] : []).forEach((scope) => {
    if (!scopes.includes(String(scope))) errs.push(fieldError.invalid('spec.scopes', scope, 'unsupported scope'));
  });
  return errs;
}

/** The resourcequota strategy. */
export function resourceQuotaStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, initialStatus: () => ({}), returnDeletedObject: true, validate: validateQuota, validateUpdate: validateQuota });
}
