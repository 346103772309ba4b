/**
 * Delete in two phases (the generic store's Delete and BeforeDelete): check preconditions, run admission, then
 * either mark the object (`deletionTimestamp`) when finalizers — or the strategy — keep it, or remove it. A second
 * delete of an object being deleted changes nothing. Retries on write conflicts.
 */
import { conflict, type KubeObject, type Status } from '@svc-apiserver/api';
import type { Outcome } from '../../http/context.js';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import { admissionAttributes, type OperationContext } from './admission-attributes.js';
import { nowTimestamp } from './prepare.js';

/** DeleteOptions.preconditions. */
export interface DeletePreconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** The outcome of a delete: the object as it now is (marked) or as it was (removed). */
export interface DeleteResult {
  readonly object: KubeObject;
  /** True when the object is gone from storage. */
  readonly removed: boolean;
}

function preconditionFailure(def: ResourceDef, current: KubeObject, pre: DeletePreconditions | undefined): Status | undefined {
  const meta = current.metadata ?? {};
  const name = meta.name ?? '';
  if (pre?.uid !== undefined && pre.uid !== meta.uid) {
    return conflict(def.qualified, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    return conflict(def.qualified, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
  }
  return undefined;
}

/** Deletes one object. */
export async function deleteObject(
  registry: Registry, def: ResourceDef, namespace: string, name: string, ctx: OperationContext,
  preconditions?: DeletePreconditions,
): Promise<Outcome<DeleteResult>> {
  for (;;) {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok) return got;
    const current = got.value;
    const failed = preconditionFailure(def, current, preconditions);
    if (failed !== undefined) return { ok: false, status: failed };
    const attrs = admissionAttributes(def, 'DELETE', '', namespace, name, ctx, undefined, current);
    const admitted = await registry.admission.admit(attrs);
    if (!admitted.allowed) return { ok: false, status: admitted.status };
    const validated = await registry.admission.validate(attrs);
    if (!validated.allowed) return { ok: false, status: validated.status };

    const marked = structuredClone(current);
    const held = def.strategy.holdOnDelete?.(marked) ?? false;
    const pending = held || (marked.metadata?.finalizers ?? []).length > 0;
    if (pending) {
      const meta = (marked.metadata ??= {});
      if (meta.deletionTimestamp === undefined) {
        meta.deletionTimestamp = nowTimestamp();
        meta.deletionGracePeriodSeconds = 0;
      }
      if (JSON.stringify(marked) === JSON.stringify(current)) return { ok: true, value: { object: current, removed: false } };
      const written = await registry.store.update(def, marked, { dryRun: ctx.dryRun });
      if (written.ok) return { ok: true, value: { object: written.value, removed: false } };
      if (written.conflict) continue;
      return written;
    }
    const removed = await registry.store.remove(def, current, { dryRun: ctx.dryRun });
    if (removed.ok) return { ok: true, value: { object: removed.value, removed: true } };
    if (removed.conflict) continue;
    return removed;
  }
}
