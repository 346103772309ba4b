/**
 * PodDisruptionBudgets (pkg/registry/policy/poddisruptionbudget): status subresource and `metadata.generation`
 * (the eviction subresource compares it with `status.observedGeneration`); `minAvailable` and `maxUnavailable`
 * exclude each other (ValidatePodDisruptionBudgetSpec).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { validateLabelSelector } from './pod-spec.js';

function validateBudget(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs = validateLabelSelector(spec['selector'], 'spec.selector');
  if (spec['minAvailable'] !== undefined && spec['maxUnavailable'] !== undefined) {
    errs.push(fieldError.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  return errs;
}

/** The poddisruptionbudget strategy. */
export function podDisruptionBudgetStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true, tracksGeneration: true, initialStatus: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
    validate: validateBudget, validateUpdate: (object) => validateBudget(object),
  });
}
