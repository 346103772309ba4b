/**
 * delete (DELETE on a named resource): DeleteOptions (body or query) → preconditions (409) → admission → two-phase
 * delete with the garbage-collection finalizers of the propagation policy (see
 * registry/operations/delete-object.ts; nothing stored on a dry run). 200 with the object when it stays for
 * finalizers or a grace period (pods bound to a node: 200 with `deletionTimestamp` and `deletionGracePeriodSeconds`;
 * 202 when the client asked for cascading deletion with `orphanDependents: false`, as kube does); when
 * removed, 200 with the object for resources that return it, else a Success Status naming it.
 */
import { forbidden, success } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { deleteObject, type Propagation } from '../../registry/operations/delete-object.js';
import { readDeleteOptions, type DeleteOptions } from './delete-options.js';
import { requestNamespace } from './request-options.js';
import { requestRecorder } from '../../admission/recorder.js';
import { addWarning, writeObject, writeStatus } from '../response-writer.js';

/** Serves a delete. */
export async function handleDelete(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const refused = def.strategy.refuseDelete?.(ctx.info.name);
  if (refused !== undefined) return writeStatus(ctx, forbidden({ group: def.group, resource: def.resource }, ctx.info.name, refused));
  const options = await readDeleteOptions(ctx);
  if (!options.ok) return writeStatus(ctx, options.error);
  const result = await deleteObject(
    registry, def, requestNamespace(ctx, def), ctx.info.name, { user: ctx.user, dryRun: options.value.dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) }, options.value.preconditions,
    propagationOf(options.value), options.value.gracePeriodSeconds,
  );
  if (!result.ok) return writeStatus(ctx, result.error);
  const { object, removed } = result.value;
  if (!removed) return writeObject(ctx, options.value.orphanDependents === false ? 202 : 200, object);
  if (def.strategy.returnDeletedObject) return writeObject(ctx, 200, object);
  writeStatus(ctx, success({
    name: object.metadata?.name ?? '', ...(def.group ? { group: def.group } : {}), kind: def.resource, ...(object.metadata?.uid ? { uid: object.metadata.uid } : {}),
  }));
}

/** The propagation settings of a delete's options. */
export function propagationOf(options: DeleteOptions): Propagation {
  return {
    ...(options.propagationPolicy !== undefined ? { propagationPolicy: options.propagationPolicy } : {}),
    ...(options.orphanDependents !== undefined ? { orphanDependents: options.orphanDependents } : {}),
  };
}
