/**
 * update (PUT on a named resource, its `status` or `finalize` subresource): options → decode → field validation
 * (unknown and duplicate fields) → name and namespace must match the URL → read current → a missing object is
 * created where the strategy allows it (201) → `metadata.uid`, when sent, must be the stored one (409) →
 * optimistic concurrency (409 on a stale resourceVersion; without one, an unconditional update where the type
 * allows it) → managed fields (an Update, per subresource) → mutating admission → strategy prepare + validate →
 * validating admission → compare-and-swap write (none on a dry run), retried when the client sent no
 * resourceVersion.
 */
import { conflict, optimisticLockMessage, type KubeObject } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { createObject } from '../../registry/operations/create-object.js';
import { trackUpdate } from '../../registry/operations/field-management.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { objectMediaTypes } from './create.js';
import { checkSchema } from './schema-check.js';
import {
  checkNameMatches, checkTypeMeta, parseWriteOptions, reconcileNamespace, requestNamespace, sendWarnings,
} from './request-options.js';

/** Serves an update. */
export async function handleUpdate(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const options = parseWriteOptions(ctx.query, ctx.names, 'UpdateOptions', ctx.headers['user-agent']);
  if (!options.ok) return ctx.writeStatus(options.status);
  const { dryRun, fieldValidation, fieldManager } = options.value;
  const decoded = await ctx.decodeBody(objectMediaTypes);
  if (!decoded.ok) return ctx.writeStatus(decoded.status);
  const body = decoded.value.object;
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  const subresource = ctx.info.subresource;
  for (const step of [
    () => checkTypeMeta(def, body),
    () => checkSchema(ctx, registry, def, body, fieldValidation, decoded.value.duplicateFields),
    () => checkNameMatches(body, name, namespace),
    () => reconcileNamespace(def, body, namespace),
  ]) {
    const checked = step();
    if (!checked.ok) return ctx.writeStatus(checked.status);
  }
  const op = { user: ctx.user, dryRun: dryRun };
  const requestedVersion = body.metadata?.resourceVersion ?? '';
  const requestedUid = body.metadata?.uid ?? '';
  for (;;) {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok) {
      if (got.status.code !== 404 || subresource !== '' || !def.strategy.allowCreateOnUpdate) return ctx.writeStatus(got.status);
      const created = await createObject(registry, def, trackUpdate(def, '', undefined, structuredClone(body), fieldManager), op);
      if (!created.ok && created.status.reason === 'AlreadyExists') continue;
      if (!created.ok) return ctx.writeStatus(created.status);
      sendWarnings(ctx, def.strategy.warnings(created.value));
      return ctx.writeObject(201, created.value);
    }
    const current = got.value;
    const currentUid = current.metadata?.uid ?? '';
    if (requestedUid !== '' && requestedUid !== currentUid) {
      return ctx.writeStatus(conflict(def.qualified, name, `Precondition failed: UID in precondition: ${requestedUid}, UID in object meta: ${currentUid}`));
    }
    if (requestedVersion !== '' && requestedVersion !== current.metadata?.resourceVersion) {
      return ctx.writeStatus(conflict(def.qualified, name, optimisticLockMessage));
    }
    const next: KubeObject = structuredClone(body);
    const meta = (next.metadata ??= {});
    if (requestedVersion === '' && def.strategy.allowUnconditionalUpdate) meta.resourceVersion = current.metadata?.resourceVersion ?? '';
    const tracked = trackUpdate(def, subresource, current, next, fieldManager);
    const written = await updateObject(registry, def, subresource, tracked, current, op);
    if (!written.ok && written.conflict && requestedVersion === '' && def.strategy.allowUnconditionalUpdate) continue;
    if (!written.ok) return ctx.writeStatus(written.status);
    sendWarnings(ctx, def.strategy.warnings(written.value, current));
    return ctx.writeObject(200, written.value);
  }
}
