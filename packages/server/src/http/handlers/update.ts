/**
 * update (PUT on a named resource, its `status` or `finalize` subresource): decode → field validation → name and
 * namespace must match the URL → read current → (create-on-update where the strategy allows it: 201) →
 * optimistic concurrency (409 on a stale resourceVersion) → mutating admission → strategy prepare + validate →
 * validating admission → compare-and-swap write, retried when the client sent no resourceVersion.
 */
import { conflict, optimisticLockMessage, type KubeObject } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { createObject } from '../../registry/operations/create-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { objectMediaTypes } from './create.js';
import { checkSchema } from './schema-check.js';
import {
  checkNameMatches, checkTypeMeta, parseWriteOptions, reconcileNamespace, requestNamespace, sendWarnings,
} from './request-options.js';

/** Serves an update. */
export async function handleUpdate(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const options = parseWriteOptions(ctx.query);
  if (!options.ok) return ctx.writeStatus(options.status);
  const { dryRun, fieldValidation } = options.value;
  const decoded = await ctx.decodeBody(objectMediaTypes);
  if (!decoded.ok) return ctx.writeStatus(decoded.status);
  const body = decoded.value.object;
  const namespace = requestNamespace(ctx, def);
  const name = ctx.info.name;
  const subresource = ctx.info.subresource;
  for (const step of [
    () => checkTypeMeta(def, body),
    () => checkSchema(ctx, registry, def, body, fieldValidation),
    () => checkNameMatches(body, name, namespace),
    () => reconcileNamespace(def, body, namespace),
  ]) {
    const checked = step();
    if (!checked.ok) return ctx.writeStatus(checked.status);
  }
  const op = { user: ctx.user, dryRun: dryRun };
  const requestedVersion = body.metadata?.resourceVersion ?? '';
  for (;;) {
    const got = await registry.store.get(def, namespace, name);
    if (!got.ok) {
      if (got.status.code !== 404 || subresource !== '' || !def.strategy.allowCreateOnUpdate) return ctx.writeStatus(got.status);
      const created = await createObject(registry, def, structuredClone(body), op);
      if (!created.ok && created.status.reason === 'AlreadyExists') continue;
      if (!created.ok) return ctx.writeStatus(created.status);
      sendWarnings(ctx, def.strategy.warnings(created.value));
      return ctx.writeObject(201, created.value);
    }
    const current = got.value;
    if (requestedVersion !== '' && requestedVersion !== current.metadata?.resourceVersion) {
      return ctx.writeStatus(conflict(def.qualified, name, optimisticLockMessage));
    }
    const next: KubeObject = structuredClone(body);
    const meta = (next.metadata ??= {});
    if (requestedVersion === '' && def.strategy.allowUnconditionalUpdate) meta.resourceVersion = current.metadata?.resourceVersion ?? '';
    const written = await updateObject(registry, def, subresource, next, current, op);
    if (!written.ok && written.conflict && requestedVersion === '') continue;
    if (!written.ok) return ctx.writeStatus(written.status);
    sendWarnings(ctx, def.strategy.warnings(written.value, current));
    return ctx.writeObject(200, written.value);
  }
}
