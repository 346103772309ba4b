/**
 * PriorityLevelConfigurations (pkg/registry/flowcontrol/prioritylevelconfiguration): status subresource,
 * generation, the v1beta3 defaults of a `Limited` level (SetDefaults_LimitedPriorityLevelConfiguration:
 * `nominalConcurrencyShares` 30 — `assuredConcurrencyShares` in v1beta2 — and `lendablePercent` 0; a `Queue` limit
 * response's queuing `queues` 64, `handSize` 8, `queueLengthLimit` 50) and the basics of
 * ValidatePriorityLevelConfiguration: type Exempt or Limited, `limited` exactly for Limited, the `exempt` name
 * reserved for the Exempt type, queuing with hand size not above the queue count.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { setDefault, specOf } from './pod-spec.js';

/** The shares field of a limited level in the object's version (renamed in v1beta3). */
function sharesField(object: KubeObject): string {
  return String(object.apiVersion ?? '').endsWith('/v1beta2') || String(object.apiVersion ?? '').endsWith('/v1beta1')
    ? 'assuredConcurrencyShares' : 'nominalConcurrencyShares';
}

/** SetDefaults_PriorityLevelConfiguration for the object's version. */
export function defaultPriorityLevel(object: KubeObject): void {
  const limited = record(specOf(object)['limited']);
  if (limited === undefined) return;
  const shares = sharesField(object);
  if (limited[shares] === undefined || limited[shares] === 0) limited[shares] = 30;
  setDefault(limited, 'lendablePercent', 0);
  const response = record(limited['limitResponse']);
  const queuing = record(response?.['queuing']);
  if (response?.['type'] === 'Queue' && queuing !== undefined) {
    if (!queuing['queues']) queuing['queues'] = 64;
    if (!queuing['handSize']) queuing['handSize'] = 8;
    if (!queuing['queueLengthLimit']) queuing['queueLengthLimit'] = 50;
  }
}

/** ValidatePriorityLevelConfiguration's basics. */
export function validatePriorityLevel(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = record(object['spec']) ?? {};
  const type = spec['type'];
  const name = object.metadata?.name ?? '';
  if (type !== 'Exempt' && type !== 'Limited') {
    errs.push(fieldError.notSupported('spec.type', type ?? '', ['Exempt', 'Limited']));
    return errs;
  }
  if (name === 'exempt' && type !== 'Exempt') errs.push(fieldError.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  if (name !== 'exempt' && type === 'Exempt') errs.push(fieldError.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  const limited = record(spec['limited']);
  if (type === 'Limited') {
    if (limited === undefined) return [...errs, fieldError.required('spec.limited', 'must not be empty when type is Limited')];
    const shares = sharesField(object);
    const value = limited[shares];
    if (typeof value === 'number' && value < 0) errs.push(fieldError.invalid(`spec.limited.${shares}`, value, 'must be a non-negative integer'));
    const lendable = limited['lendablePercent'];
    if (typeof lendable === 'number' && (lendable < 0 || lendable > 100)) errs.push(fieldError.invalid('spec.limited.lendablePercent', lendable, 'must be between 0 and 100, inclusive'));
    const response = record(limited['limitResponse']) ?? {};
    const responseType = response['type'];
    if (responseType !== 'Queue' && responseType !== 'Reject') errs.push(fieldError.notSupported('spec.limited.limitResponse.type', responseType ?? '', ['Queue', 'Reject']));
    const queuing = record(response['queuing']);
    if (responseType === 'Queue' && queuing === undefined) errs.push(fieldError.required('spec.limited.limitResponse.queuing', 'must not be empty if limitResponse.type is Queue'));
    if (responseType === 'Reject' && queuing !== undefined) errs.push(fieldError.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
    if (queuing !== undefined) {
      const queues = Number(queuing['queues'] ?? 0);
      const handSize = Number(queuing['handSize'] ?? 0);
      if (handSize > queues) errs.push(fieldError.invalid('spec.limited.limitResponse.queuing.handSize', handSize, `should not be greater than queues (${queues})`));
      if (Number(queuing['queueLengthLimit'] ?? 0) <= 0) errs.push(fieldError.invalid('spec.limited.limitResponse.queuing.queueLengthLimit', queuing['queueLengthLimit'] ?? 0, 'must be positive'));
    }
  } else if (limited !== undefined) {
    errs.push(fieldError.forbidden('spec.limited', 'must be nil if the type is not Limited'));
  }
  return errs;
}

/** The prioritylevelconfiguration strategy. */
export function priorityLevelStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    initialStatus: () => ({}),
    tracksGeneration: true,
    prepareForCreate: defaultPriorityLevel,
    prepareForUpdate: defaultPriorityLevel,
    validate: validatePriorityLevel,
    validateUpdate: (object) => validatePriorityLevel(object),
  });
}
