/**
 * deletecollection (DELETE on a collection): the objects a list with the same selectors, `limit` and `continue`
 * would return are each deleted as a delete would (admission, preconditions-free, the propagation policy,
 * finalizers; nothing stored on a dry run); the answer is that list as it was read (kube's
 * Store.DeleteCollection), so a client pages through with its `continue` token.
 */
import { badRequest } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import { parseSelection } from '../../registry/selection.js';
import { readDeleteOptions } from './delete-options.js';
import { propagationOf } from './delete.js';
import { parseListQuery, requestNamespace } from './request-options.js';
import { requestRecorder } from '../../admission/recorder.js';
import { addWarning, writeObject, writeStatus } from '../response-writer.js';

/** Serves a deletecollection. */
export async function handleDeleteCollection(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const selection = parseSelection(def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  if (!selection.ok) return writeStatus(ctx, selection.error);
  const listOptions = parseListQuery(ctx.query);
  if (!listOptions.ok) return writeStatus(ctx, listOptions.error);
  const limit = listOptions.value.limit;
  const options = await readDeleteOptions(ctx);
  if (!options.ok) return writeStatus(ctx, options.error);
  const cont = ctx.query.get('continue') ?? '';
  const listed = await registry.store.list(def, {
    namespace: requestNamespace(ctx, def), selection: selection.value,
    ...(limit !== 0 ? { limit } : {}),
    ...(cont !== '' ? { continue: cont } : {}),
  });
  if (!listed.ok) return writeStatus(ctx, listed.error);
  const op = { user: ctx.user, dryRun: options.value.dryRun, recorder: requestRecorder((t) => addWarning(ctx, t), ctx.record.annotations, ctx.record.latency) };
  const propagation = propagationOf(options.value);
  for (const item of listed.value.items) {
    const result = await deleteObject(registry, def, item.metadata?.namespace ?? '', item.metadata?.name ?? '', op, undefined, propagation, options.value.gracePeriodSeconds);
    if (!result.ok && result.error.code !== 404) return writeStatus(ctx, result.error);
  }
  writeObject(ctx, 200, listed.value);
}
