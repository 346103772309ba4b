/**
 * PersistentVolumes (pkg/registry/core/persistentvolume): cluster-scoped, status subresource, phase Pending on create.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The persistentvolume strategy. */
export function persistentVolumeStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, returnDeletedObject: true, prepareForCreate: (object) => { object.status = { phase: 'Pending' }; } });
}
