/**
 * The request context over node's HTTP/1.1 and HTTP/2 compatibility request and response objects: the request's
 * facts, and the transport under the shared body decoder and response writer (see {@link RequestContext}), which
 * reads the body within its limit, writes the bytes the writer made, and keeps the connection usable when a body
 * is left unread.
 *
 * Made for every request, so nothing here is made per request that a request may not need: the context and its
 * transport are classes (their methods are shared, not closures made per request), the abort controller is made
 * when the signal is first read, the certificate chain when it is first asked for.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { constants as http2Constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { badRequest, fail, type Names, ok, requestEntityTooLarge, type Result, type Status } from '@svc-apiserver/api';
import { anonymousUser, type UserInfo } from '../request/user-info.js';
import type { RequestContext, ResponseHeaders, Transport } from './context.js';
import type { RequestInfo } from '../request/request-info.js';
import { createRequestRecord, type RequestRecord } from './request-record.js';
import type { LiveRequests } from './live-requests.js';
import type { TablePrinter } from './table/printer.js';
import type { RequestTarget } from './request-target.js';

/** Node's request object on either protocol. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;
/** Node's response object on either protocol. */
export type NodeResponse = ServerResponse | Http2ServerResponse;

/** Settings of every context a server makes: one object per server, shared by its requests. */
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

/** The transport of one request over node's request and response. */
class NodeTransport implements Transport {
  /** Made when someone reads the signal (watches, long reads): most requests never do. */
  private controller: AbortController | undefined;
  /** The request aborted: a signal made later is born aborted. */
  private aborted = false;
  /** Who is told of the abort without the signal ({@link onAbort}). */
  private abortListeners: (() => void)[] | undefined;
  private started = false;
  private ended = false;
  /** Set once the request timed out: its answer is out and nothing more is written. */
  private expired = false;
  /**
   * Kept here rather than read from `res.writableNeedDrain`, which HTTP/2 responses do not have: a stalled HTTP/2
   * client would otherwise look ready at once and everything written for it would pile up in the server.
   */
  private needDrain = false;
  private bodyRead: Promise<Result<Buffer>> | undefined;
  /** Settles a body read still waiting when the request ends early. */
  private settleBodyRead: ((result: Result<Buffer>) => void) | undefined;
  /** Body bytes the body read took in before it stopped. */
  private bodyBytesSeen = 0;
  private discarding = false;
  private readonly release: () => void;

  constructor(readonly req: NodeRequest, private readonly res: NodeResponse, private readonly limit: number, live: LiveRequests) {
    this.release = live.add(this);
    res.on('close', () => this.responseClosed());
  }

  private get isHttp1(): boolean {
    return this.req.httpVersionMajor < 2;
  }

  /** The request's signal, made on first use. */
  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  onAbort(listener: () => void): void {
    if (this.aborted) listener();
    else (this.abortListeners ??= []).push(listener);
  }

  /** Aborts the request's signal (the client left, the server shuts down, the request expired). */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
    const listeners = this.abortListeners;
    this.abortListeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }

  private responseClosed(): void {
    this.release();
    // Only a request cut off before its response ended has anyone to tell; an abort builds a DOMException, which
    // costs more than a whole small request's bookkeeping. `writableEnded` (the handler called end), not
    // `writableFinished`: an HTTP/2 response whose stream the client reset reports itself finished, and its watch
    // would then never learn that the client left.
    if (!this.res.writableEnded) this.abort();
  }

  get responded(): boolean {
    return this.started || this.expired || this.res.headersSent;
  }

  get closed(): boolean {
    return this.ended || this.expired || this.res.writableEnded || this.res.destroyed;
  }

  readBody(): Promise<Result<Buffer>> {
    this.bodyRead ??= new Promise((resolve) => {
      const req = this.req;
      const limit = this.limit;
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (this.expired) {
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
        this.settleBodyRead = undefined;
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
        // Whatever is left is dropped once the answer is out (discardUnreadBody).
        req.pause();
        resolve(result);
      };
      this.settleBodyRead = finish;
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        this.bodyBytesSeen = size;
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
    return this.bodyRead;
  }

  writeHead(code: number, headers: ResponseHeaders, streamed: boolean): void {
    this.started = true;
    this.closeUnlessDrainable(headers);
    // HTTP/2 frames the stream itself; the header is forbidden there.
    if (streamed && this.isHttp1) headers['Transfer-Encoding'] = 'chunked';
    (this.res as ServerResponse).writeHead(code, headers);
    if (streamed) (this.res as ServerResponse).flushHeaders();
  }

  write(chunk: string | Uint8Array): boolean {
    const more = (this.res as ServerResponse).write(chunk);
    if (!more) this.needDrain = true;
    return more;
  }

  end(last?: string | Uint8Array): void {
    if (this.ended) return;
    this.ended = true;
    const res = this.res;
    if (!res.writableEnded && !res.destroyed) {
      if (last === undefined) res.end();
      else (res as ServerResponse).end(last);
    }
    this.discardUnreadBody();
  }

  drain(): Promise<void> {
    if (this.closed || !this.needDrain) return Promise.resolve();
    const res = this.res;
    return new Promise((resolve) => {
      const done = (): void => {
        this.needDrain = false;
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }

  drop(): void {
    this.ended = true;
    const res = this.res;
    if (res.writableFinished || res.destroyed) return;
    // HTTP/2: reset the stream with CANCEL, which tells the client the response was cut off; HTTP/1.1 can only
    // close the connection.
    if (this.isHttp1) res.destroy();
    else (res as Http2ServerResponse).stream.close(http2Constants.NGHTTP2_CANCEL);
  }

  expire(status: Status): void {
    if (this.expired) return;
    // A response already under way cannot end in a Status: it is cut off, as kube's timeout handler aborts it.
    if (!this.res.writableEnded) this.res.destroy();
    this.expired = true;
    this.discardUnreadBody();
    this.settleBodyRead?.(fail(status));
    this.abort();
  }

  /**
   * An HTTP/1.1 answer sent before its request body was read says `Connection: close` when the rest of the body may
   * be more than the discard takes (a declared length beyond it, or a chunked body), as Go's server does: otherwise
   * the client would reuse a connection the discard is about to close. The close lingers (our side ends, the peer's
   * bytes are still read for a while) instead of Node's immediate destroy, whose reset could take the answer with it.
   */
  private closeUnlessDrainable(headers: ResponseHeaders): void {
    const req = this.req;
    if (!this.isHttp1 || req.complete || req.destroyed) return;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared - this.bodyBytesSeen <= this.limit) return;
    headers['Connection'] = 'close';
    const socket = req.socket as typeof req.socket & { destroySoon?: () => void };
    socket.destroySoon = () => {
      socket.end();
      setTimeout(() => socket.destroy(), lingerMs).unref();
    };
  }

  /**
   * The rest of a body nobody will read, once the answer is ended, is read and dropped up to the body limit and for
   * at most the discard window, so that the connection stays usable (an HTTP/2 stream whose body is left unread is
   * never done: flow control stops the client and the stream stays open, holding the session): a client that goes
   * on sending after an early answer (413, 401) is not cut off mid-upload. Past either bound the request is ended:
   * an HTTP/2 stream is reset with NO_ERROR (the client's signal to stop sending, RFC 9113 §8.1), an HTTP/1.1
   * connection is closed on our side and destroyed a while later, so that the peer's unread bytes do not turn the
   * close into a reset that takes the answer with it.
   */
  private discardUnreadBody(): void {
    const req = this.req;
    if (this.discarding || req.complete || req.destroyed) return;
    this.discarding = true;
    const limit = this.limit;
    const isHttp1 = this.isHttp1;
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
  }
}

/** The context of one request over node's request and response. */
class NodeRequestContext implements RequestContext {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly names: Names;
  info: RequestInfo;
  user: UserInfo = anonymousUser;
  readonly record: RequestRecord;
  readonly printerFor: ((info: RequestInfo) => TablePrinter | undefined) | undefined;
  readonly transport: NodeTransport;

  constructor(req: NodeRequest, res: NodeResponse, url: RequestTarget, options: RequestContextOptions, receivedAt: number) {
    this.method = (req.method ?? 'GET').toUpperCase();
    this.path = url.pathname;
    this.query = url.searchParams;
    this.headers = req.headers;
    this.rawHeaders = req.rawHeaders;
    this.names = options.names;
    this.info = emptyInfo(url.pathname, this.method);
    this.record = createRequestRecord(req.socket?.remoteAddress ?? '', receivedAt);
    this.printerFor = options.printerFor;
    this.transport = new NodeTransport(req, res, options.maxRequestBodyBytes, options.liveRequests);
  }

  get clientCertificates(): readonly Buffer[] {
    return peerCertificates(this.transport.req);
  }

  get signal(): AbortSignal {
    return this.transport.signal();
  }
}

/**
 * Builds the context of one request whose target is already read; `receivedAt` (performance.now()) is when its
 * headers arrived, before any wait in the listener's queue: latency is counted from there, as kube counts it.
 */
export function createRequestContext(
  req: NodeRequest, res: NodeResponse, url: RequestTarget, options: RequestContextOptions, receivedAt = performance.now(),
): RequestContext {
  return new NodeRequestContext(req, res, url, options, receivedAt);
}
