/**
 * The Available condition of APIServices written as the aggregator's controllers write it: through `/status` as
 * the loopback identity, the transition time kept while the status stays.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { availableCondition, type ApiService, type ApiServiceCondition } from './apiservice.js';
import { nowTimestamp } from '../registry/operations/prepare.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDef } from '../registry/resource-def.js';
import type { WriteResult } from '../registry/store.js';
import { loopbackContext } from '../registry/operations/loopback.js';

/** True when the APIService already says this. */
export function sameAvailability(a: ApiService, wanted: ApiServiceCondition): boolean {
  const c = availableCondition(a);
  return c !== undefined && c.status === wanted.status && (c.reason ?? '') === (wanted.reason ?? '') && (c.message ?? '') === (wanted.message ?? '');
}

/** Writes the Available condition of an APIService. */
export function writeAvailability(registry: Registry, def: ResourceDef, current: ApiService, wanted: ApiServiceCondition): Promise<WriteResult> {
  const old = availableCondition(current);
  const time = old !== undefined && old.status === wanted.status && old.lastTransitionTime !== undefined ? old.lastTransitionTime : nowTimestamp();
  const others = (current.status?.conditions ?? []).filter((c) => c.type !== 'Available');
  const next = { ...structuredClone(current), status: { ...(current.status ?? {}), conditions: [...others, { ...wanted, lastTransitionTime: time }] } };
  return updateObject(registry, def, 'status', next as KubeObject, current as KubeObject, loopbackContext(registry.names, 'apiserver'));
}

/** The APIService resource of the registry. */
export function apiServiceResource(registry: Registry): ResourceDef | undefined {
  return registry.lookup(registry.names.group('apiregistration'), 'v1', 'apiservices');
}
