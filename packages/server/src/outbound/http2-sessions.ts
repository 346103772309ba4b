/**
 * HTTP/2 to servers that offer it, as Go's transport (and so kube-apiserver's webhook clients) speaks it: a pool
 * made with `offerHttp2` offers `h2` and `http/1.1` by ALPN on its first connection to a server. When the server
 * picks `h2`, that one connection carries every call to it as concurrent streams, where HTTP/1.1 needs a
 * connection per call in flight and a request object, parser and agent bookkeeping per call. A server that picks
 * HTTP/1.1 is remembered for a while and its calls go through the pool's HTTP/1.1 connections; it is asked again
 * later, as Go asks on each new connection. A session idle as long as an idle kept-alive connection closes.
 */
import { connect as http2Connect, constants, type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { connect as tlsConnect, type PeerCertificate, type SecureContext } from 'node:tls';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** How a pool connects (its TLS settings, connection-pool.ts, made into a secure context). */
export interface SessionSettings {
  readonly secureContext: SecureContext;
  /** The name the certificate must carry instead of the host, and the check of it. */
  readonly serverName?: string;
  readonly checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined;
  readonly insecureSkipVerify?: boolean;
  /** How long a session without streams stays open. */
  readonly idleMs: number;
}

/** Where a call goes: host (an IPv6 address without brackets) and port. */
export interface SessionAuthority {
  readonly host: string;
  readonly port: number;
}

/** A server's protocol as last negotiated: a session to send streams on, or HTTP/1.1 until a time. */
type Negotiated = { readonly session: ClientHttp2Session } | { readonly http1Until: number };

/** How long a connection may take to be made (Go's dialer and TLS handshake bounds, together). */
const connectTimeoutMs = 10_000;

/** How long a server that picked HTTP/1.1 is not asked again. */
const http1RememberedMs = 60_000;

/** One server of a pool: what it negotiated, or the negotiation under way. */
interface Endpoint {
  negotiated: Negotiated | undefined;
  connecting: Promise<Result<Negotiated, string>> | undefined;
  /** Streams open on the session (the session keeps the process alive only while there are some). */
  active: number;
}

/** The HTTP/2 endpoints of one pool. */
export class Http2Sessions {
  readonly #endpoints = new Map<string, Endpoint>();

  constructor(readonly settings: SessionSettings) {}

  #endpoint(key: string): Endpoint {
    let e = this.#endpoints.get(key);
    if (e === undefined) this.#endpoints.set(key, (e = { negotiated: undefined, connecting: undefined, active: 0 }));
    return e;
  }

  /** The session to `to` or `http/1.1` as already negotiated and still good, or undefined when it must be negotiated. */
  current(to: SessionAuthority): ClientHttp2Session | 'http/1.1' | undefined {
    const e = this.#endpoints.get(`${to.host}:${to.port}`);
    const n = e?.negotiated;
    if (n === undefined) return undefined;
    if ('session' in n) return n.session.closed || n.session.destroyed ? undefined : n.session;
    return n.http1Until > Date.now() ? 'http/1.1' : undefined;
  }

  /**
   * The session to `to`, or `http/1.1` when the server speaks only that (the caller then uses the pool's agent),
   * or why no connection could be made (the call fails with it, as an HTTP/1.1 call would). Calls that arrive while
   * a connection is being made wait for it.
   */
  async session(to: SessionAuthority): Promise<Result<ClientHttp2Session | 'http/1.1', string>> {
    const known = this.current(to);
    if (known !== undefined) return ok(known);
    const e = this.#endpoint(`${to.host}:${to.port}`);
    e.negotiated = undefined;
    e.connecting ??= this.#negotiate(to, e).finally(() => {
      e.connecting = undefined;
    });
    const r = await e.connecting;
    if (!r.ok) return r;
    return ok('session' in r.value ? r.value.session : 'http/1.1');
  }

  /** Marks a stream open on `to`'s session (kept referenced) until `done` is called. */
  track(to: SessionAuthority, session: ClientHttp2Session): () => void {
    const e = this.#endpoint(`${to.host}:${to.port}`);
    if (e.active++ === 0) session.ref();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--e.active === 0 && !session.destroyed) session.unref();
    };
  }

  /** Forgets a session that refused a stream (closing or out of stream ids), so the next call makes another. */
  drop(to: SessionAuthority, session: ClientHttp2Session): void {
    const e = this.#endpoints.get(`${to.host}:${to.port}`);
    if (e?.negotiated !== undefined && 'session' in e.negotiated && e.negotiated.session === session) e.negotiated = undefined;
    session.close();
  }

  #negotiate(to: SessionAuthority, e: Endpoint): Promise<Result<Negotiated, string>> {
    const { secureContext, idleMs, serverName, checkServerIdentity, insecureSkipVerify } = this.settings;
    return new Promise((resolve) => {
      const servername = serverName ?? (isIP(to.host) === 0 ? to.host : undefined);
      const socket = tlsConnect({
        host: to.host, port: to.port, secureContext, ALPNProtocols: ['h2', 'http/1.1'],
        rejectUnauthorized: insecureSkipVerify !== true,
        ...(servername !== undefined ? { servername } : {}),
        ...(checkServerIdentity !== undefined ? { checkServerIdentity } : {}),
      });
      socket.once('error', (err) => resolve(fail(err.message)));
      // A server that never completes the handshake must not hold every later call of the endpoint waiting on it.
      socket.setTimeout(connectTimeoutMs, () => socket.destroy(new Error(`TLS handshake with ${to.host}:${to.port} timed out after ${connectTimeoutMs}ms`)));
      socket.once('secureConnect', () => {
        socket.setTimeout(0);
        if (socket.alpnProtocol !== 'h2') {
          socket.destroy();
          const negotiated = { http1Until: Date.now() + http1RememberedMs };
          e.negotiated = negotiated;
          resolve(ok(negotiated));
          return;
        }
        const authority = `https://${to.host.includes(':') ? `[${to.host}]` : to.host}:${to.port}`;
        const session = http2Connect(authority, { createConnection: () => socket });
        const forget = (): void => {
          if (e.negotiated !== undefined && 'session' in e.negotiated && e.negotiated.session === session) e.negotiated = undefined;
        };
        // Streams see a broken session as their own error; the endpoint only forgets it.
        session.on('error', forget);
        session.on('close', forget);
        session.on('goaway', () => {
          forget();
          session.close();
        });
        session.setTimeout(idleMs, () => {
          if (e.active === 0) session.close();
        });
        session.unref();
        const negotiated = { session };
        e.negotiated = negotiated;
        resolve(ok(negotiated));
      });
    });
  }
}

/** A buffered HTTP/2 answer. */
export interface Http2Response {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** What one stream is sent, and how it is bounded. */
export interface StreamRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array;
  /** Largest answer body; a larger one fails with `tooLarge`. */
  readonly maxBytes: number;
  readonly tooLarge: string;
  /** Fails with `deadlineMessage` after this long, the answer trickling in included. */
  readonly deadlineMs?: number;
  readonly deadlineMessage: string;
  /** Fails with `idleMessage` after this long without activity (when there is no deadline). */
  readonly idleMs?: number;
  readonly idleMessage: string;
  readonly signal?: AbortSignal;
}

/** The outcome of a stream: its answer, a failure, or `refused` when the server took none of it (safe to retry). */
export type StreamOutcome = Result<Http2Response, string> | 'refused';

/** Sends one request as a stream of `session` and buffers the answer. */
export function sendStream(session: ClientHttp2Session, r: StreamRequest): Promise<StreamOutcome> {
  let stream: ClientHttp2Stream;
  try {
    stream = session.request({ ':method': r.method, ':path': r.path, ...r.headers }, r.signal === undefined ? {} : { signal: r.signal });
  } catch (e) {
    // A session closing or out of stream ids sent nothing; otherwise the headers were refused (a bad value).
    return Promise.resolve(session.closed || session.destroyed || (e as { code?: string }).code === 'ERR_HTTP2_OUT_OF_STREAMS' ? 'refused' : fail((e as Error).message));
  }
  return new Promise((resolve) => {
    let settled = false;
    let responded = false;
    /** Ends the call; a call given up early also cancels its stream. */
    const settle = (outcome: StreamOutcome, cancel = true): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (cancel && !stream.closed) stream.close(constants.NGHTTP2_CANCEL);
      resolve(outcome);
    };
    const timer = r.deadlineMs === undefined ? undefined : setTimeout(() => settle(fail(r.deadlineMessage)), r.deadlineMs);
    if (r.deadlineMs === undefined && r.idleMs !== undefined && r.idleMs > 0) stream.setTimeout(r.idleMs, () => settle(fail(r.idleMessage)));
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('response', (h) => {
      responded = true;
      status = Number(h[':status'] ?? 0);
      headers = h;
    });
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > r.maxBytes) {
        settle(fail(r.tooLarge));
        return;
      }
      chunks.push(c);
    });
    stream.on('end', () => settle(ok({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) }), false));
    stream.on('error', (err) => settle(fail(err.message)));
    stream.on('close', () => {
      // A stream the server refused (REFUSED_STREAM, or cut off by its GOAWAY) was not processed.
      if (!responded && stream.rstCode === constants.NGHTTP2_REFUSED_STREAM) settle('refused');
      else settle(fail(`stream closed with error code ${stream.rstCode}`));
    });
    stream.end(r.body);
  });
}
