/**
 * coordination/v1 Leases (pkg/registry/coordination/lease; ValidateLeaseSpec): created by PUT as well; a lease
 * duration above zero and a non-negative transition count.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

function validateLease(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [];
  const duration = spec['leaseDurationSeconds'];
  if (typeof duration === 'number' && duration <= 0) errs.push(fieldError.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = spec['leaseTransitions'];
  if (typeof transitions === 'number' && transitions < 0) errs.push(fieldError.invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  return errs;
}

/** The lease strategy. */
export function leaseStrategy(): Strategy {
  return defineStrategy({ allowCreateOnUpdate: true, validate: validateLease, validateUpdate: validateLease });
}
