/**
 * RuntimeClasses (pkg/registry/node/runtimeclass): `handler` is required, a DNS-1123 label, and immutable
 * (ValidateRuntimeClass, ValidateRuntimeClassUpdate); overhead quantities must parse.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Label } from '../../meta/name-rules.js';
import { defineStrategy } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { immutable, isQuantity } from './pod-spec.js';

/** ValidateRuntimeClass. */
export function validateRuntimeClass(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const handler = object['handler'];
  if (typeof handler !== 'string' || handler === '') errs.push(fieldError.required('handler'));
  else for (const msg of isDns1123Label(handler)) errs.push(fieldError.invalid('handler', handler, msg));
  const podFixed = record(record(object['overhead'])?.['podFixed']) ?? {};
  for (const [resource, quantity] of Object.entries(podFixed)) {
    if (!isQuantity(quantity)) errs.push(fieldError.invalid(`overhead.podFixed[${resource}]`, quantity, 'must be a valid quantity'));
  }
  return errs;
}

/** The runtimeclass strategy. */
export function runtimeClassStrategy(): Strategy {
  return defineStrategy({
    validate: validateRuntimeClass,
    validateUpdate: (object, old) => [...validateRuntimeClass(object), ...immutable('handler', object['handler'], old['handler'])],
  });
}
