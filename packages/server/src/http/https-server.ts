/**
 * The HTTPS listener: node:http2's secure server with HTTP/1.1 fallback, asking for (not requiring) client
 * certificates so mTLS, token and anonymous clients all connect. It turns each request into a
 * {@link RequestContext}, runs the handler chain, and shuts down gracefully: stop accepting, let in-flight
 * requests finish, end long-running ones (watches), then close the connections.
 */
import { createSecureServer, type Http2SecureServer, type Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Names } from '@svc-apiserver/api';
import type { RequestContext } from './context.js';
import { createRequestContext, type NodeRequest, type NodeResponse, type RequestContextOptions } from './request-context.js';
import { createLiveRequests } from './live-requests.js';
import { watchSessionLiveness } from './session-liveness.js';

/** The accept queue asked for: more than any kernel grants, so it gets net.core.somaxconn. */
const listenBacklog = 65535;

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
  const sockets = new Set<TLSSocket>();
  const sessions = new Set<Http2Session>();
  let inFlight = 0;
  let idleWaiters: (() => void)[] = [];

  const onRequest = (req: NodeRequest, res: NodeResponse): void => {
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
    const ctx = createRequestContext(req, res, {
      names: options.names,
      maxRequestBodyBytes: options.maxRequestBodyBytes,
      liveRequests,
      ...(options.printerFor !== undefined ? { printerFor: options.printerFor } : {}),
    });
    options.handler(ctx).then(
      () => {
        // A handler that returns without answering is a bug; do not leave the client hanging.
        if (!ctx.responded && !res.writableEnded) {
          options.log(`no response written for ${ctx.method} ${ctx.path}`);
          res.statusCode = 500;
          res.end();
        }
      },
      (error: unknown) => {
        options.log(`unhandled failure serving ${ctx.method} ${ctx.path}`, error);
        if (!res.writableEnded) {
          if (!ctx.responded) res.statusCode = 500;
          res.end();
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
  });
  server.on('request', onRequest);
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
