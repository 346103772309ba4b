/**
 * LimitRanges (pkg/registry/core/limitrange): created by PUT as well.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The limitrange strategy. */
export function limitRangeStrategy(): Strategy {
  return defineStrategy({ allowCreateOnUpdate: true });
}
