/**
 * Nodes (pkg/registry/core/node): cluster-scoped, status subresource; a create keeps the status the node reports.
 */
import { defineStrategy, fieldsAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The node strategy. */
export function nodeStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, clearStatusOnCreate: false, selectableFields: fieldsAt('spec.unschedulable') });
}
