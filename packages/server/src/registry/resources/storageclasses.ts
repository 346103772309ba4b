/**
 * StorageClasses (pkg/registry/storage/storageclass): `reclaimPolicy` defaults to `Delete` and
 * `volumeBindingMode` to `Immediate` (SetDefaults_StorageClass); `provisioner` is required; the provisioner,
 * parameters, reclaim policy and binding mode may not change (ValidateStorageClassUpdate).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { sameJson, setDefault } from './pod-spec.js';

/** SetDefaults_StorageClass. */
export function defaultStorageClass(object: KubeObject): void {
  const o = object as Record<string, unknown>;
  setDefault(o, 'reclaimPolicy', 'Delete');
  setDefault(o, 'volumeBindingMode', 'Immediate');
}

/** ValidateStorageClass. */
export function validateStorageClass(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const provisioner = object['provisioner'];
  if (typeof provisioner !== 'string' || provisioner === '') errs.push(fieldError.required('provisioner'));
  if (!['Delete', 'Retain'].includes(String(object['reclaimPolicy']))) errs.push(fieldError.notSupported('reclaimPolicy', object['reclaimPolicy'], ['Delete', 'Retain']));
  if (!['Immediate', 'WaitForFirstConsumer'].includes(String(object['volumeBindingMode']))) {
    errs.push(fieldError.notSupported('volumeBindingMode', object['volumeBindingMode'], ['Immediate', 'WaitForFirstConsumer']));
  }
  return errs;
}

/** ValidateStorageClassUpdate. */
function validateStorageClassUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateStorageClass(object);
  if (!sameJson(object['parameters'], old['parameters'])) errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (object['provisioner'] !== old['provisioner']) errs.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (object['reclaimPolicy'] !== old['reclaimPolicy']) errs.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (object['volumeBindingMode'] !== old['volumeBindingMode']) errs.push(fieldError.invalid('volumeBindingMode', object['volumeBindingMode'], 'field is immutable'));
  return errs;
}

/** The storageclass strategy. */
export function storageClassStrategy(): Strategy {
  return defineStrategy({
    prepareForCreate: defaultStorageClass,
    prepareForUpdate: defaultStorageClass,
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  });
}
