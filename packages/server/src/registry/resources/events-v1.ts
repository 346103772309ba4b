/**
 * events/v1 Events (pkg/registry/core/event served in the events group): created by PUT as well.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The event strategy. */
export function eventV1Strategy(): Strategy {
  return defineStrategy({ allowCreateOnUpdate: true });
}
