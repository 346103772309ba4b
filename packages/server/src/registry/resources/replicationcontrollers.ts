/**
 * ReplicationControllers (pkg/registry/core/replicationcontroller): status subresource, generation tracks spec changes.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The field selector set (ControllerToSelectableFields): `status.replicas` as Go prints an int (0 when unset). */
function rcFields(object: KubeObject): Record<string, string> {
  const replicas = (object.status as { replicas?: unknown } | undefined)?.replicas;
  return { 'status.replicas': String(typeof replicas === 'number' ? replicas : 0) };
}

/** The replicationcontroller strategy. */
export function replicationControllerStrategy(): Strategy {
  return defineStrategy({ hasStatus: true, tracksGeneration: true, returnDeletedObject: true, selectableFields: rcFields });
}
