/**
 * Endpoints (pkg/registry/core/endpoint): created by PUT as well.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The endpoints strategy. */
export function endpointsStrategy(): Strategy {
  return defineStrategy({ allowCreateOnUpdate: true });
}
