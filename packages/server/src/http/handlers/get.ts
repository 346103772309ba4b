/**
 * get (GET on a named resource, or its `status` subresource: the same object). `resourceVersion` unset is a most
 * recent read, `0` any, another value not older than it.
 */
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { requestNamespace } from './request-options.js';

/** Serves a get. */
export async function handleGet(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const got = await registry.store.get(def, requestNamespace(ctx, def), ctx.info.name, ctx.query.get('resourceVersion') ?? undefined);
  if (!got.ok) return ctx.writeStatus(got.status);
  ctx.writeObject(200, got.value);
}
