/**
 * One attempt at an update (the body of kube's GuaranteedUpdate loop for PUT, PATCH and subresource writes; the loop
 * is guaranteed-update.ts): mutating admission → strategy prepare + validate → validating admission →
 * compare-and-swap write. A write that changes nothing is skipped (the resourceVersion stays). An update that
 * removes the last finalizer of an object being deleted removes it.
 *
 * Through the `scale` subresource admission sees Scales (kube's ScaleREST converts the workload to a Scale and
 * back around the handler's admission): a mutating plugin's change to the Scale's replicas reaches the workload.
 */
import { ok, type KubeObject } from '@svc-apiserver/api';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import type { WriteResult } from '../store.js';
import { admissionAttributes, runAdmission, type OperationContext } from './admission-attributes.js';
import { trackForContext } from './field-management.js';
import { final } from './guaranteed-update.js';
import { beforeUpdateSteps, unchangedSteps } from './prepare.js';
import { scaleOf, withReplicas } from './scale-subresource.js';
import { afterRemove, withWriteHooks } from './write-hooks.js';
import { runStepsYielding, yieldAfter } from '../../limits/turn-budget.js';

/**
 * Updates `current` to `object` (`object.metadata.resourceVersion` must be `current`'s); `conflict` in a failure
 * means `current` is stale and the caller may read again and retry.
 */
export async function updateObject(
  registry: Registry, def: ResourceDef, subresource: string, requested: KubeObject, current: KubeObject, ctx: OperationContext,
): Promise<WriteResult> {
  const object = await trackForContext(def, subresource, current, requested, ctx);
  const namespace = current.metadata?.namespace ?? '';
  const name = current.metadata?.name ?? '';
  const asScale = subresource === 'scale';
  const attrs = (next: KubeObject) => admissionAttributes(def, 'UPDATE', subresource, namespace, name, ctx,
    asScale ? scaleOf(def, next) : next, asScale ? scaleOf(def, current) : current);
  if (subresource === '') {
    const refused = await def.strategy.authorizeWrite?.(object, current, ctx.user);
    if (refused !== undefined) return final(refused);
  }
  const mutating = attrs(object);
  const refused = await runAdmission(registry, 'admit', mutating, ctx);
  if (refused !== undefined) return final(refused);
  const next = asScale ? withReplicas(def, object, mutating.object!) : object;
  // A step over a large object gives the event loop back after it, and validation in steps within it
  // (limits/turn-budget.ts).
  const validating = performance.now();
  const prepared = await runStepsYielding(beforeUpdateSteps(def, subresource, next, current));
  if (!prepared.ok) return final(prepared.error);
  await yieldAfter(validating);
  const invalid = await runAdmission(registry, 'validate', attrs(next), ctx);
  if (invalid !== undefined) return final(invalid);
  if (await runStepsYielding(unchangedSteps(next, current))) return ok(current);
  const written = await withWriteHooks(def, next, ctx.dryRun, () => registry.store.update(def, next, { dryRun: ctx.dryRun }));
  if (!written.ok || !removedByUpdate(def, written.value, current)) return written;
  const removed = await registry.store.remove(def, written.value, { dryRun: ctx.dryRun });
  if (removed.ok) await afterRemove(def, written.value, ctx.dryRun);
  return removed.ok ? ok(written.value) : removed;
}

/** Store.shouldDeleteDuringUpdate: the update took the last finalizer off an object being deleted. */
function removedByUpdate(def: ResourceDef, object: KubeObject, old: KubeObject): boolean {
  if ((object.metadata?.finalizers ?? []).length > 0) return false;
  if ((old.metadata?.finalizers ?? []).length === 0) return false;
  if (object.metadata?.deletionTimestamp === undefined) return false;
  return !(def.strategy.holdOnDelete?.(structuredClone(object)) ?? false);
}
