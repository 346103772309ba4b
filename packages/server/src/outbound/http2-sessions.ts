/**
 * HTTP/2 to servers that offer it, as Go's http.Transport with HTTP/2 enabled speaks it (kube-apiserver's webhook
 * clients, and kube-aggregator's transport per APIService): a pool made with `offerHttp2` offers `h2` and
 * `http/1.1` by ALPN on its first connection to an endpoint. When the server picks `h2`, one kept session carries
 * every request to it as concurrent streams (their frames written together), where HTTP/1.1 needs a connection per
 * request in flight; a second session opens beside it when its streams reach the server's
 * `SETTINGS_MAX_CONCURRENT_STREAMS` (long watches hold theirs), as Go's client pool does. A server that picks
 * HTTP/1.1 is remembered for a while and its requests go through the pool's HTTP/1.1 connections; it is asked again
 * later, as Go asks on each new connection. A session ends on GOAWAY, error, or when idle as long as an idle
 * kept-alive connection, and keeps the process alive only while it has open streams.
 *
 * Hand-written over node:http2 and node:tls: no maintained HTTP/2 client library offers ALPN fallback with
 * certificate settings made once per pool (undici's HTTP/2 support is experimental in the versions Node 20 ships).
 */
import { connect as http2Connect, constants, type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { connect as tlsConnect, type PeerCertificate, type SecureContext, type TLSSocket } from 'node:tls';
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

/** Where a request goes: host (an IPv6 address without brackets) and port. */
export interface SessionAuthority {
  readonly host: string;
  readonly port: number;
}

/** A kept session and the streams open on it now. */
export interface Http2Session {
  readonly session: ClientHttp2Session;
  open: number;
  /** The idle timeout fired while streams were open (a quiet watch): it is armed again when they end. */
  idleWhileOpen: boolean;
}

/** How long a connection may take to be made (Go's dialer and TLS handshake bounds, together). */
const connectTimeoutMs = 10_000;

/** How long a server that picked HTTP/1.1 is not asked again. */
const http1RememberedMs = 60_000;

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2) or carries as pseudo-headers. */
const connectionHeaders = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te']);

/** One endpoint of a pool: its sessions, or HTTP/1.1 until a time, and the negotiation under way. */
interface Endpoint {
  readonly sessions: Http2Session[];
  http1Until: number;
  connecting: Promise<Result<Http2Session | 'http/1.1', string>> | undefined;
}

/**
 * Registers `stop`, to be called once when the caller gives up (at once if it has): an abort without an
 * AbortSignal, whose listener bookkeeping costs a short proxied request more than the rest of its stream set-up.
 */
export type AbortHook = (stop: () => void) => void;

/** The message of a stream its caller gave up, as node words an aborted request. */
export const abortedMessage = 'The operation was aborted';

/** What one stream is sent, and how it is bounded. */
export interface StreamRequest {
  readonly method: string;
  /** The path with its query. */
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array;
  /** Ends the stream (a proxied client going away, a caller giving up). */
  readonly signal?: AbortSignal;
  /** Ends the stream as `signal` does, for callers told of their end without a signal ({@link AbortHook}). */
  readonly onAbort?: AbortHook;
  /** Fails the stream with `message` after `ms` without activity, waiting for the answer's head included. */
  readonly idle?: { readonly ms: number; readonly message: string };
  /** Fails the stream with `message` at `at` (a `performance.now()` time), an answer trickling in included. */
  readonly deadline?: { readonly at: number; readonly message: string };
}

/** An answer's head; its body follows on `body` ('data', 'end', 'error', 'close'; pause and resume for backpressure). */
export interface StreamAnswer {
  readonly status: number;
  /** The answer's headers, without pseudo-headers. */
  readonly headers: IncomingHttpHeaders;
  readonly body: ClientHttp2Stream;
}

/** The outcome of a stream: its answer's head, a failure, or `refused` when the server took none of it (safe to retry). */
export type StreamOutcome = Result<StreamAnswer, string> | 'refused';

/** The HTTP/2 endpoints of one pool. */
export class Http2Sessions {
  readonly #endpoints = new Map<string, Endpoint>();

  constructor(readonly settings: SessionSettings) {}

  #endpoint(to: SessionAuthority): Endpoint {
    const key = `${to.host}:${to.port}`;
    let e = this.#endpoints.get(key);
    if (e === undefined) this.#endpoints.set(key, (e = { sessions: [], http1Until: 0, connecting: undefined }));
    return e;
  }

  /** A session to `to` with room for another stream, or `http/1.1` while remembered; undefined when one must be made. */
  current(to: SessionAuthority): Http2Session | 'http/1.1' | undefined {
    const e = this.#endpoints.get(`${to.host}:${to.port}`);
    if (e === undefined) return undefined;
    if (e.http1Until > Date.now()) return 'http/1.1';
    for (const s of e.sessions) {
      if (!s.session.closed && !s.session.destroyed && s.open < (s.session.remoteSettings.maxConcurrentStreams ?? Infinity)) return s;
    }
    return undefined;
  }

  /**
   * A session to `to` with room, or `http/1.1` when the server speaks only that (the caller then uses the pool's
   * agent), or why no connection could be made (the request fails with it, as an HTTP/1.1 one would). Requests
   * that arrive while a connection is being made wait for it.
   */
  async session(to: SessionAuthority): Promise<Result<Http2Session | 'http/1.1', string>> {
    const known = this.current(to);
    if (known !== undefined) return ok(known);
    const e = this.#endpoint(to);
    e.connecting ??= this.#negotiate(to, e).finally(() => {
      e.connecting = undefined;
    });
    return e.connecting;
  }

  /** Forgets a session that refused a stream (closing or out of stream ids), so the next request makes another. */
  drop(to: SessionAuthority, s: Http2Session): void {
    const e = this.#endpoints.get(`${to.host}:${to.port}`);
    const i = e?.sessions.indexOf(s) ?? -1;
    if (i >= 0) e!.sessions.splice(i, 1);
    s.session.close();
  }

  /** Closes every session (streams under way finish) and forgets what endpoints negotiated. */
  close(): void {
    for (const e of this.#endpoints.values()) for (const s of e.sessions) s.session.close();
    this.#endpoints.clear();
  }

  /**
   * Sends one request as a stream of `s`: the answer's head once it comes, a failure (the messages node's client
   * gives), or `refused` when the session sent nothing or the server refused the stream unprocessed.
   */
  open(s: Http2Session, r: StreamRequest): Promise<StreamOutcome> {
    const headers: OutgoingHttpHeaders = { ':method': r.method, ':path': r.path };
    for (const [k, v] of Object.entries(r.headers)) {
      if (v === undefined) continue;
      const name = k.toLowerCase();
      if (!connectionHeaders.has(name)) headers[name] = v;
    }
    let stream: ClientHttp2Stream;
    try {
      stream = s.session.request(headers, { endStream: r.body === undefined, ...(r.signal === undefined ? {} : { signal: r.signal }) });
    } catch (e) {
      // A session closing or out of stream ids sent nothing; otherwise the headers were refused (a bad value, a
      // list for a single-valued header).
      const closing = s.session.closed || s.session.destroyed || (e as { code?: string }).code === 'ERR_HTTP2_OUT_OF_STREAMS';
      return Promise.resolve(closing ? 'refused' : fail((e as Error).message));
    }
    r.onAbort?.(() => stream.destroy(new Error(abortedMessage)));
    const session = s.session;
    if (s.open++ === 0) session.ref();
    const timer = r.deadline === undefined ? undefined : setTimeout(() => stream.destroy(new Error(r.deadline!.message)), Math.max(1, r.deadline.at - performance.now()));
    if (r.idle !== undefined && r.idle.ms > 0) stream.setTimeout(r.idle.ms, () => stream.destroy(new Error(r.idle!.message)));
    stream.once('close', () => {
      clearTimeout(timer);
      if (--s.open > 0 || session.closed || session.destroyed) return;
      session.unref();
      // A timeout that fired while streams were open does not fire again by itself; re-arming only then spares
      // every other request a timer.
      if (s.idleWhileOpen) {
        s.idleWhileOpen = false;
        session.setTimeout(this.settings.idleMs);
      }
    });
    if (r.body !== undefined) stream.end(r.body);
    return new Promise((resolve) => {
      let responded = false;
      stream.once('response', (head) => {
        responded = true;
        const { [constants.HTTP2_HEADER_STATUS]: status, ...rest } = head;
        resolve(ok({ status: Number(status ?? 502), headers: rest as IncomingHttpHeaders, body: stream }));
      });
      /** Before the head: a stream the server refused (REFUSED_STREAM, or cut off by its GOAWAY) was not processed. */
      const unanswered = (message: string): void => {
        if (!responded) resolve(stream.rstCode === constants.NGHTTP2_REFUSED_STREAM ? 'refused' : fail(message));
      };
      // After the head, errors end the body ('close' without 'end'), which its reader sees.
      stream.on('error', (err) => unanswered(err.message));
      stream.once('close', () => unanswered(`stream closed with error code ${stream.rstCode ?? 0}`));
    });
  }

  /** Connects with ALPN `h2, http/1.1` and learns what the endpoint speaks. */
  #negotiate(to: SessionAuthority, e: Endpoint): Promise<Result<Http2Session | 'http/1.1', string>> {
    const { secureContext, serverName, checkServerIdentity, insecureSkipVerify } = this.settings;
    return new Promise((resolve) => {
      const servername = serverName ?? (isIP(to.host) === 0 ? to.host : undefined);
      let socket: TLSSocket;
      try {
        socket = tlsConnect({
          host: to.host, port: to.port, secureContext, ALPNProtocols: ['h2', 'http/1.1'],
          rejectUnauthorized: insecureSkipVerify !== true,
          ...(servername !== undefined ? { servername } : {}),
          ...(checkServerIdentity !== undefined ? { checkServerIdentity } : {}),
        });
      } catch (err) {
        resolve(fail((err as Error).message));
        return;
      }
      socket.once('error', (err) => resolve(fail(err.message)));
      // A server that never completes the handshake must not hold every later request of the endpoint waiting on it.
      socket.setTimeout(connectTimeoutMs, () => socket.destroy(new Error(`TLS handshake with ${to.host}:${to.port} timed out after ${connectTimeoutMs}ms`)));
      socket.once('secureConnect', () => {
        socket.setTimeout(0);
        if (socket.alpnProtocol !== 'h2') {
          socket.destroy();
          e.http1Until = Date.now() + http1RememberedMs;
          resolve(ok('http/1.1'));
          return;
        }
        e.http1Until = 0;
        resolve(ok(this.#start(to, e, socket)));
      });
    });
  }

  /** Starts a session on a socket that negotiated `h2`. */
  #start(to: SessionAuthority, e: Endpoint, socket: TLSSocket): Http2Session {
    const authority = `https://${to.host.includes(':') ? `[${to.host}]` : to.host}:${to.port}`;
    const session = http2Connect(authority, { createConnection: () => socket });
    const s: Http2Session = { session, open: 0, idleWhileOpen: false };
    e.sessions.push(s);
    const forget = (): void => {
      const i = e.sessions.indexOf(s);
      if (i >= 0) e.sessions.splice(i, 1);
    };
    // Streams see a broken session as their own error; the endpoint only forgets it.
    session.on('error', forget);
    session.on('close', forget);
    session.on('goaway', () => {
      forget();
      session.close();
    });
    session.setTimeout(this.settings.idleMs, () => {
      if (s.open > 0) {
        s.idleWhileOpen = true;
        return;
      }
      forget();
      session.close();
    });
    session.unref();
    return s;
  }
}
