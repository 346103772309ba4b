/**
 * Field management for the registry's writes: the field-manager scope of a resource's endpoint (its schema, served
 * apiVersion, subresource and whether it has a status subresource) and the `Update` step every non-apply write
 * takes before admission (kube's fieldmanager UpdateNoErrors in the handlers' object transformers).
 */
import { apiVersionOf, type KubeObject } from '@svc-apiserver/api';
import { updateManagedFieldsSteps, type FieldManagerScope, type ManagedObject } from '../../apply/field-manager.js';
import { runStepsYielding } from '../../limits/turn-budget.js';
import { patchSchemaOf } from '../../patch/patch-schema-of.js';
import type { ResourceDef } from '../resource-def.js';
import type { OperationContext } from './admission-attributes.js';
import { applyKindDefaults } from './defaulting.js';
import { nowTimestamp } from './prepare.js';

/** The field-manager scope of `def` written through `subresource` (`''` for the resource itself). */
export function fieldManagerScope(def: ResourceDef, subresource: string): FieldManagerScope {
  return {
    schema: patchSchemaOf(def),
    apiVersion: apiVersionOf(def.group, def.version),
    subresource,
    hasStatus: def.subresources.some((s) => s.name === 'status'),
    typed: def.custom === undefined,
    now: nowTimestamp,
  };
}

/**
 * `next` with managedFields updated for `manager` (an Update); `live` undefined for a create. In steps: an object of
 * many keys must not hold the event loop for the whole comparison.
 */
export async function trackUpdate(def: ResourceDef, subresource: string, live: KubeObject | undefined, next: KubeObject, manager: string): Promise<KubeObject> {
  const steps = updateManagedFieldsSteps(live as ManagedObject | undefined, next as ManagedObject, manager, fieldManagerScope(def, subresource));
  return (await runStepsYielding(steps)) as KubeObject;
}

/**
 * A write the server makes itself (its context names a field manager): `next` defaulted, as kube's codec defaults
 * what a loopback or controller-manager client sends, then tracked for that manager. Else `next` as it is (a
 * request's handler has done both).
 */
export function trackForContext(def: ResourceDef, subresource: string, live: KubeObject | undefined, next: KubeObject, ctx: OperationContext): Promise<KubeObject> | KubeObject {
  if (ctx.fieldManager === undefined) return next;
  applyKindDefaults(def, next);
  return trackUpdate(def, subresource, live, next, ctx.fieldManager);
}
