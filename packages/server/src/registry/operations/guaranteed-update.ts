/**
 * The registry's one read-modify-write loop (the storage layer's GuaranteedUpdate, with the retry the handlers
 * need around it): read the object, check the preconditions, let the caller compute and write the next state, and
 * when the compare-and-swap loses to another writer, read again and start over. Every update, patch, delete and
 * subresource write goes through it, with one bound on the attempts.
 */
import { fail, type KubeObject, type Result, type Status } from '@svc-apiserver/api';
import type { Registry } from '../registry.js';
import type { ResourceDef } from '../resource-def.js';
import type { WriteFailure, WriteResult } from '../store.js';
import { preconditionFailure, type Preconditions } from './preconditions.js';

/**
 * Attempts one write makes before it answers the last conflict (409, "the object has been modified; please apply
 * your changes to the latest version and try again"). Kube's storage loop has no bound; a bound keeps a request on
 * a key that many writers fight over from running forever, and each attempt needs another writer to have won.
 */
export const maxWriteAttempts = 16;

/** A failure that is final for a write attempt: reading again would not change the answer. */
export function final(status: Status): WriteFailure {
  return { ok: false, error: status, conflict: false };
}

/**
 * Runs `attempt` until it succeeds, fails for good, or has lost {@link maxWriteAttempts} compare-and-swaps
 * (retry.RetryOnConflict's shape, for writes whose read is more than one object, such as an eviction's budgets).
 */
export async function retryOnConflict<T>(attempt: () => Promise<WriteResult<T>>): Promise<Result<T>> {
  for (let n = 1; ; n++) {
    const result = await attempt();
    if (result.ok) return result;
    if (!result.conflict || n >= maxWriteAttempts) return fail(result.error);
  }
}

/** The object a guarded write is about, and what it must be. */
export interface GuardedWrite {
  readonly namespace: string;
  readonly name: string;
  readonly preconditions?: Preconditions;
  /**
   * A missing object is handed to the write as `undefined` (an update or an apply that may create it) instead of
   * answering 404.
   */
  readonly ignoreNotFound?: boolean;
}

/**
 * GuaranteedUpdate: reads the object, checks the preconditions against it (409 Conflict), then runs `tryUpdate`
 * with it; a result marked `conflict` reads again and retries (see {@link retryOnConflict}). A missing object
 * answers 404 unless `ignoreNotFound` hands it to `tryUpdate` as `undefined`.
 */
export function guaranteedUpdate<T>(
  registry: Registry, def: ResourceDef, write: GuardedWrite & { readonly ignoreNotFound?: false },
  tryUpdate: (current: KubeObject) => Promise<WriteResult<T>>,
): Promise<Result<T>>;
export function guaranteedUpdate<T>(
  registry: Registry, def: ResourceDef, write: GuardedWrite, tryUpdate: (current: KubeObject | undefined) => Promise<WriteResult<T>>,
): Promise<Result<T>>;
export function guaranteedUpdate<T>(
  registry: Registry, def: ResourceDef, write: GuardedWrite, tryUpdate: (current: KubeObject) => Promise<WriteResult<T>>,
): Promise<Result<T>> {
  return retryOnConflict(async () => {
    const got = await registry.store.get(def, write.namespace, write.name);
    if (!got.ok && !(got.error.code === 404 && write.ignoreNotFound === true)) return { ...got, conflict: false };
    const current = got.ok ? got.value : undefined;
    const failed = preconditionFailure(def, write.name, current, write.preconditions);
    if (failed !== undefined) return { ok: false, error: failed, conflict: false };
    // Undefined only where the caller asked for it (ignoreNotFound), by the overloads above.
    return tryUpdate(current as KubeObject);
  });
}
