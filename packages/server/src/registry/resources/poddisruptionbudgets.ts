/**
 * PodDisruptionBudgets (pkg/registry/policy/poddisruptionbudget, ValidatePodDisruptionBudgetSpec, 1.27): status
 * subresource and `metadata.generation` (the eviction subresource compares it with `status.observedGeneration`);
 * `minAvailable` and `maxUnavailable` exclude each other and are each a non-negative int or a percent of at most
 * 100%; the selector is checked with the stored selector's relaxation of label values; `unhealthyPodEvictionPolicy`
 * is IfHealthyBudget or AlwaysAllow, and dropped while PDBUnhealthyPodEvictionPolicy is off unless stored.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { notMoreThan100Percent, positiveIntOrPercent } from './deployments.js';
import { isSet, obj, type Json } from './field-checks.js';
import { specOf } from './object-fields.js';
import { hasInvalidLabelValue, validateLabelSelector } from './label-checks.js';

const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

function validateBudget(object: KubeObject, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const spec = obj(object['spec']);
  const errs: FieldError[] = [];
  if (isSet(spec['minAvailable']) && isSet(spec['maxUnavailable'])) errs.push(fieldError.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const key of ['minAvailable', 'maxUnavailable']) {
    if (isSet(spec[key])) errs.push(...positiveIntOrPercent(spec[key], `spec.${key}`), ...notMoreThan100Percent(spec[key], `spec.${key}`));
  }
  errs.push(...validateLabelSelector(spec['selector'], 'spec.selector', { allowInvalidLabelValueInSelector }));
  const policy = spec['unhealthyPodEvictionPolicy'];
  if (isSet(policy) && !evictionPolicies.includes(String(policy))) errs.push(fieldError.notSupported('spec.unhealthyPodEvictionPolicy', policy, evictionPolicies));
  return errs;
}

/** dropDisabledFields: the eviction policy of PDBUnhealthyPodEvictionPolicy. */
function drop(spec: Json, old: Json | undefined, gates: FeatureGates): void {
  if (!gates.PDBUnhealthyPodEvictionPolicy && !isSet(old?.['unhealthyPodEvictionPolicy'])) delete spec['unhealthyPodEvictionPolicy'];
}

/** The poddisruptionbudget strategy under the server's gates. */
export function podDisruptionBudgetStrategy(_names?: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  return defineStrategy({
    hasStatus: true, tracksGeneration: true, initialStatus: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
    prepareForCreate: (object) => drop(specOf(object), undefined, gates),
    prepareForUpdate: (object, old) => drop(specOf(object), obj(old['spec']), gates),
    validate: (object) => validateBudget(object, false),
    validateUpdate: (object, old) => validateBudget(object, hasInvalidLabelValue(obj(old['spec'])['selector'])),
  });
}
