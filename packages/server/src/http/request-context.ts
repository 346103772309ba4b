/**
 * The request context implementation over node's HTTP/1.1 and HTTP/2 compatibility request/response objects:
 * bounded body reading, body decoding by Content-Type, response negotiation and encoding, warnings and watch
 * streams (see {@link RequestContext}).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as http2Constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { badRequest, fail, type Names, ok, requestEntityTooLarge, type Result, type Status, unsupportedMediaType, type WatchEvent } from '@svc-apiserver/api';
import { anonymousUser } from '../request/user-info.js';
import type { DecodedBody, RequestContext, WatchStream } from './context.js';
import type { RequestInfo } from '../request/request-info.js';
import { createRequestRecord } from './request-record.js';
import { decodeJson, jsonBodyMediaTypes, yamlBodyMediaTypes } from './decode.js';
import { decodeYamlBody } from './yaml-decoder.js';
import { encodeBody, encodeJson, responseEncoding, type EndpointKind, type WatchEncoder } from './encode.js';
import { negotiateResponse } from './negotiation.js';
import { parseMediaType } from './media-type.js';
import type { LiveRequests } from './live-requests.js';
import type { TablePrinter } from './table/printer.js';
import type { RequestTarget } from './request-target.js';
import { warningRecorder } from './warnings.js';
import { boundStatus } from './status-bounds.js';
import { nestingTooDeepMessage, valueTooDeep } from '../limits/nesting-depth.js';

/** Node's request object on either protocol. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;
/** Node's response object on either protocol. */
export type NodeResponse = ServerResponse | Http2ServerResponse;

/** Settings of every context a server makes. */
export interface RequestContextOptions {
  readonly names: Names;
  /** Body limit in bytes (kube-apiserver's --max-request-body-bytes, 3 MiB by default). */
  readonly maxRequestBodyBytes: number;
  /** The server's live requests: shutdown aborts every request's signal through it. */
  readonly liveRequests: LiveRequests;
  /** The Table printer of a resource request's resource when it has its own (custom resources). */
  readonly printerFor?: (info: RequestInfo) => TablePrinter | undefined;
}

/**
 * How long the rest of an unwanted request body (over the limit, or left unread by an early answer) is read and
 * dropped before the request is ended: closing a socket with unread data resets it, and the client may lose the
 * answer with it (Go's server waits before closing for the same reason).
 */
const discardWindowMs = 10_000;
/** How long a connection closed after an unwanted body is still read from before it is destroyed. */
const lingerMs = 2_000;

/** The placeholder request info before the request-info filter ran. */
function emptyInfo(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
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

const chains = new WeakMap<object, readonly Buffer[]>();

/** The peer certificate chain of the request's TLS connection (DER, leaf first), read once per connection. */
export function peerCertificates(req: NodeRequest): readonly Buffer[] {
  const socket = (req.httpVersionMajor >= 2 ? (req as Http2ServerRequest).stream.session?.socket : req.socket) as TLSSocket | undefined;
  if (socket === undefined || typeof socket.getPeerCertificate !== 'function') return [];
  const cached = chains.get(socket);
  if (cached) return cached;
  const chain: Buffer[] = [];
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(cert.raw);
    cert = cert.issuerCertificate;
  }
  chains.set(socket, chain);
  return chain;
}

/** Builds the context of one request whose target is already read. */
export function createRequestContext(req: NodeRequest, res: NodeResponse, url: RequestTarget, options: RequestContextOptions): RequestContext {
  const method = (req.method ?? 'GET').toUpperCase();
  // The AbortController is made only when someone reads the signal (watches, long reads): most requests never do,
  // and a controller with its signal per request showed in the profile of small writes. An abort before that is
  // remembered and the signal is born aborted.
  let controller: AbortController | undefined;
  let abortedEarly = false;
  const abort = (): void => {
    if (controller !== undefined) controller.abort();
    else abortedEarly = true;
  };
  const signal = (): AbortSignal => {
    if (controller === undefined) {
      controller = new AbortController();
      if (abortedEarly) controller.abort();
    }
    return controller.signal;
  };
  const release = options.liveRequests.add({ abort });
  res.on('close', () => {
    release();
    // Only a request cut off before its response ended has anyone to tell; an abort builds a DOMException, which
    // costs more than a whole small request's bookkeeping. `writableEnded` (the handler called end), not
    // `writableFinished`: an HTTP/2 response whose stream the client reset reports itself finished, and its watch
    // would then never learn that the client left.
    if (!res.writableEnded) abort();
  });

  const warnings = warningRecorder();
  const record = createRequestRecord(req.socket?.remoteAddress ?? '');
  let responded = false;
  /** Set once the request timed out: its answer is out and nothing more is written. */
  let expired = false;
  let bodyRead: Promise<Result<Buffer>> | undefined;
  /** Settles a body read still waiting when the request ends early. */
  let settleBodyRead: ((result: Result<Buffer>) => void) | undefined;
  const isHttp1 = req.httpVersionMajor < 2;
  const limit = options.maxRequestBodyBytes;

  /**
   * The rest of a body nobody will read, once the answer is ended, is read and dropped up to the body limit and for
   * at most the discard window, so that the connection stays usable (an HTTP/2 stream whose body is left unread is
   * never done: flow control stops the client and the stream stays open, holding the session): a client that goes on sending after an early
   * answer (413, 401) is not cut off mid-upload. Past either bound the request is ended: an HTTP/2 stream is reset
   * with NO_ERROR (the client's signal to stop sending, RFC 9113 §8.1), an HTTP/1.1 connection is closed on our side
   * and destroyed a while later, so that the peer's unread bytes do not turn the close into a reset that takes the
   * answer with it.
   */
  let discarding = false;
  /** Body bytes the body read took in before it stopped. */
  let bodyBytesSeen = 0;
  const discardUnreadBody = (): void => {
    if (discarding || req.complete || req.destroyed) return;
    discarding = true;
    let dropped = 0;
    let winding = false;
    const windDown = (): void => {
      if (winding) return;
      winding = true;
      clearTimeout(window);
      if (!isHttp1) {
        const stream = (req as Http2ServerRequest).stream;
        if (!stream.closed && !stream.destroyed) stream.close(http2Constants.NGHTTP2_NO_ERROR);
        return;
      }
      const socket = req.socket;
      socket.end();
      setTimeout(() => socket.destroy(), lingerMs).unref();
    };
    const window = setTimeout(windDown, discardWindowMs);
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > limit) windDown();
    });
    req.once('end', () => clearTimeout(window));
    req.once('close', () => clearTimeout(window));
    req.resume();
  };

  const encoding = responseEncoding(options.names);
  /** Resource endpoints convert (Table, PartialObjectMetadata); any endpoint writes protobuf for kinds that have it. */
  const endpoint = (): EndpointKind => {
    if (!ctx.info.isResourceRequest) return { resource: false };
    const apiVersion = ctx.info.apiGroup === '' ? ctx.info.apiVersion : `${ctx.info.apiGroup}/${ctx.info.apiVersion}`;
    const printer = options.printerFor?.(ctx.info);
    return printer === undefined ? { resource: true, apiVersion } : { resource: true, apiVersion, printer };
  };
  const negotiated = () => negotiateResponse(req.headers.accept, url.searchParams, encoding.negotiationOptions(endpoint()));

  /**
   * An HTTP/1.1 answer sent before its request body was read says `Connection: close` when the rest of the body may
   * be more than the discard takes (a declared length beyond it, or a chunked body), as Go's server does: otherwise
   * the client would reuse a connection the discard is about to close. The close lingers (our side ends, the peer's
   * bytes are still read for a while) instead of Node's immediate destroy, whose reset could take the answer with it.
   */
  const closeUnlessDrainable = (headers: Record<string, string | string[]>): void => {
    if (!isHttp1 || req.complete || req.destroyed) return;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared - bodyBytesSeen <= limit) return;
    headers['Connection'] = 'close';
    const socket = req.socket as typeof req.socket & { destroySoon?: () => void };
    socket.destroySoon = () => {
      socket.end();
      setTimeout(() => socket.destroy(), lingerMs).unref();
    };
  };

  const head = (code: number, headers: Record<string, string | string[]>): void => {
    responded = true;
    for (const [k, v] of Object.entries(record.responseHeaders)) {
      // A relayed answer may carry the header already, in any case: its own value stands.
      const lower = k.toLowerCase();
      if (!Object.keys(headers).some((h) => h.toLowerCase() === lower)) headers[k] = v;
    }
    record.responseCode = code;
    record.onResponseStart?.(code);
    const warned = warnings.headers();
    if (warned.length > 0) headers['Warning'] = warned;
    closeUnlessDrainable(headers);
    (res as ServerResponse).writeHead(code, headers);
  };

  const send = (code: number, contentType: string, body: string | Uint8Array, extra: Readonly<Record<string, string>> = {}): void => {
    if (responded || expired || res.writableEnded || res.destroyed) return;
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    const headers: Record<string, string> = { ...extra, 'Content-Length': String(length) };
    if (contentType !== '') headers['Content-Type'] = contentType;
    head(code, headers);
    record.responseBytes = length;
    if (req.method === 'HEAD' || length === 0) res.end();
    else (res as ServerResponse).end(body);
    discardUnreadBody();
  };

  const writeStatus = (failed: Status): void => {
    const status = boundStatus(failed);
    // A Status is negotiated like any object, but a failure must reach the client even if it asked for nothing we
    // write: fall back to JSON then.
    record.responseObject = status;
    const encoded = encoding.encodeObject(req.headers.accept, url.searchParams, status, endpoint());
    // kube-apiserver's response writer turns details.retryAfterSeconds into a Retry-After header (504, 429, 503).
    const retry = status.details?.retryAfterSeconds;
    const extra: Record<string, string> = retry !== undefined && retry > 0 ? { 'Retry-After': String(retry) } : {};
    if (encoded.ok) send(status.code, encoded.value.contentType, encoded.value.body, extra);
    else send(status.code, 'application/json', encodeBody(status, 'application/json', false), extra);
  };

  const readBody = (): Promise<Result<Buffer>> => {
    bodyRead ??= new Promise((resolve) => {
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (expired) {
        resolve(fail(badRequest('the request ended before its body was read')));
        return;
      }
      if (Number.isFinite(declared) && declared > limit) {
        resolve(fail(requestEntityTooLarge(limit)));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (result: Result<Buffer>): void => {
        if (done) return;
        done = true;
        settleBodyRead = undefined;
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
        // Whatever is left is dropped once the answer is out (discardUnreadBody).
        req.pause();
        resolve(result);
      };
      settleBodyRead = finish;
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        bodyBytesSeen = size;
        if (size > limit) {
          // Nothing more is buffered: the 413 is answered now.
          chunks.length = 0;
          finish(fail(requestEntityTooLarge(limit)));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => finish(ok(Buffer.concat(chunks, size)));
      const onError = (): void => finish(fail(badRequest('the request body could not be read')));
      const onClose = (): void => finish(fail(badRequest('the client closed the request before sending its body')));
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
    });
    return bodyRead;
  };

  const ctx: RequestContext = {
    method,
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    names: options.names,
    get clientCertificates(): readonly Buffer[] {
      return peerCertificates(req);
    },
    info: emptyInfo(url.pathname, method),
    user: anonymousUser,
    record,
    get signal(): AbortSignal {
      return signal();
    },
    readBody,
    async decodeBody(accepted: readonly string[]): Promise<Result<DecodedBody>> {
      const contentType = req.headers['content-type'];
      const mediaType = contentType === undefined || contentType.trim() === '' ? 'application/json' : parseMediaType(contentType)?.type;
      // YAML and protobuf bodies are accepted wherever JSON is (document 1; kubectl ≥ 1.32 sends protobuf).
      const acceptable = accepted.includes('application/json')
        ? [...new Set([...accepted, 'application/yaml', encoding.protobufMediaType])]
        : accepted;
      if (mediaType !== undefined && mediaType === encoding.protobufMediaType && acceptable.includes(mediaType)) {
        const body = await readBody();
        if (!body.ok) return body;
        const decoded = encoding.decodeProtobuf(body.value);
        if (!decoded.ok) return decoded;
        // Embedded raw JSON (RawExtension, JSON fields) is decoded with the message: bound its nesting as JSON's.
        if (valueTooDeep(decoded.value)) return fail(badRequest(nestingTooDeepMessage()));
        record.requestObject = decoded.value;
        return ok({ mediaType, object: decoded.value });
      }
      if (mediaType === undefined || !acceptable.includes(mediaType) ||
          (!jsonBodyMediaTypes.has(mediaType) && !yamlBodyMediaTypes.has(mediaType))) {
        return fail(unsupportedMediaType(acceptable));
      }
      const body = await readBody();
      if (!body.ok) return body;
      const decoded = yamlBodyMediaTypes.has(mediaType) ? await decodeYamlBody(body.value, false) : decodeJson(body.value);
      if (!decoded.ok) return decoded;
      const value = decoded.value;
      const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
      // A JSON patch is a list of operations; every other body is one object.
      if (!isObject && !(mediaType === 'application/json-patch+json' && Array.isArray(value))) {
        return fail(badRequest('the request body must be a JSON or YAML object'));
      }
      record.requestObject = value;
      return ok({ mediaType, object: value as DecodedBody['object'], duplicateFields: decoded.duplicateFields });
    },
    warn(text: string): void {
      warnings.add(text);
    },
    writeObject(code: number, object: unknown): void {
      record.responseObject = object;
      const encoded = encoding.encodeObject(req.headers.accept, url.searchParams, object, endpoint());
      if (!encoded.ok) return writeStatus(encoded.error);
      send(code, encoded.value.contentType, encoded.value.body);
    },
    writeStatus,
    writeBytes: send,
    writeText(code: number, text: string): void {
      send(code, 'text/plain; charset=utf-8', text, { 'X-Content-Type-Options': 'nosniff' });
    },
    startWatch(): WatchStream {
      const watch = encoding.watchEncoder(req.headers.accept, url.searchParams, endpoint());
      if (!watch.ok) {
        writeStatus(watch.error);
        return closedStream;
      }
      const s = stream(200, { 'Content-Type': watch.value.contentType, 'Cache-Control': 'no-cache, private' });
      return watch.value.passthrough ? s : reencoding(s, watch.value);
    },
    startRelay(code: number, headers: Readonly<Record<string, string | readonly string[]>>): WatchStream {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(headers)) out[k] = typeof v === 'string' ? v : [...v];
      return stream(code, out);
    },
    startJsonStream(code: number): WatchStream | undefined {
      const n = negotiated();
      if (n === undefined || n.mediaType !== 'application/json' || n.pretty || n.conversion !== undefined || responded || req.method === 'HEAD') return undefined;
      return stream(code, { 'Content-Type': 'application/json' });
    },
    get responded(): boolean {
      return responded || expired || res.headersSent;
    },
    expire(status: Status): void {
      if (expired) return;
      if (!responded && !res.headersSent) writeStatus(status);
      // A response already under way cannot end in a Status: it is cut off, as kube's timeout handler aborts it.
      else if (!res.writableEnded) res.destroy();
      expired = true;
      discardUnreadBody();
      settleBodyRead?.(fail(status));
      abort();
    },
  };

  /**
   * A watch stream in an encoding other than plain JSON: events (and the JSON lines the watch handler writes,
   * serialized once for every watcher) are written in the negotiated encoding instead.
   */
  function reencoding(inner: WatchStream, encoder: WatchEncoder): WatchStream {
    const put = (event: { type: string; object: unknown }): boolean => {
      const out = encoder.encode(event);
      return out === undefined ? true : inner.write(out);
    };
    return {
      send: (event) => put(event),
      write(chunk: string | Uint8Array): boolean {
        let more = true;
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
        for (const line of text.split('\n')) {
          if (line.trim() !== '') more = put(JSON.parse(line) as { type: string; object: unknown }) && more;
        }
        return more;
      },
      drain: () => inner.drain(),
      end: () => inner.end(),
      abort: () => inner.abort(),
      get closed() {
        return inner.closed;
      },
    };
  }

  /** A chunked response whose headers go out at once (watches, streamed lists). */
  function stream(code: number, headers: Record<string, string | string[]>): WatchStream {
    // HTTP/2 frames the stream itself; the header is forbidden there.
    if (isHttp1) headers['Transfer-Encoding'] = 'chunked';
    head(code, headers);
    (res as ServerResponse).flushHeaders();
    let ended = false;
    // Kept here rather than read from `res.writableNeedDrain`, which HTTP/2 responses do not have: a stalled HTTP/2
    // client would otherwise look ready at once and everything written for it would pile up in the server.
    let needDrain = false;
    const put = (chunk: string | Uint8Array): boolean => {
      record.responseBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      const more = (res as ServerResponse).write(chunk);
      if (!more) needDrain = true;
      return more;
    };
    const stream: WatchStream = {
      send(event: WatchEvent): boolean {
        if (stream.closed) return false;
        return put(encodeJson(event) + '\n');
      },
      write(chunk: string | Uint8Array): boolean {
        if (stream.closed) return false;
        return put(chunk);
      },
      drain(): Promise<void> {
        if (stream.closed || !needDrain) return Promise.resolve();
        return new Promise((resolve) => {
          const done = (): void => {
            needDrain = false;
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      },
      end(): void {
        if (ended) return;
        ended = true;
        if (!res.writableEnded && !res.destroyed) res.end();
        discardUnreadBody();
      },
      abort(): void {
        ended = true;
        if (res.writableFinished || res.destroyed) return;
        // HTTP/2: reset the stream with CANCEL, which tells the client the response was cut off; HTTP/1.1 can only
        // close the connection.
        if (isHttp1) res.destroy();
        else (res as Http2ServerResponse).stream.close(http2Constants.NGHTTP2_CANCEL);
      },
      // Not the request's abort signal: a graceful shutdown aborts it to end watches, and the stream must still be
      // ended (and a GET or LIST in flight written in full), or the response hangs or goes out empty.
      get closed(): boolean {
        return ended || expired || res.writableEnded || res.destroyed;
      },
    };
    return stream;
  }
  return ctx;
}
