/**
 * PriorityLevelConfigurations (pkg/registry/flowcontrol/prioritylevelconfiguration): status subresource,
 * generation, the v1beta3 defaults of a `Limited` level (SetDefaults_LimitedPriorityLevelConfiguration:
 * `nominalConcurrencyShares` 30 — `assuredConcurrencyShares` in v1beta2 — and `lendablePercent` 0; a `Queue` limit
 * response's queuing `queues` 64, `handSize` 8, `queueLengthLimit` 50) and 1.27's ValidatePriorityLevelConfiguration
 * rule by rule: type Exempt or Limited, `limited` exactly for Limited, the `exempt` name reserved for the Exempt
 * type, positive shares, lendable and borrowing percentages, and queuing with positive limits, at most 10^7
 * queues and a hand size the shuffle sharding can deal.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import { isSet, num, obj, text, type Json } from './field-checks.js';
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

/** priorityLevelConfigurationQueuingMaxQueues and shufflesharding.MaxHashBits. */
const maxQueues = 10_000_000;
const maxHashBits = 60;

/** ValidatePriorityLevelQueuingConfiguration: positive limits, and a hand the shuffle sharding can deal. */
function queuingErrors(queuing: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const lengthLimit = num(queuing['queueLengthLimit']);
  if (lengthLimit <= 0) errs.push(fieldError.invalid(`${path}.queueLengthLimit`, lengthLimit, 'must be positive'));
  const queues = num(queuing['queues']);
  if (queues <= 0) errs.push(fieldError.invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > maxQueues) errs.push(fieldError.invalid(`${path}.queues`, queues, `must not be greater than ${maxQueues}`));
  const handSize = num(queuing['handSize']);
  if (handSize <= 0) errs.push(fieldError.invalid(`${path}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues) errs.push(fieldError.invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * handSize) > maxHashBits) {
    errs.push(fieldError.invalid(`${path}.handSize`, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`));
  }
  return errs;
}

/** ValidateLimitedPriorityLevelConfiguration of 1.27, the shares named as the object's version names them. */
function limitedErrors(limited: Json, shares: string): FieldError[] {
  const errs: FieldError[] = [];
  if (num(limited[shares]) <= 0) errs.push(fieldError.invalid(`spec.limited.${shares}`, num(limited[shares]), 'must be positive'));
  const response = obj(limited['limitResponse']);
  const type = text(response['type']);
  if (type === 'Reject') {
    if (isSet(response['queuing'])) errs.push(fieldError.forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
  } else if (type === 'Queue') {
    if (!isSet(response['queuing'])) errs.push(fieldError.required('spec.limited.limitResponse.queuing', 'must not be empty if limited.limitResponse.type is Limited'));
    else errs.push(...queuingErrors(obj(response['queuing']), 'spec.limited.limitResponse.queuing'));
  } else {
    errs.push(fieldError.notSupported('spec.limited.limitResponse.type', type, ['Queue', 'Reject']));
  }
  const lendable = limited['lendablePercent'];
  if (isSet(lendable) && (num(lendable) < 0 || num(lendable) > 100)) errs.push(fieldError.invalid('spec.limited.lendablePercent', lendable, 'must be between 0 and 100, inclusive'));
  const borrowing = limited['borrowingLimitPercent'];
  if (isSet(borrowing) && num(borrowing) < 0) errs.push(fieldError.invalid('spec.limited.borrowingLimitPercent', borrowing, 'if specified, must be a non-negative integer'));
  return errs;
}

/** ValidatePriorityLevelConfigurationSpec of 1.27. */
export function validatePriorityLevel(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(object['spec']);
  const type = text(spec['type']);
  if ((object.metadata?.name === 'exempt') !== (type === 'Exempt')) errs.push(fieldError.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  if (type === 'Exempt') {
    if (isSet(spec['limited'])) errs.push(fieldError.forbidden('spec.limited', 'must be nil if the type is not Limited'));
  } else if (type === 'Limited') {
    if (!isSet(spec['limited'])) errs.push(fieldError.required('spec.limited', 'must not be empty when type is Limited'));
    else errs.push(...limitedErrors(obj(spec['limited']), sharesField(object)));
  } else {
    errs.push(fieldError.notSupported('spec.type', type, ['Exempt', 'Limited']));
  }
  return errs;
}

/** The prioritylevelconfiguration strategy. */
export function priorityLevelStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    initialStatus: () => ({}),
    tracksGeneration: true,
    defaults: defaultPriorityLevel,
    validate: validatePriorityLevel,
    validateUpdate: (object) => validatePriorityLevel(object),
  });
}
