/**
 * One attempt at an update (the body of kube's GuaranteedUpdate loop for PUT, PATCH and subresource writes):
 * mutating admission → strategy prepare + validate → validating admission → compare-and-swap write. A write that
 * changes nothing is skipped (the resourceVersion stays). An update that removes the last finalizer of an object
 * being deleted removes it.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import type { WriteOutcome } from '../store.js';
import { admissionAttributes, type OperationContext } from './admission-attributes.js';
import { beforeUpdate, unchanged } from './prepare.js';
import { afterRemove, withWriteHooks } from './write-hooks.js';

/**
 * Updates `current` to `object` (`object.metadata.resourceVersion` must be `current`'s); `conflict` in a failure
 * means `current` is stale and the caller may read again and retry.
 */
export async function updateObject(
  registry: Registry, def: ResourceDef, subresource: string, object: KubeObject, current: KubeObject, ctx: OperationContext,
): Promise<WriteOutcome> {
  const namespace = current.metadata?.namespace ?? '';
  const name = current.metadata?.name ?? '';
  const attrs = () => admissionAttributes(def, 'UPDATE', subresource, namespace, name, ctx, object, current);
  if (subresource === '') {
    const refused = await def.strategy.authorizeWrite?.(object, current, ctx.user);
    if (refused !== undefined) return { ok: false, status: refused, conflict: false };
  }
  const admitted = await registry.admission.admit(attrs());
  if (!admitted.allowed) return { ok: false, status: admitted.status, conflict: false };
  const prepared = beforeUpdate(def, subresource, object, current);
  if (!prepared.ok) return { ok: false, status: prepared.status, conflict: false };
  const validated = await registry.admission.validate(attrs());
  if (!validated.allowed) return { ok: false, status: validated.status, conflict: false };
  if (unchanged(object, current)) return { ok: true, value: current };
  const written = await withWriteHooks(def, object, ctx.dryRun, () => registry.store.update(def, object, { dryRun: ctx.dryRun }));
  if (!written.ok || !removedByUpdate(def, written.value, current)) return written;
  const removed = await registry.store.remove(def, written.value, { dryRun: ctx.dryRun });
  if (removed.ok) await afterRemove(def, written.value, ctx.dryRun);
  return removed.ok ? { ok: true, value: written.value } : removed;
}

/** Store.shouldDeleteDuringUpdate: the update took the last finalizer off an object being deleted. */
function removedByUpdate(def: ResourceDef, object: KubeObject, old: KubeObject): boolean {
  if ((object.metadata?.finalizers ?? []).length > 0) return false;
  if ((old.metadata?.finalizers ?? []).length === 0) return false;
  if (object.metadata?.deletionTimestamp === undefined) return false;
  return !(def.strategy.holdOnDelete?.(structuredClone(object)) ?? false);
}
