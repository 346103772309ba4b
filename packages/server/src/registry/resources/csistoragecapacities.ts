/**
 * CSIStorageCapacities (pkg/registry/storage/csistoragecapacity): an update must name the resourceVersion it
 * replaces (AllowUnconditionalUpdate false).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The csistoragecapacity strategy. */
export function csiStorageCapacityStrategy(): Strategy {
  return defineStrategy({ allowUnconditionalUpdate: false });
}
