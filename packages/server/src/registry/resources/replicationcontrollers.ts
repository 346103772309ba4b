/**
 * ReplicationControllers (pkg/registry/core/replicationcontroller): status subresource, generation tracks spec changes.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The replicationcontroller strategy. */
export function replicationControllerStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, tracksGeneration: true, returnDeletedObject: true });
}
