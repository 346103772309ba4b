/**
 * list (GET on a collection): label and field selectors, `limit` + `continue` pages of one snapshot,
 * `resourceVersion` / `resourceVersionMatch` per document 1 (see registry/reader.ts). Compact JSON answers are
 * streamed from each item's serialized bytes (kept by the watch cache), so a large list starts at once and its body
 * is never built whole; protobuf answers likewise from each item's message, encoded once per object version and
 * kept beside it (as kube's cacher keeps an object's serializations); other forms (YAML, pretty JSON, Tables) are
 * encoded as one object.
 */
import { apiVersionOf, badRequest, fail, ok, type Result } from '@svc-apiserver/api';
import type { RequestContext, WatchStream } from '../context.js';
import { responseEncoding } from '../encode.js';
import { negotiateResponse } from '../negotiation.js';
import { protobufCodec } from '@svc-apiserver/protobuf/codec';
import type { StoredObject } from '../../storage/watch-cache/stored-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import type { ListPage } from '../../registry/reader.js';
import { parseSelection } from '../../registry/selection.js';
import { parseListQuery, requestNamespace } from './request-options.js';
import { startJsonStream, startRelay, writeObject, writeStatus } from '../response-writer.js';

/** Bytes gathered into each write of a streamed list: few large writes, each one memory copy of the items' bytes. */
const streamChunkBytes = 256 * 1024;

const comma = Buffer.from(',');
const listTail = Buffer.from(']}\n');

/** Each stored object version's protobuf message, made the first time a protobuf list holds it. */
const protobufItems = new WeakMap<StoredObject, Uint8Array>();

/** The type heads of custom resource list items, one per kind and apiVersion, shared so they compare by identity. */
const typeHeads = new Map<string, Buffer>();

function typeHeadOf(kind: string, apiVersion: string): Buffer {
  const text = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},`;
  let head = typeHeads.get(text);
  if (head === undefined) {
    if (typeHeads.size > 4096) typeHeads.clear();
    head = Buffer.from(text);
    typeHeads.set(text, head);
  }
  return head;
}

/** Writes `parts` as one chunk when it is large enough (or `last`); false when the client went away. */
async function flushChunk(stream: WatchStream, parts: Uint8Array[], size: number): Promise<boolean> {
  const more = stream.write(Buffer.concat(parts, size));
  if (!more) await stream.drain();
  return !stream.closed;
}

/**
 * A protobuf list (the response negotiated protobuf without a conversion): the envelope's head, then each item's
 * field header and message, in chunks; false when the response is another form.
 */
async function writeProtobufList(ctx: RequestContext, def: ResourceDef, apiVersion: string, metadata: Record<string, unknown>, page: ListPage): Promise<boolean> {
  const encoding = responseEncoding(ctx.names);
  const n = negotiateResponse(ctx.headers.accept, ctx.query, encoding.negotiationOptions({ resource: true, apiVersion }));
  if (n?.binary !== true || n.conversion !== undefined || ctx.method === 'HEAD') return false;
  const codec = protobufCodec(ctx.names);
  const items: Uint8Array[] = [];
  for (const o of page.items) {
    let bytes = protobufItems.get(o);
    if (bytes === undefined) {
      bytes = codec.encodeItem(apiVersion, def.kind, JSON.parse(o.itemJson()));
      if (bytes === undefined) return false;
      protobufItems.set(o, bytes);
    }
    items.push(bytes);
  }
  const list = codec.listWriter(apiVersion, def.listKind, metadata, items);
  if (list === undefined) return false;
  // The body's head and tail are protobuf, not a relayed answer, but the relay stream is what writes a status,
  // headers as given and a body in parts.
  const stream = startRelay(ctx, 200, { 'Content-Type': n.mediaType });
  let parts: Uint8Array[] = [list.head];
  let size = list.head.length;
  for (let i = 0; i < items.length; i++) {
    const header = list.itemHeader(i);
    parts.push(header, items[i]!);
    size += header.length + items[i]!.length;
    if (size >= streamChunkBytes) {
      if (!(await flushChunk(stream, parts, size))) return true;
      parts = [];
      size = 0;
    }
  }
  parts.push(list.tail);
  stream.write(Buffer.concat(parts, size + list.tail.length));
  stream.end();
  return true;
}

/** Writes a list page: streamed from pre-serialized items when the response is compact JSON or protobuf. */
export async function writeListPage(ctx: RequestContext, def: ResourceDef, page: ListPage): Promise<void> {
  const metadata: Record<string, unknown> = { resourceVersion: page.resourceVersion };
  if (page.continue !== undefined) metadata['continue'] = page.continue;
  if (page.remainingItemCount !== undefined) metadata['remainingItemCount'] = page.remainingItemCount;
  const apiVersion = apiVersionOf(def.group, def.version);
  // Items of a custom resource list carry their kind and apiVersion (kube's UnstructuredList); typed lists' do not.
  const typed = def.custom !== undefined;
  const stream = startJsonStream(ctx, 200);
  if (stream === undefined) {
    if (!typed && await writeProtobufList(ctx, def, apiVersion, metadata, page)) return;
    writeObject(ctx, 200, { kind: def.listKind, apiVersion, metadata, items: page.items.map((o) => JSON.parse(typed ? o.objectJson() : o.itemJson()) as unknown) });
    return;
  }
  const head = `{"kind":${JSON.stringify(def.listKind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
  // A custom object's item is its cached bytes behind its kind and apiVersion (every item is of the list's version).
  const typePrefix = typed ? typeHeadOf(def.kind, apiVersion) : undefined;
  const items = page.items;
  // Each item's bytes are kept by the cache: a chunk is one Buffer.concat of them (no string building, no
  // re-encoding), written whole; a list under one chunk is a single write.
  let parts: Uint8Array[] = [Buffer.from(head)];
  let size = parts[0]!.length;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) {
      parts.push(comma);
      size++;
    }
    const bytes = typePrefix !== undefined ? items[i]!.itemBytesBehind(typePrefix) : items[i]!.itemBytes();
    parts.push(bytes);
    size += bytes.length;
    if (size >= streamChunkBytes) {
      if (!(await flushChunk(stream, parts, size))) return;
      parts = [];
      size = 0;
    }
  }
  parts.push(listTail);
  stream.write(Buffer.concat(parts, size + listTail.length));
  stream.end();
}

/** Serves a list. */
export async function handleList(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const selection = parseSelection(def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  if (!selection.ok) return writeStatus(ctx, selection.error);
  const q = ctx.query;
  const listOptions = parseListQuery(q);
  if (!listOptions.ok) return writeStatus(ctx, listOptions.error);
  const { limit, sendInitialEvents } = listOptions.value;
  // With APIListChunking off, limit and continue are ignored: every list is one complete page.
  const chunking = registry.store.settings.apiListChunking;
  const page = await registry.store.listPage(def, {
    namespace: requestNamespace(ctx, def),
    selection: selection.value,
    limit: !chunking ? 0 : limit,
    ...(chunking && q.get('continue') ? { continue: q.get('continue')! } : {}),
    ...(q.get('resourceVersion') !== null ? { resourceVersion: q.get('resourceVersion')! } : {}),
    ...(q.get('resourceVersionMatch') ? { resourceVersionMatch: q.get('resourceVersionMatch')! } : {}),
    ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
  });
  if (!page.ok) return writeStatus(ctx, page.error);
  await writeListPage(ctx, def, page.value);
}
