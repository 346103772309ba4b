/**
 * Runs a resource's {@link WriteHooks} around its storage writes (the generic store's BeginCreate/BeginUpdate with
 * their finish functions, and AfterDelete): claims first, the write, then the claims kept or given back.
 */
import { invalid, type KubeObject, type Result } from '@svc-apiserver/api';
import type { ResourceDef } from '../resource-def.js';
import type { WriteFailure } from '../store.js';
import { final } from './guaranteed-update.js';

/** Runs `write` between the hooks' begin and finish; a begin that finds errors answers 422 without writing. */
export async function withWriteHooks<T extends Result<KubeObject>>(
  def: ResourceDef, object: KubeObject, dryRun: boolean, write: () => Promise<T>,
): Promise<T | WriteFailure> {
  const hooks = def.strategy.writeHooks;
  if (hooks === undefined) return write();
  const begun = await hooks.beginWrite(object, { dryRun });
  if (begun.errors.length > 0) {
    return final(invalid(def.kind, def.qualified, object.metadata?.name ?? '', begun.errors));
  }
  let success = false;
  try {
    const written = await write();
    success = written.ok;
    return written;
  } finally {
    // A claim not given back (the store lost meanwhile) is freed later by the repair pass.
    await begun.finish(success).catch(() => {});
  }
}

/** Runs the hooks' step after an object was removed; a failure leaves a leak the repair pass frees. */
export async function afterRemove(def: ResourceDef, object: KubeObject, dryRun: boolean): Promise<void> {
  await def.strategy.writeHooks?.afterRemove(object, { dryRun }).catch(() => {});
}
