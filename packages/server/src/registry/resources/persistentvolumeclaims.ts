/**
 * PersistentVolumeClaims (pkg/registry/core/persistentvolumeclaim): status subresource, phase Pending on create.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The persistentvolumeclaim strategy. */
export function persistentVolumeClaimStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, returnDeletedObject: true, prepareForCreate: (object) => { object.status = { phase: 'Pending' }; } });
}
