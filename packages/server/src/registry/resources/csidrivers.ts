/**
 * CSIDrivers (pkg/registry/storage/csidriver): an update must name the resourceVersion it replaces
 * (AllowUnconditionalUpdate false).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The csidriver strategy. */
export function csiDriverStrategy(): Strategy {
  return defineStrategy({ allowUnconditionalUpdate: false });
}
