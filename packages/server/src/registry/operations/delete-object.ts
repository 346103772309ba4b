/**
 * Delete in two phases (the generic store's Delete and BeforeDelete): check preconditions, run admission, then
 * either mark the object (`deletionTimestamp`) when finalizers — or the strategy — keep it, or remove it.
 *
 * Garbage collection policy (deletionFinalizersForGarbageCollection): `propagationPolicy: Orphan` (or legacy
 * `orphanDependents: true`) puts the `orphan` finalizer on the object, `Foreground` the `foregroundDeletion`
 * finalizer, `Background` (the default) neither; without an explicit policy, a finalizer already there decides.
 * The garbage collector then orphans or deletes the dependents and removes the finalizer. A repeated delete of an
 * object being deleted only changes those finalizers. Runs in the guarded write loop (guaranteed-update.ts):
 * preconditions are checked on every read, and a lost compare-and-swap reads again.
 *
 * Marking an object (markAsDeleting) moves its `generation`, as a graceful deletion does.
 *
 * Graceful deletion (rest.BeforeDelete with the strategy's CheckGracefulDelete; pods only, as in kube): the
 * strategy picks the grace period; above 0 the object gets `deletionTimestamp` = now + grace and
 * `deletionGracePeriodSeconds` and stays (the node agent finishes the deletion); 0 marks it and removes it at once
 * (unless finalizers keep it). A later delete of an object in its grace period may only shorten it (the deadline
 * moves by the difference); an equal or longer one, or none, changes nothing and answers the object as it is.
 */
import { ok, type KubeObject, type Result } from '@svc-apiserver/api';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import type { WriteResult } from '../store.js';
import { admissionAttributes, runAdmission, type OperationContext } from './admission-attributes.js';
import { final, guaranteedUpdate } from './guaranteed-update.js';
import type { Preconditions } from './preconditions.js';
import { nowTimestamp } from './prepare.js';
import { afterRemove } from './write-hooks.js';

/** DeleteOptions.preconditions. */
export type DeletePreconditions = Preconditions;

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

/** RFC 3339 (seconds) of a time in milliseconds, as `metav1.Time` serializes. */
function timestampAt(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The outcome of {@link beforeDelete}. */
export interface GracefulDecision {
  /** The object was marked for a graceful deletion (in `object`); `period` is its grace period. */
  readonly graceful: boolean;
  /** A graceful deletion is already under way and this delete does not shorten it: nothing changes. */
  readonly pending: boolean;
  readonly period: number;
}

/**
 * rest.BeforeDelete's graceful part, on a copy of the stored object (changed in place): negative grace periods
 * count as 1 s; an object already being deleted with a grace period may only have it shortened; otherwise the
 * strategy's grace period sets `deletionTimestamp` and `deletionGracePeriodSeconds` (and bumps `generation`).
 */
export function beforeDelete(def: ResourceDef, object: KubeObject, requested: number | undefined, nowMs = Date.now()): GracefulDecision {
  const gracePeriodFor = def.strategy.gracePeriodFor;
  const none = { graceful: false, pending: false, period: 0 };
  if (gracePeriodFor === undefined) return none;
  const grace = requested !== undefined && requested < 0 ? 1 : requested;
  const meta = (object.metadata ??= {});
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  if (meta.deletionTimestamp !== undefined) {
    const current = meta.deletionGracePeriodSeconds;
    // Marked without a grace period (finalizers) or with 0: nothing graceful is left to wait for.
    if (current === undefined || current === 0) return none;
    if (grace === undefined || grace >= current) return { graceful: false, pending: true, period: current };
    const deadline = Date.parse(meta.deletionTimestamp) - current * 1000 + grace * 1000;
    meta.deletionTimestamp = timestampAt(deadline);
    meta.deletionGracePeriodSeconds = grace;
    return { graceful: true, pending: false, period: grace };
  }
  const period = gracePeriodFor(object, grace);
  meta.deletionTimestamp = timestampAt(nowMs + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  if (meta.generation !== undefined && meta.generation > 0) meta.generation += 1;
  return { graceful: true, pending: false, period };
}

/**
 * Deletes one object. `gracePeriodSeconds` is DeleteOptions.gracePeriodSeconds (undefined: the object's default);
 * it matters only for resources with graceful deletion.
 */
export async function deleteObject(
  registry: Registry, def: ResourceDef, namespace: string, name: string, ctx: OperationContext,
  preconditions?: DeletePreconditions, propagation: Propagation = {}, gracePeriodSeconds?: number,
): Promise<Result<DeleteResult>> {
  const guarded = { namespace, name, ...(preconditions !== undefined ? { preconditions } : {}) };
  return guaranteedUpdate(registry, def, guarded, async (current) => {
    const attrs = admissionAttributes(def, 'DELETE', '', namespace, name, ctx, undefined, current);
    const refused = await runAdmission(registry, 'admit', attrs, ctx) ?? await runAdmission(registry, 'validate', attrs, ctx);
    if (refused !== undefined) return final(refused);

    const marked = structuredClone(current);
    const grace = beforeDelete(def, marked, gracePeriodSeconds);
    // kube: finalizers cannot be changed by a delete while a graceful deletion is pending.
    if (grace.pending) return ok({ object: current, removed: false });
    const meta = (marked.metadata ??= {});
    const before = meta.finalizers ?? [];
    const after = finalizersForPropagation(before, propagation);
    if (!sameSet(before, after)) meta.finalizers = after;
    const held = def.strategy.holdOnDelete?.(marked) ?? false;
    const finalizing = held || (meta.finalizers ?? []).length > 0;
    if (!grace.graceful && !finalizing) return remove(registry, def, current, ctx);
    if (meta.deletionTimestamp === undefined) {
      // markAsDeleting: kept by finalizers, a kind without graceful deletion moves its generation as it is marked.
      if (meta.generation !== undefined && meta.generation > 0) meta.generation += 1;
      meta.deletionTimestamp = nowTimestamp();
      meta.deletionGracePeriodSeconds = 0;
    }
    let stored = current;
    if (JSON.stringify(marked) !== JSON.stringify(current)) {
      const written = await registry.store.update(def, marked, { dryRun: ctx.dryRun });
      if (!written.ok) return written;
      stored = written.value;
    }
    // Kept for its finalizers or its grace period; a zero grace period without finalizers removes it now.
    if (finalizing || grace.period > 0) return ok({ object: stored, removed: false });
    const removed = await remove(registry, def, stored, ctx);
    // Another client finished the deletion first (kube tolerates the NotFound here, kubernetes#19403).
    if (!removed.ok && removed.error.code === 404) return ok({ object: stored, removed: true });
    return removed;
  });
}

/** Removes the object from storage (compare-and-swap on its resourceVersion) and runs the hooks' after-remove step. */
async function remove(registry: Registry, def: ResourceDef, object: KubeObject, ctx: OperationContext): Promise<WriteResult<DeleteResult>> {
  const removed = await registry.store.remove(def, object, { dryRun: ctx.dryRun });
  if (!removed.ok) return removed;
  await afterRemove(def, removed.value, ctx.dryRun);
  return ok({ object: removed.value, removed: true });
}
