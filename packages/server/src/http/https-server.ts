/**
 * The HTTPS listener: node:http2's secure server with HTTP/1.1 fallback, asking for (not requiring) client
 * certificates so mTLS, token and anonymous clients all connect. It turns each request into a
 * {@link RequestContext}, runs the handler chain, and shuts down gracefully: stop accepting, let in-flight
 * requests finish, end long-running ones (watches), then close the connections.
 *
 * Whatever a client sends, the answer is a Status and the process goes on: requests Node's HTTP/1.1 parser
 * refuses, targets that are no URL, headers over kube-apiserver's 1 MiB or over {@link maxHeaderFields} fields,
 * unsupported `Expect` values, and a failure while building a request's context are answered before the chain
 * runs. Sockets send without Nagle's delay: a response leaves as headers and body writes, and the second would
 * otherwise wait for the client's delayed ACK (about 40 ms per request on HTTP/1.1). Request headers must arrive
 * within 32 s, as kube-apiserver's ReadHeaderTimeout.
 */
import { createSecureServer, type Http2SecureServer, type Http2Session } from 'node:http2';
import type { Server as Http1Server } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { internalError, type Names } from '@svc-apiserver/api';
import type { RequestContext } from './context.js';
import { createRequestContext, type NodeRequest, type NodeResponse, type RequestContextOptions } from './request-context.js';
import { createLiveRequests } from './live-requests.js';
import { responded, writeStatus } from './response-writer.js';
import { watchSessionLiveness } from './session-liveness.js';
import { parseRequestTarget, type RequestTarget } from './request-target.js';
import { goesAhead } from './front-lane.js';
import { createTurnScheduler, type TurnScheduler } from './turn-scheduler.js';
import {
  answerOnSocket, expectationFailed, invalidTarget, maxHeaderBytes, maxHeaderFields, parserFailure, tooManyHeaderFields,
  writeBareStatus,
} from './bare-status.js';

/** The accept queue asked for: more than any kernel grants, so it gets net.core.somaxconn. */
const listenBacklog = 65535;

/** kube-apiserver's ReadHeaderTimeout. */
const headersTimeoutMs = 32_000;

/** The header fields of a request, pseudo-headers of HTTP/2 not counted. */
function headerFieldCount(req: NodeRequest): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (!req.rawHeaders[i]!.startsWith(':')) n++;
  return n;
}

/** Options of the listener. */
export interface HttpsServerOptions {
  readonly host: string;
  /** 0 picks an ephemeral port. */
  readonly port: number;
  readonly certPem: string;
  readonly keyPem: string;
  /** CA certificates whose names are sent in the client-certificate request. */
  readonly clientCaPem: string;
  readonly names: Names;
  readonly maxRequestBodyBytes: number;
  readonly handler: (ctx: RequestContext) => Promise<void>;
  /** The Table printer of a resource request's resource when it has its own (custom resources). */
  readonly printerFor?: RequestContextOptions['printerFor'];
  /** Reports failures outside any request (TLS errors are not reported: clients cause them). */
  readonly log: (message: string, error?: unknown) => void;
  /**
   * The lane of the turn scheduler requests wait in until the chain runs for them (default: a scheduler of its own);
   * the server passes the urgent lane, ahead of the admitted work flow control runs on the deferred one.
   */
  readonly scheduler?: TurnScheduler;
}

/** A listening server. */
export interface HttpsServer {
  readonly port: number;
  /** Replaces the CA certificates whose names are sent in the client-certificate request (new connections). */
  setClientCas(pem: string): void;
  /**
   * Graceful stop: no new connections, long-running requests are told to end (their signal aborts), in-flight
   * requests get up to `timeoutMs` to finish, then every connection is closed.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** Starts listening; resolves once the port is bound. */
export async function startHttpsServer(options: HttpsServerOptions): Promise<HttpsServer> {
  const liveRequests = createLiveRequests();
  const contextOptions: RequestContextOptions = {
    names: options.names,
    maxRequestBodyBytes: options.maxRequestBodyBytes,
    liveRequests,
    ...(options.printerFor !== undefined ? { printerFor: options.printerFor } : {}),
  };
  // The queue of requests that do not go ahead: the filter chain runs for them in budgeted slices of later turns.
  const front = options.scheduler ?? createTurnScheduler();
  const sockets = new Set<TLSSocket>();
  const sessions = new Set<Http2Session>();
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];

  const onRequest = (req: NodeRequest, res: NodeResponse): void => {
    const receivedAt = performance.now();
    inFlight++;
    let counted = true;
    const done = (): void => {
      if (!counted) return;
      counted = false;
      inFlight--;
      if (inFlight === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
    };
    res.on('close', done);
    res.on('finish', done);
    if (headerFieldCount(req) > maxHeaderFields) return writeBareStatus(res, tooManyHeaderFields());
    const raw = req.url ?? '/';
    const target = parseRequestTarget(raw);
    if (target === undefined) return writeBareStatus(res, invalidTarget(raw));
    if (goesAhead(req, target.pathname)) return serve(req, res, target, receivedAt);
    // Queued for a slice of a later turn (see front-lane.ts); a request whose client left meanwhile is not served.
    void front.run(async () => {
      if (counted) serve(req, res, target, receivedAt);
    });
  };

  const serve = (req: NodeRequest, res: NodeResponse, target: RequestTarget, receivedAt: number): void => {
    let ctx: RequestContext;
    let served: Promise<void>;
    try {
      ctx = createRequestContext(req, res, target, contextOptions, receivedAt);
      served = options.handler(ctx);
    } catch (error) {
      options.log(`panic serving ${req.method ?? ''} ${target.pathname}`, error);
      return writeBareStatus(res, internalError('an unexpected error occurred while serving the request'));
    }
    const unanswered = (why: string, error?: unknown): void => {
      options.log(`${why} for ${ctx.method} ${ctx.path}`, error);
      if (!responded(ctx)) writeStatus(ctx, internalError('an unexpected error occurred while serving the request'));
      else if (!res.writableEnded) res.destroy();
    };
    served.then(
      // A handler that returns without answering is a bug; do not leave the client hanging.
      () => (responded(ctx) || res.writableEnded ? undefined : unanswered('no response written')),
      (error: unknown) => {
        try {
          unanswered('unhandled failure', error);
        } catch (again) {
          options.log('answering a failed request failed too', again);
          res.destroy();
        }
      },
    );
  };

  const server: Http2SecureServer = createSecureServer({
    cert: options.certPem,
    key: options.keyPem,
    ca: options.clientCaPem,
    allowHTTP1: true,
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.2',
    noDelay: true,
    // HTTP/2 header lists up to kube's 1 MiB; the field count is checked per request (431) rather than by a reset.
    settings: { maxHeaderListSize: maxHeaderBytes },
    maxHeaderListPairs: Math.floor(maxHeaderBytes / 32),
    // Node's default of 10 MB per session refuses new streams (ENHANCE_YOUR_CALM, no answer) once a few bodies at
    // the 3 MiB limit are in flight on one connection, as kubectl's single connection may carry.
    maxSessionMemory: 64,
  });
  // The HTTP/1.1 side of the server takes these from the server object.
  const http1 = server as unknown as Http1Server & { maxHeaderSize: number };
  http1.maxHeaderSize = maxHeaderBytes;
  http1.maxHeadersCount = maxHeaderFields + 1;
  http1.headersTimeout = headersTimeoutMs;
  server.on('request', onRequest);
  server.on('clientError', (error: Error, socket: Socket) => answerOnSocket(socket, parserFailure(error)));
  server.on('checkExpectation', (req: NodeRequest, res: NodeResponse) => {
    writeBareStatus(res, expectationFailed(String(req.headers.expect ?? '')));
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Every accepted connection, handshake done or not: one still in its TLS handshake when the server closes is
  // not among `sockets`, and would keep `server.close` waiting for ever.
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => {});
    watchSessionLiveness(session);
  });
  server.on('tlsClientError', () => {});
  server.on('sessionError', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Node asks the kernel for an accept queue of 511; Go's listeners (kube-apiserver's) ask for as many as the kernel
    // allows, which it caps at net.core.somaxconn. With 511, a burst of new connections overflows the queue and the
    // kernel drops their SYNs: those clients (a liveness probe among them) wait for SYN retransmission, 1 s, 3 s, 7 s.
    server.listen({ port: options.port, host: options.host, backlog: listenBacklog }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (e) => options.log('server error', e));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;

  let closing: Promise<void> | undefined;
  return {
    port,
    setClientCas(pem) {
      server.setSecureContext({ cert: options.certPem, key: options.keyPem, ca: pem, minVersion: 'TLSv1.2' });
    },
    close(timeoutMs = 30_000): Promise<void> {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Long-running requests end when their signal aborts; ordinary ones are left to finish.
        liveRequests.abortAll();
        for (const s of sessions) s.close();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            idleWaiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        for (const s of sessions) s.destroy();
        for (const s of sockets) s.destroy();
        for (const s of connections) s.destroy();
        await closed;
      })();
      return closing;
    },
  };
}
