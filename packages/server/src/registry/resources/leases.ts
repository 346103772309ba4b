/**
 * Leases (pkg/registry/coordination/lease): created by PUT as well.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The lease strategy. */
export function leaseStrategy(): Strategy {
  return defineStrategy({ allowCreateOnUpdate: true });
}
