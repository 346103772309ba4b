/**
 * CSINodes (pkg/registry/storage/csinode): an update must name the resourceVersion it replaces
 * (AllowUnconditionalUpdate false).
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The csinode strategy. */
export function csiNodeStrategy(): Strategy {
  return defineStrategy({ allowUnconditionalUpdate: false });
}
