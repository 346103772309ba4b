/**
 * PriorityClasses (pkg/registry/scheduling/priorityclass): `preemptionPolicy` defaults to `PreemptLowerPriority`
 * (SetDefaults_PriorityClass); names starting `system-` are reserved for the built-in classes; a user class's
 * value is at most 1000000000 (HighestUserDefinablePriority); value and preemption policy may not change; the
 * system classes may not be deleted.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { setDefault } from './pod-spec.js';

/** HighestUserDefinablePriority. */
export const highestUserPriority = 1_000_000_000;
/** The built-in classes and their values (SystemPriorityClasses). */
const systemClasses: Readonly<Record<string, number>> = { 'system-node-critical': 2_000_001_000, 'system-cluster-critical': 2_000_000_000 };

/** SetDefaults_PriorityClass. */
export function defaultPriorityClass(object: KubeObject): void {
  setDefault(object as Record<string, unknown>, 'preemptionPolicy', 'PreemptLowerPriority');
}

/** ValidatePriorityClass. */
export function validatePriorityClass(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = object.metadata?.name ?? '';
  const value = object['value'];
  if (name.startsWith('system-')) {
    const expected = systemClasses[name];
    if (expected === undefined) errs.push(fieldError.forbidden('metadata.name', "priority class names with 'system-' prefix are reserved"));
    else if (value !== expected) errs.push(fieldError.forbidden('value', `value of system priority class ${name} must be ${expected}`));
  } else if (typeof value === 'number' && value > highestUserPriority) {
    errs.push(fieldError.forbidden('value', `maximum allowed value of a user defined priority is ${highestUserPriority}`));
  }
  const policy = object['preemptionPolicy'];
  if (policy !== 'PreemptLowerPriority' && policy !== 'Never') errs.push(fieldError.notSupported('preemptionPolicy', policy, ['Never', 'PreemptLowerPriority']));
  return errs;
}

/** ValidatePriorityClassUpdate. */
function validatePriorityClassUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePriorityClass(object);
  if (object['value'] !== old['value']) errs.push(fieldError.forbidden('value', 'may not be changed in an update.'));
  if (object['preemptionPolicy'] !== old['preemptionPolicy']) errs.push(fieldError.invalid('preemptionPolicy', object['preemptionPolicy'], 'field is immutable'));
  return errs;
}

/** The priorityclass strategy; the system classes cannot be deleted (the PriorityClass REST storage's Delete). */
export function priorityClassStrategy(): Strategy {
  return {
    ...defineStrategy({
      prepareForCreate: defaultPriorityClass,
      prepareForUpdate: defaultPriorityClass,
      validate: validatePriorityClass,
      validateUpdate: validatePriorityClassUpdate,
    }),
    refuseDelete: (name) => (systemClasses[name] !== undefined ? 'this is a system priority class and cannot be deleted' : undefined),
  };
}
