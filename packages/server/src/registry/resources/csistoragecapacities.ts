/**
 * CSIStorageCapacities (pkg/registry/storage/csistoragecapacity; ValidateCSIStorageCapacity and its update): a
 * storage class name that is a DNS subdomain, quantities not negative, `storageClassName` and `nodeTopology`
 * immutable; an update must name the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable } from './pod-spec.js';
import { quantityValue } from './quantity.js';

function validateCapacity(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const className = typeof object['storageClassName'] === 'string' ? object['storageClassName'] : '';
  if (className === '') errs.push(fieldError.required('storageClassName'));
  else for (const msg of isDns1123Subdomain(className)) errs.push(fieldError.invalid('storageClassName', className, msg));
  for (const key of ['capacity', 'maximumVolumeSize']) {
    const q = object[key];
    if (q === undefined || q === null) continue;
    const v = quantityValue(q);
    if (v === undefined || v < 0) errs.push(fieldError.invalid(key, q, 'must be greater than or equal to 0'));
  }
  return errs;
}

/** The csistoragecapacity strategy. */
export function csiStorageCapacityStrategy(): Strategy {
  return defineStrategy({
    allowUnconditionalUpdate: false,
    validate: validateCapacity,
    validateUpdate: (object, old) => [
      ...validateCapacity(object),
      ...immutable('nodeTopology', object['nodeTopology'], old['nodeTopology']),
      ...immutable('storageClassName', object['storageClassName'], old['storageClassName']),
    ],
  });
}
