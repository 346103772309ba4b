/**
 * The status writes of the CRD controllers: an update of `/status` as the server's loopback identity, over the
 * state the controller read (a conflict means a newer state is on its way, and the retry reads it).
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { CustomResourceDefinition } from '../../apiextensions/crd.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import type { WriteResult } from '../../registry/store.js';
import { loopbackContext } from '../../registry/operations/loopback.js';

/** Writes `next` as the status of `current` (a CRD). */
export function updateCrdStatus(
  registry: Registry, def: ResourceDef, next: CustomResourceDefinition, current: CustomResourceDefinition,
): Promise<WriteResult> {
  return updateObject(registry, def, 'status', next as KubeObject, current as KubeObject, loopbackContext(registry.names, 'apiserver'));
}

/** The CRD definition of the registry (`customresourcedefinitions` of apiextensions v1). */
export function crdResource(registry: Registry): ResourceDef | undefined {
  return registry.lookup(registry.names.group('apiextensions'), 'v1', 'customresourcedefinitions');
}
