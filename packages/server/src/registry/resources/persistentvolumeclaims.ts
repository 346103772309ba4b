/**
 * PersistentVolumeClaims (pkg/registry/core/persistentvolumeclaim): status subresource, phase Pending on create,
 * `spec.volumeMode` defaulted to `Filesystem` (SetDefaults_PersistentVolumeClaimSpec).
 */
import type { KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { setDefault, specOf } from './pod-spec.js';

/** SetDefaults_PersistentVolumeClaim. */
export function defaultPersistentVolumeClaim(object: KubeObject): void {
  setDefault(specOf(object), 'volumeMode', 'Filesystem');
}

/** The persistentvolumeclaim strategy. */
export function persistentVolumeClaimStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate: (object) => {
      defaultPersistentVolumeClaim(object);
      object.status = { phase: 'Pending' };
    },
    prepareForUpdate: defaultPersistentVolumeClaim,
  });
}
