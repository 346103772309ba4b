/**
 * The guards of a write on a stored object, as pure checks: the preconditions a client states
 * (k8s.io/apiserver storage.Preconditions — DeleteOptions.preconditions, the uid of an updated body, the uid and
 * resourceVersion of a Binding) and the generic store's optimistic lock (a resourceVersion sent with the new
 * state must be the stored one). Every failure is 409 Conflict in kube's words.
 */
import { conflict, optimisticLockMessage, type KubeObject, type Status } from '@svc-apiserver/api';
import type { ResourceDef } from '../resource-def.js';

/** storage.Preconditions: what the stored object must be for the write to go ahead. */
export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/**
 * Preconditions.Check against the stored object (`undefined`: nothing is stored, which has no uid and no
 * resourceVersion, as the storage layer's zero object of an update that may create).
 */
export function preconditionFailure(
  def: ResourceDef, name: string, current: KubeObject | undefined, preconditions: Preconditions | undefined,
): Status | undefined {
  const meta = current?.metadata ?? {};
  if (preconditions?.uid !== undefined && preconditions.uid !== (meta.uid ?? '')) {
    return conflict(def.qualified, name, `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (preconditions?.resourceVersion !== undefined && preconditions.resourceVersion !== (meta.resourceVersion ?? '')) {
    return conflict(def.qualified, name,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
  }
  return undefined;
}

/**
 * The generic store's optimistic lock (Store.Update's resourceVersion comparison): `requested` — the
 * resourceVersion a client sent with the new state, `''` for none — must be the stored object's.
 */
export function optimisticLockFailure(def: ResourceDef, name: string, requested: string, current: KubeObject): Status | undefined {
  if (requested === '' || requested === (current.metadata?.resourceVersion ?? '')) return undefined;
  return conflict(def.qualified, name, optimisticLockMessage);
}
