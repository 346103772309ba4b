/**
 * get (GET on a named resource, or its `status` subresource: the same object). `resourceVersion` unset is a most
 * recent read (storage), `0` any (the watch cache), another value not older than it (the cache once it has caught
 * up, 504 after a brief wait). Compact JSON is written from the object's serialized bytes.
 */
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { requestNamespace } from './request-options.js';
import { startJsonStream, writeObject, writeStatus } from '../response-writer.js';

/** Serves a get. */
export async function handleGet(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const got = await registry.store.getStored(def, requestNamespace(ctx, def), ctx.info.name, ctx.query.get('resourceVersion') ?? undefined);
  if (!got.ok) return writeStatus(ctx, got.error);
  const stream = startJsonStream(ctx, 200);
  if (stream === undefined) return writeObject(ctx, 200, got.value.copy());
  stream.write(`${got.value.objectJson()}\n`);
  stream.end();
}
