/**
 * PersistentVolumes (pkg/registry/core/persistentvolume): cluster-scoped, status subresource, phase Pending on
 * create, `spec.persistentVolumeReclaimPolicy` defaulted to `Retain` and `spec.volumeMode` to `Filesystem`
 * (SetDefaults_PersistentVolume); the reclaim policy must be Retain, Delete or Recycle.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { setDefault, specOf } from './pod-spec.js';

const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];

/** SetDefaults_PersistentVolume. */
export function defaultPersistentVolume(object: KubeObject): void {
  const spec = specOf(object);
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
}

function validatePersistentVolume(object: KubeObject): FieldError[] {
  const policy = specOf(object)['persistentVolumeReclaimPolicy'];
  return reclaimPolicies.includes(String(policy)) ? [] : [fieldError.notSupported('spec.persistentVolumeReclaimPolicy', policy, reclaimPolicies)];
}

/** The persistentvolume strategy. */
export function persistentVolumeStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate: (object) => {
      defaultPersistentVolume(object);
      object.status = { phase: 'Pending' };
    },
    prepareForUpdate: defaultPersistentVolume,
    validate: validatePersistentVolume,
    validateUpdate: validatePersistentVolume,
  });
}
