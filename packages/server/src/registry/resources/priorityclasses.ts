/**
 * PriorityClasses (pkg/registry/scheduling/priorityclass): `preemptionPolicy` defaults to `PreemptLowerPriority`
 * (SetDefaults_PriorityClass); names starting `system-` are reserved for the built-in classes with their values;
 * a user class's value is at most 1000000000 (HighestUserDefinablePriority); value and preemption policy may not
 * change, and an update checks nothing else (as 1.27's ValidatePriorityClassUpdate); the system classes may not be
 * deleted.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable, setDefault } from './object-fields.js';

/** HighestUserDefinablePriority. */
export const highestUserPriority = 1_000_000_000;
/** The built-in classes and their values (SystemPriorityClasses). */
const systemClasses: Readonly<Record<string, number>> = { 'system-node-critical': 2_000_001_000, 'system-cluster-critical': 2_000_000_000 };

/** SetDefaults_PriorityClass. */
export function defaultPriorityClass(object: KubeObject): void {
  setDefault(object as Record<string, unknown>, 'preemptionPolicy', 'PreemptLowerPriority');
}

/** scheduling.IsKnownSystemPriorityClass's reason a `system-` class is not one of the built-in ones, or none. */
function systemClassError(name: string, value: unknown, globalDefault: unknown): string | undefined {
  const expected = systemClasses[name];
  if (expected === undefined) return `${name} is not a known system priority class`;
  if (value !== expected) return `value of ${name} PriorityClass must be ${expected}`;
  // Neither built-in class is the global default.
  if (globalDefault === true) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

/** ValidatePreemptionPolicy. */
function preemptionPolicyErrors(policy: unknown): FieldError[] {
  if (policy === 'PreemptLowerPriority' || policy === 'Never') return [];
  if (policy === '') return [fieldError.required('preemptionPolicy')];
  return [fieldError.notSupported('preemptionPolicy', policy, ['PreemptLowerPriority', 'Never'])];
}

/** ValidatePriorityClass (1.27): a `system-` name only for the built-in classes as they are; user values bounded. */
export function validatePriorityClass(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = object.metadata?.name ?? '';
  const value = object['value'];
  if (name.startsWith('system-')) {
    const reason = systemClassError(name, value, object['globalDefault']);
    if (reason !== undefined) errs.push(fieldError.forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${reason}`));
  } else if (typeof value === 'number' && value > highestUserPriority) {
    errs.push(fieldError.forbidden('value', `maximum allowed value of a user defined priority is ${highestUserPriority}`));
  }
  if (object['preemptionPolicy'] !== undefined && object['preemptionPolicy'] !== null) errs.push(...preemptionPolicyErrors(object['preemptionPolicy']));
  return errs;
}

/** ValidatePriorityClassUpdate: value and preemption policy immutable (the rest is not validated again). */
function validatePriorityClassUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (object['value'] !== old['value']) errs.push(fieldError.forbidden('value', 'may not be changed in an update.'));
  errs.push(...immutable('preemptionPolicy', object['preemptionPolicy'], old['preemptionPolicy']));
  return errs;
}

/** The priorityclass strategy; the system classes cannot be deleted (the PriorityClass REST storage's Delete). */
export function priorityClassStrategy(): Strategy {
  return {
    ...defineStrategy({
      defaults: defaultPriorityClass,
      validate: validatePriorityClass,
      validateUpdate: validatePriorityClassUpdate,
    }),
    refuseDelete: (name) => (systemClasses[name] !== undefined ? 'this is a system priority class and cannot be deleted' : undefined),
  };
}
