/**
 * ResourceQuotas (pkg/registry/core/resourcequota): status subresource; a create drops the status.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The resourcequota strategy. */
export function resourceQuotaStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, returnDeletedObject: true });
}
