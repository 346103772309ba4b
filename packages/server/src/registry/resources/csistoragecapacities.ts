/**
 * CSIStorageCapacities (pkg/registry/storage/csistoragecapacity and ValidateCSIStorageCapacity/Update of 1.27, rule
 * by rule): a node topology that is a valid label selector, a storage class name that is a DNS subdomain (an empty
 * one fails that check, as kube words it), a capacity not negative; `storageClassName` and `nodeTopology`
 * immutable; an update must name the resourceVersion it replaces (AllowUnconditionalUpdate false).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { dns1123Subdomain, isSet, text } from './field-checks.js';
import { hasInvalidLabelValue, validateLabelSelector } from './label-checks.js';
import { immutable } from './object-fields.js';
import { quantityValue } from './quantity.js';

/** ValidateCSIStorageCapacity; `allowInvalidLabelValueInSelector` when the stored topology already had such values. */
function validateCapacity(object: KubeObject, allowInvalidLabelValueInSelector = false): FieldError[] {
  const errs = validateLabelSelector(object['nodeTopology'], 'nodeTopology', { allowInvalidLabelValueInSelector });
  errs.push(...dns1123Subdomain(text(object['storageClassName']), 'storageClassName'));
  if (isSet(object['capacity'])) {
    const v = quantityValue(object['capacity']);
    if (v === undefined || v < 0) errs.push(fieldError.invalid('capacity', object['capacity'], 'must be greater than or equal to 0'));
  }
  return errs;
}

/** The csistoragecapacity strategy. */
export function csiStorageCapacityStrategy(): Strategy {
  return defineStrategy({
    allowUnconditionalUpdate: false,
    validate: (object) => validateCapacity(object),
    validateUpdate: (object, old) => [
      ...validateCapacity(object, hasInvalidLabelValue(old['nodeTopology'])),
      ...immutable('nodeTopology', object['nodeTopology'] ?? null, old['nodeTopology'] ?? null),
      ...immutable('storageClassName', object['storageClassName'] ?? '', old['storageClassName'] ?? ''),
    ],
  });
}
