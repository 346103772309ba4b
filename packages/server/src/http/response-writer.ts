/**
 * The response writer every handler and filter answers through, over any transport (k8s.io/apiserver's
 * endpoints/handlers/responsewriters): objects and Statuses in the negotiated media type (JSON, YAML, protobuf,
 * `as=Table` and metadata conversions, `?pretty`), a Status in JSON when nothing asked for can be written, plain
 * text and bytes already encoded, watches and streamed lists. The headers of every response are made in one place
 * ({@link startResponse}): the request's own (`Audit-Id`, flow control's) and its warnings as `Warning: 299`.
 *
 * Plain functions over the request context: nothing here is made per request until a response is written.
 */
import type { Status, WatchEvent } from '@svc-apiserver/api';
import type { RequestContext, ResponseHeaders, Transport, WatchStream } from './context.js';
import { encodeBody, encodeJson, responseEncoding, type EndpointKind, type WatchEncoder } from './encode.js';
import { negotiateResponse } from './negotiation.js';
import { boundStatus } from './status-bounds.js';
import { warningRecorder } from './warnings.js';
import type { RequestRecord } from './request-record.js';

const nonResourceEndpoint: EndpointKind = { resource: false };

/** Resource endpoints convert (Table, PartialObjectMetadata); any endpoint writes protobuf for kinds that have it. */
function endpointOf(ctx: RequestContext): EndpointKind {
  const info = ctx.info;
  if (!info.isResourceRequest) return nonResourceEndpoint;
  const apiVersion = info.apiGroup === '' ? info.apiVersion : `${info.apiGroup}/${info.apiVersion}`;
  const printer = ctx.printerFor?.(info);
  return printer === undefined ? { resource: true, apiVersion } : { resource: true, apiVersion, printer };
}

/**
 * Sends the status code and headers of a response: every response's headers are made here. The request's own
 * headers are added (to a relayed answer unless it carries them already in any case: its own value stands), then
 * the warnings; the record learns the code.
 */
function startResponse(ctx: RequestContext, code: number, headers: ResponseHeaders, streamed: boolean, relayed = false): void {
  const record = ctx.record;
  if (!relayed) {
    // The writer's own headers (Content-Type, Content-Length, Retry-After, ...) are never the request's.
    Object.assign(headers, record.responseHeaders);
  } else {
    const given = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
    for (const name in record.responseHeaders) if (!given.has(name.toLowerCase())) headers[name] = record.responseHeaders[name]!;
  }
  record.responseCode = code;
  record.onResponseStart?.(code);
  const warned = record.warnings?.headers();
  if (warned !== undefined && warned.length > 0) headers['Warning'] = warned;
  ctx.transport.writeHead(code, headers, streamed);
}

/** True once the request has an answer under way (or ended without one): later answers are dropped. */
export function responded(ctx: RequestContext): boolean {
  return ctx.transport.responded;
}

/** Adds a `Warning: 299 - "<text>"` header to the response (kube's warning.AddWarning; see warnings.ts). */
export function addWarning(ctx: RequestContext, text: string): void {
  (ctx.record.warnings ??= warningRecorder()).add(text);
}

/**
 * Writes a body already encoded, with its own Content-Type (none when empty) and extra headers: aggregated
 * discovery, OpenAPI documents and their protobuf form, 304/301 answers with an empty body. A HEAD request gets
 * the headers only.
 */
export function writeBytes(ctx: RequestContext, code: number, contentType: string, body: string | Uint8Array, headers?: Readonly<Record<string, string>>): void {
  const transport = ctx.transport;
  if (transport.responded || transport.closed) return;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const out: ResponseHeaders = headers === undefined ? { 'Content-Length': String(length) } : { ...headers, 'Content-Length': String(length) };
  if (contentType !== '') out['Content-Type'] = contentType;
  // Headers given may be a relayed answer's (the aggregator's): checked against the request's own.
  startResponse(ctx, code, out, false, headers !== undefined);
  ctx.record.responseBytes = length;
  transport.end(ctx.method === 'HEAD' || length === 0 ? undefined : body);
}

/**
 * Writes a Status with its code. It is negotiated like any object, but a failure must reach the client even if it
 * asked for nothing the server writes: it is JSON then. `details.retryAfterSeconds` becomes a `Retry-After` header
 * (504, 429, 503), as kube's response writer does; an oversized Status is cut to its bounds first.
 */
export function writeStatus(ctx: RequestContext, failed: Status): void {
  const status = boundStatus(failed);
  ctx.record.responseObject = status;
  const encoded = encodeStatus(ctx, status);
  writeStatusBytes(ctx, status.code, encoded.contentType, encoded.body, retryAfterOf(status));
}

/** A Status in the request's negotiated encoding, or JSON when nothing it asked for can be written. */
function encodeStatus(ctx: RequestContext, status: Status): { readonly contentType: string; readonly body: string | Uint8Array } {
  const encoded = responseEncoding(ctx.names).encodeObject(ctx.headers.accept, ctx.query, status, endpointOf(ctx));
  return encoded.ok ? encoded.value : { contentType: 'application/json', body: encodeBody(status, 'application/json', false) };
}

/** The `Retry-After` value of a Status's `details.retryAfterSeconds`, when it asks clients to wait. */
function retryAfterOf(status: Status): string | undefined {
  const retry = status.details?.retryAfterSeconds;
  return retry !== undefined && retry > 0 ? String(retry) : undefined;
}

/** Writes an encoded Status: the writer's own headers, so the request's are added as they are to any response. */
function writeStatusBytes(ctx: RequestContext, code: number, contentType: string, body: string | Uint8Array, retryAfter: string | undefined): void {
  const transport = ctx.transport;
  if (transport.responded || transport.closed) return;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const headers: ResponseHeaders = retryAfter === undefined
    ? { 'Content-Length': String(length), 'Content-Type': contentType }
    : { 'Retry-After': retryAfter, 'Content-Length': String(length), 'Content-Type': contentType };
  startResponse(ctx, code, headers, false);
  ctx.record.responseBytes = length;
  transport.end(ctx.method === 'HEAD' || length === 0 ? undefined : body);
}

/** The most encodings of one prepared Status kept: Accept is the client's to choose, and the rest are encoded anew. */
const preparedEncodingLimit = 32;

/**
 * A Status answered to many requests (the 429 of flow control and of the max-in-flight limit): bounded once, and
 * encoded once per way of asking for it (Accept and `?pretty`), so that refusing a flood does not negotiate,
 * encode and measure the same answer for every request. The bytes are those {@link writeStatus} writes.
 */
export interface PreparedStatus {
  readonly status: Status;
  readonly retryAfter: string | undefined;
  /** Per flavour, the encoded answer by the way it was asked for. */
  readonly encodings: WeakMap<object, Map<string, { readonly contentType: string; readonly body: string | Uint8Array }>>;
}

/** Prepares a Status for {@link writePreparedStatus}. */
export function prepareStatus(failed: Status): PreparedStatus {
  const status = boundStatus(failed);
  return { status, retryAfter: retryAfterOf(status), encodings: new WeakMap() };
}

/** Writes a prepared Status, as {@link writeStatus} writes it. */
export function writePreparedStatus(ctx: RequestContext, prepared: PreparedStatus): void {
  const accept = ctx.headers.accept;
  const status = prepared.status;
  // A conversion (`as=Table`) depends on the endpoint's printer: it is negotiated for each request.
  if (accept !== undefined && accept.includes('as=')) return writeStatus(ctx, status);
  ctx.record.responseObject = status;
  let byFlavour = prepared.encodings.get(ctx.names);
  if (byFlavour === undefined) prepared.encodings.set(ctx.names, (byFlavour = new Map()));
  const key = `${ctx.info.isResourceRequest ? 'r' : 'n'}${ctx.query.get('pretty') ?? ''}\u0000${accept ?? ''}`;
  let encoded = byFlavour.get(key);
  if (encoded === undefined) {
    const fresh = encodeStatus(ctx, status);
    // Bytes once, rather than a string written out as UTF-8 for every request.
    encoded = { contentType: fresh.contentType, body: typeof fresh.body === 'string' ? Buffer.from(fresh.body) : fresh.body };
    if (byFlavour.size < preparedEncodingLimit) byFlavour.set(key, encoded);
  }
  writeStatusBytes(ctx, status.code, encoded.contentType, encoded.body, prepared.retryAfter);
}

/** Writes an object with a status code in the negotiated media type; 406 NotAcceptable when there is none. */
export function writeObject(ctx: RequestContext, code: number, object: unknown): void {
  ctx.record.responseObject = object;
  const encoded = responseEncoding(ctx.names).encodeObject(ctx.headers.accept, ctx.query, object, endpointOf(ctx));
  if (!encoded.ok) return writeStatus(ctx, encoded.error);
  writeBytes(ctx, code, encoded.value.contentType, encoded.value.body);
}

/**
 * Writes an object as {@link writeObject} does; a large object's JSON is written in slices that give the event loop
 * back between them (the same bytes), so that answering a write of a hundred thousand keys holds no other client.
 */
export async function writeObjectYielding(ctx: RequestContext, code: number, object: unknown): Promise<void> {
  ctx.record.responseObject = object;
  const encoded = await responseEncoding(ctx.names).encodeObjectYielding(ctx.headers.accept, ctx.query, object, endpointOf(ctx));
  if (!encoded.ok) return writeStatus(ctx, encoded.error);
  writeBytes(ctx, code, encoded.value.contentType, encoded.value.body);
}

/** Writes plain text (health endpoints, Go's 404 page). */
export function writeText(ctx: RequestContext, code: number, text: string): void {
  writeBytes(ctx, code, 'text/plain; charset=utf-8', text, { 'X-Content-Type-Options': 'nosniff' });
}

/** A streamed body over the transport: events as JSON lines, or bytes as they are; the record counts the bytes. */
class TransportStream implements WatchStream {
  constructor(private readonly transport: Transport, private readonly record: RequestRecord) {}
  send(event: WatchEvent): boolean {
    return this.write(encodeJson(event) + '\n');
  }
  write(chunk: string | Uint8Array): boolean {
    if (this.transport.closed) return false;
    this.record.responseBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    return this.transport.write(chunk);
  }
  drain(): Promise<void> {
    return this.transport.drain();
  }
  end(): void {
    this.transport.end();
  }
  abort(): void {
    this.transport.drop();
  }
  // Not the request's abort signal: a graceful shutdown aborts it to end watches, and the stream must still be
  // ended (and a GET or LIST in flight written in full), or the response hangs or goes out empty.
  get closed(): boolean {
    return this.transport.closed;
  }
}

/**
 * A watch stream in an encoding other than plain JSON: events (and the JSON lines the watch handler writes,
 * serialized once for every watcher) are written in the negotiated encoding instead.
 */
class ReencodingStream extends TransportStream {
  constructor(transport: Transport, record: RequestRecord, private readonly encoder: WatchEncoder) {
    super(transport, record);
  }
  override send(event: WatchEvent): boolean {
    return this.put(event);
  }
  override write(chunk: string | Uint8Array): boolean {
    let more = true;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    for (const line of text.split('\n')) {
      if (line.trim() !== '') more = this.put(JSON.parse(line) as { type: string; object: unknown }) && more;
    }
    return more;
  }
  private put(event: { readonly type: string; readonly object: unknown }): boolean {
    const out = this.encoder.encode(event);
    return out === undefined ? true : super.write(out);
  }
}

/** The stream of a watch that was refused (406): it takes events and drops them; the handler ends on the abort. */
const closedStream: WatchStream = {
  send: () => true,
  write: () => true,
  drain: () => Promise.resolve(),
  end: () => {},
  abort: () => {},
  closed: true,
};

/**
 * Starts a watch response in the negotiated encoding (JSON lines, or the flavour's protobuf frames; converted to
 * Table or metadata rows when asked): status 200 and headers go out at once. A watch nothing can be written for is
 * answered 406 and gets a stream that drops its events.
 */
export function startWatch(ctx: RequestContext): WatchStream {
  const watch = responseEncoding(ctx.names).watchEncoder(ctx.headers.accept, ctx.query, endpointOf(ctx));
  if (!watch.ok) {
    writeStatus(ctx, watch.error);
    return closedStream;
  }
  startResponse(ctx, 200, { 'Content-Type': watch.value.contentType, 'Cache-Control': 'no-cache, private' }, true);
  return watch.value.passthrough ? new TransportStream(ctx.transport, ctx.record) : new ReencodingStream(ctx.transport, ctx.record, watch.value);
}

/**
 * Starts a streamed JSON body (a large list written part by part from pre-serialized items) when the negotiated
 * response is compact JSON; undefined when it is another form (YAML, pretty, a conversion, protobuf) or a HEAD
 * request: the caller writes an object.
 */
export function startJsonStream(ctx: RequestContext, code: number): WatchStream | undefined {
  if (!writesCompactJson(ctx)) return undefined;
  startResponse(ctx, code, { 'Content-Type': 'application/json' }, true);
  return new TransportStream(ctx.transport, ctx.record);
}

/**
 * True when the response to this request, not started yet, is compact JSON of the resource as it is (no YAML,
 * `pretty`, conversion or protobuf) with a body (not HEAD): bytes serialized earlier can then be written as they are.
 */
export function writesCompactJson(ctx: RequestContext): boolean {
  if (ctx.transport.responded || ctx.method === 'HEAD') return false;
  const accept = ctx.headers.accept;
  // The common cases answer without parsing: no Accept, or exactly JSON, and no `pretty` parameter.
  if ((accept === undefined || accept === 'application/json') && !ctx.query.has('pretty')) return true;
  const n = negotiateResponse(accept, ctx.query, responseEncoding(ctx.names).negotiationOptions(endpointOf(ctx)));
  return n !== undefined && n.mediaType === 'application/json' && !n.pretty && n.conversion === undefined;
}

/**
 * Starts a response whose headers and body come from elsewhere as they are (the aggregator's proxy relays an
 * extension server's answer, watches included): the status and headers go out at once, the body is streamed.
 */
export function startRelay(ctx: RequestContext, code: number, headers: Readonly<Record<string, string | readonly string[]>>): WatchStream {
  const out: ResponseHeaders = {};
  for (const [k, v] of Object.entries(headers)) out[k] = typeof v === 'string' ? v : [...v];
  startResponse(ctx, code, out, true, true);
  return new TransportStream(ctx.transport, ctx.record);
}

/**
 * Ends the request now, as kube-apiserver's timeout filter does: `status` is answered unless a response is under
 * way (that one is cut off), later writes are dropped, the signal aborts and a body read still waiting fails.
 */
export function expire(ctx: RequestContext, status: Status): void {
  if (!ctx.transport.responded) writeStatus(ctx, status);
  ctx.transport.expire(status);
}
