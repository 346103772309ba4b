/**
 * A transport that speaks HTTP/2 to servers offering it by ALPN and HTTP/1.1 to the others, as Go's http.Transport
 * does with HTTP/2 enabled (kube-aggregator keeps one such transport per APIService): the first request to an
 * endpoint connects with ALPN `h2, http/1.1`; when the server picks `h2`, every later request to that endpoint is a
 * stream of one kept session (many requests in flight share one TLS connection, their frames written together),
 * otherwise the endpoint's requests go through the target's keep-alive HTTP/1.1 pool. A session is opened anew when
 * it ends (GOAWAY, error, idle) and a second one beside it when its streams reach the server's
 * `SETTINGS_MAX_CONCURRENT_STREAMS` (long watches hold theirs), as Go's client pool does.
 *
 * Hand-written over node:http2 and node:tls: no maintained HTTP/2 client library offers ALPN fallback with
 * certificate settings made once per transport (undici's HTTP/2 support is experimental in the versions Node 20
 * ships with).
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { connect as http2Connect, constants as http2Constants, type ClientHttp2Session } from 'node:http2';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { fail, ok, type Result } from '@svc-apiserver/api';
import { idleConnectionMs, pooledTlsOptions } from './connection-pool.js';
import { openHttpsRequest, type HttpsTarget, type RequestUrl } from './https-request.js';

/** An answer's head; its body follows on `body`. */
export interface ExchangeResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body as it arrives ('data', 'end', 'error', 'close'; pause and resume for backpressure). */
  readonly body: Readable;
  /** The protocol the answer came by: `2` or `1.1`. */
  readonly httpVersion: '2' | '1.1';
}

/** What a request of {@link NegotiatedTransport.request} carries. */
export interface ExchangeRequest {
  readonly method: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: Uint8Array;
  /** Ends the exchange (a proxied client going away). */
  readonly signal?: AbortSignal;
}

/** One HTTP/2-capable transport (one per TLS settings, like the HTTP/1.1 pool beside it). */
export interface NegotiatedTransport {
  /** Sends a request; the answer's head, or why none came (the messages node's clients give). */
  request(url: RequestUrl, request: ExchangeRequest): Promise<Result<ExchangeResponse, string>>;
  /** Closes its sessions (streams under way finish). */
  close(): void;
}

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2) or carries as pseudo-headers. */
const connectionHeaders = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te']);

/** A session and the streams it carries now. */
interface Session {
  readonly session: ClientHttp2Session;
  open: number;
}

/** What an endpoint speaks: learnt on its first connection. */
type Endpoint = { readonly kind: 'http1' } | { readonly kind: 'h2'; readonly sessions: Session[] };

/** The connection options of a target: its pool's (secure context made once), or made from its settings. */
function tlsOptionsOf(target: HttpsTarget, host: string) {
  const pooled = pooledTlsOptions(target);
  if (pooled !== undefined) return pooled;
  return {
    ...(target.ca !== undefined ? { ca: target.ca } : {}),
    ...(target.cert !== undefined ? { cert: target.cert } : {}),
    ...(target.key !== undefined ? { key: target.key } : {}),
    rejectUnauthorized: target.insecureSkipVerify !== true,
    ...(target.serverName !== undefined ? { servername: target.serverName } : isIP(host) === 0 ? { servername: host } : {}),
  };
}

/** Connects with ALPN `h2, http/1.1`; the socket once its handshake is done. */
function connectTls(target: HttpsTarget, url: RequestUrl): Promise<Result<TLSSocket, string>> {
  return new Promise((resolve) => {
    let socket: TLSSocket;
    try {
      socket = tlsConnect({ host: url.host, port: url.port, ALPNProtocols: ['h2', 'http/1.1'], ...tlsOptionsOf(target, url.host) });
    } catch (e) {
      // Settings that do not parse (a bad CA bundle or key) throw here, as they fail the HTTP/1.1 request.
      resolve(fail((e as Error).message));
      return;
    }
    const onError = (e: Error): void => resolve(fail(e.message));
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      socket.off('error', onError);
      resolve(ok(socket));
    });
  });
}

/** The transport of `target` (its TLS settings, pooled; no timeout: proxied watches are long). */
export function negotiatedTransport(target: HttpsTarget): NegotiatedTransport {
  const endpoints = new Map<string, Endpoint>();
  /** Connections being made per endpoint, so that concurrent first requests share one. */
  const connecting = new Map<string, Promise<Result<Endpoint, string>>>();

  const startSession = (id: string, url: RequestUrl, socket: TLSSocket, endpoint: Extract<Endpoint, { kind: 'h2' }>): Session => {
    const host = url.host.includes(':') ? `[${url.host}]` : url.host;
    const session = http2Connect(`https://${host}:${url.port}`, { createConnection: () => socket });
    const entry: Session = { session, open: 0 };
    endpoint.sessions.push(entry);
    const forget = (): void => {
      const i = endpoint.sessions.indexOf(entry);
      if (i >= 0) endpoint.sessions.splice(i, 1);
      if (endpoint.sessions.length === 0 && endpoints.get(id) === endpoint) endpoints.delete(id);
    };
    session.on('goaway', forget);
    session.on('close', forget);
    // Errors end the session (its streams fail with them); the next request connects anew.
    session.on('error', forget);
    // An idle session closes as an idle kept-alive connection does, and keeps no process alive meanwhile.
    session.setTimeout(idleConnectionMs, () => {
      if (entry.open > 0) return;
      forget();
      session.close();
    });
    session.unref();
    return entry;
  };

  /** Connects to an endpoint and learns what it speaks. */
  const connectEndpoint = (id: string, url: RequestUrl): Promise<Result<Endpoint, string>> => {
    let pending = connecting.get(id);
    if (pending === undefined) {
      pending = connectTls(target, url).then((socket) => {
        connecting.delete(id);
        if (!socket.ok) return socket;
        if (socket.value.alpnProtocol !== 'h2') {
          // The server speaks HTTP/1.1: its requests go through the keep-alive pool from now on.
          socket.value.destroy();
          const endpoint: Endpoint = { kind: 'http1' };
          endpoints.set(id, endpoint);
          return ok(endpoint);
        }
        const known = endpoints.get(id);
        const endpoint = known?.kind === 'h2' ? known : { kind: 'h2' as const, sessions: [] };
        endpoints.set(id, endpoint);
        startSession(id, url, socket.value, endpoint);
        return ok(endpoint);
      });
      connecting.set(id, pending);
    }
    return pending;
  };

  /** A session of the endpoint with room for another stream; undefined when all are full (or none is left). */
  const sessionWithRoom = (endpoint: Extract<Endpoint, { kind: 'h2' }>): Session | undefined =>
    endpoint.sessions.find((s) => !s.session.closed && !s.session.destroyed && s.open < (s.session.remoteSettings.maxConcurrentStreams ?? Infinity));

  const http1 = (url: RequestUrl, request: ExchangeRequest): Promise<Result<ExchangeResponse, string>> => {
    const opened = openHttpsRequest(url, {
      method: request.method, headers: request.headers, target, ...(request.signal !== undefined ? { signal: request.signal } : {}),
    });
    if (!opened.ok) return Promise.resolve(opened);
    const req = opened.value;
    return new Promise((resolve) => {
      req.on('response', (res) => resolve(ok({ status: res.statusCode ?? 502, headers: res.headers, body: res, httpVersion: '1.1' })));
      // After the answer began, errors end its body ('close' without 'end'), which the caller sees.
      req.on('error', (e) => resolve(fail(e.message)));
      req.end(request.body);
    });
  };

  const h2 = (session: Session, url: RequestUrl, request: ExchangeRequest): Promise<Result<ExchangeResponse, string>> => {
    const headers: OutgoingHttpHeaders = { ':method': request.method, ':path': url.path };
    for (const [k, v] of Object.entries(request.headers)) if (v !== undefined && !connectionHeaders.has(k.toLowerCase())) headers[k.toLowerCase()] = v;
    let stream;
    try {
      stream = session.session.request(headers, {
        endStream: request.body === undefined, ...(request.signal !== undefined ? { signal: request.signal } : {}),
      });
    } catch (e) {
      // Header values HTTP/2 refuses (a list for a single-valued header), or a session that just closed.
      return Promise.resolve(fail((e as Error).message));
    }
    if (session.open++ === 0) session.session.ref();
    stream.once('close', () => {
      if (--session.open > 0 || session.session.closed) return;
      session.session.unref();
      // Re-armed: a timeout that fired while streams were open (a quiet watch) does not fire again by itself.
      session.session.setTimeout(idleConnectionMs);
    });
    if (request.body !== undefined) stream.end(request.body);
    return new Promise((resolve) => {
      stream.once('response', (head) => {
        const { [http2Constants.HTTP2_HEADER_STATUS]: status, ...rest } = head;
        resolve(ok({ status: Number(status ?? 502), headers: rest as IncomingHttpHeaders, body: stream, httpVersion: '2' }));
      });
      stream.on('error', (e) => resolve(fail(e.message)));
      // A stream reset without an error (the server refused it) ends before any answer.
      stream.once('close', () => resolve(fail(`stream closed with code ${stream.rstCode ?? 0}`)));
    });
  };

  return {
    async request(url, request) {
      const id = `${url.host}|${url.port}`;
      let endpoint = endpoints.get(id);
      if (endpoint === undefined) {
        const connected = await connectEndpoint(id, url);
        if (!connected.ok) return connected;
        endpoint = connected.value;
      }
      if (endpoint.kind === 'http1') return http1(url, request);
      let session = sessionWithRoom(endpoint);
      if (session === undefined) {
        const socket = await connectTls(target, url);
        if (!socket.ok) return socket;
        if (socket.value.alpnProtocol !== 'h2') {
          socket.value.destroy();
          endpoints.set(id, { kind: 'http1' });
          return http1(url, request);
        }
        session = startSession(id, url, socket.value, endpoint);
        if (!endpoints.has(id)) endpoints.set(id, endpoint);
      }
      return h2(session, url, request);
    },
    close() {
      for (const endpoint of endpoints.values()) if (endpoint.kind === 'h2') for (const s of endpoint.sessions) s.session.close();
      endpoints.clear();
    },
  };
}
