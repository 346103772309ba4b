/**
 * get (GET on a named resource, or its `status` subresource: the same object). `resourceVersion` unset is a most
 * recent read (the watch cache once it has caught up with storage's current revision, else storage), `0` any (the
 * watch cache), another value not older than it (the cache once it has caught up, 504 after a brief wait). Compact
 * JSON is written from the object's serialized bytes, with its length.
 */
import type { RequestContext } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { requestNamespace } from './request-options.js';
import { writeBytes, writeObject, writesCompactJson, writeStatus } from '../response-writer.js';

const newline = Buffer.from('\n');

/** Serves a get. */
export async function handleGet(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const got = await registry.store.getStored(def, requestNamespace(ctx, def), ctx.info.name, ctx.query.get('resourceVersion') ?? undefined);
  if (!got.ok) return writeStatus(ctx, got.error);
  if (!writesCompactJson(ctx)) return writeObject(ctx, 200, got.value.copy());
  // One buffer with its length: the headers and the body leave in one write.
  writeBytes(ctx, 200, 'application/json', got.value.objectBytes(undefined, newline));
}
