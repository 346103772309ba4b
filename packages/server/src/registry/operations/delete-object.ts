/**
 * Delete in two phases (the generic store's Delete and BeforeDelete): check preconditions, run admission, then
 * either mark the object (`deletionTimestamp`) when finalizers — or the strategy — keep it, or remove it.
 *
 * Garbage collection policy (deletionFinalizersForGarbageCollection): `propagationPolicy: Orphan` (or legacy
 * `orphanDependents: true`) puts the `orphan` finalizer on the object, `Foreground` the `foregroundDeletion`
 * finalizer, `Background` (the default) neither; without an explicit policy, a finalizer already there decides.
 * The garbage collector then orphans or deletes the dependents and removes the finalizer. A repeated delete of an
 * object being deleted only changes those finalizers. Retries on write conflicts.
 */
import { conflict, type KubeObject, type Status } from '@svc-apiserver/api';
import type { Outcome } from '../../http/context.js';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import { admissionAttributes, type OperationContext } from './admission-attributes.js';
import { nowTimestamp } from './prepare.js';
import { afterRemove } from './write-hooks.js';

/** DeleteOptions.preconditions. */
export interface DeletePreconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** DeleteOptions.propagationPolicy. */
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** How dependents are treated (DeleteOptions.propagationPolicy or the legacy orphanDependents). */
export interface Propagation {
  readonly propagationPolicy?: PropagationPolicy;
  readonly orphanDependents?: boolean;
}

/** metav1.FinalizerOrphanDependents. */
export const orphanFinalizer = 'orphan';
/** metav1.FinalizerDeleteDependents. */
export const foregroundFinalizer = 'foregroundDeletion';

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

/** shouldOrphanDependents / shouldDeleteDependents: which garbage-collection finalizer the object should carry. */
export function finalizersForPropagation(finalizers: readonly string[], p: Propagation): string[] {
  let orphan: boolean;
  let foreground: boolean;
  if (p.orphanDependents !== undefined) {
    orphan = p.orphanDependents;
    foreground = false;
  } else if (p.propagationPolicy !== undefined) {
    orphan = p.propagationPolicy === 'Orphan';
    foreground = p.propagationPolicy === 'Foreground';
  } else {
    const first = finalizers.find((f) => f === orphanFinalizer || f === foregroundFinalizer);
    orphan = first === orphanFinalizer;
    foreground = first === foregroundFinalizer;
  }
  const out = finalizers.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (orphan) out.push(orphanFinalizer);
  if (foreground) out.push(foregroundFinalizer);
  return out;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/** Deletes one object. */
export async function deleteObject(
  registry: Registry, def: ResourceDef, namespace: string, name: string, ctx: OperationContext,
  preconditions?: DeletePreconditions, propagation: Propagation = {},
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
    const meta = (marked.metadata ??= {});
    const before = meta.finalizers ?? [];
    const after = finalizersForPropagation(before, propagation);
    if (!sameSet(before, after)) meta.finalizers = after;
    const held = def.strategy.holdOnDelete?.(marked) ?? false;
    const pending = held || (meta.finalizers ?? []).length > 0;
    if (pending) {
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
    if (removed.ok) {
      await afterRemove(def, removed.value, ctx.dryRun);
      return { ok: true, value: { object: removed.value, removed: true } };
    }
    if (removed.conflict) continue;
    return removed;
  }
}
