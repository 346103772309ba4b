/**
 * Nodes (pkg/registry/core/node): cluster-scoped, status subresource; a create keeps the status the node reports.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The node's field selector set: `spec.unschedulable` as Go prints a bool (false when unset). */
function nodeFields(object: KubeObject): Record<string, string> {
  return { 'spec.unschedulable': String((object.spec as { unschedulable?: unknown } | undefined)?.unschedulable === true) };
}

/** The node strategy. */
export function nodeStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, clearStatusOnCreate: false, selectableFields: nodeFields });
}
