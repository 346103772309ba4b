/**
 * Test support: an HTTPS server on 127.0.0.1 (ephemeral port) with its own CA, answering JSON posts through a
 * handler the test gives, recording what it was sent, by whom (client certificate CN, Authorization header) and
 * over which HTTP version. It speaks HTTP/1.1 only, or with `http2` offers HTTP/2 beside it by ALPN. Webhook
 * backends in admission tests are these real servers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createCa, issueLeaf, type CertAndKey } from '../../pki/certificates.js';

/** One request the server received. */
export interface ReceivedRequest {
  readonly path: string;
  readonly body: unknown;
  readonly authorization?: string;
  readonly clientCn?: string;
  /** `1.1` or `2.0`. */
  readonly httpVersion: string;
  /** The client's port: requests over one connection share it. */
  readonly remotePort?: number;
}

/** What a handler answers: a status, a JSON body (or raw text), or nothing until `delayMs` passed. */
export interface Answer {
  readonly status?: number;
  readonly json?: unknown;
  readonly raw?: string;
  readonly delayMs?: number;
}

/** A running server. */
export interface TestHttpsServer {
  readonly url: string;
  readonly port: number;
  readonly ca: CertAndKey;
  /** The CA as a clientConfig's `caBundle` (base64 PEM). */
  readonly caBundle: string;
  readonly received: ReceivedRequest[];
  /** Replaces the handler. */
  handle(handler: (req: ReceivedRequest) => Answer | Promise<Answer>): void;
  close(): Promise<void>;
}

/** Options of a test server. */
export interface TestHttpsServerOptions {
  /** Offer HTTP/2 by ALPN beside HTTP/1.1. */
  readonly http2?: boolean;
}

/** Starts a server whose certificate names 127.0.0.1 and `dnsNames`. */
export async function startTestHttpsServer(dnsNames: readonly string[] = [], options: TestHttpsServerOptions = {}): Promise<TestHttpsServer> {
  const ca = await createCa('webhook-test-ca');
  const serving = await issueLeaf(ca, { commonName: 'webhook', usage: 'server', sans: ['127.0.0.1', ...dnsNames] });
  const received: ReceivedRequest[] = [];
  let handler: (req: ReceivedRequest) => Answer | Promise<Answer> = () => ({ status: 404, json: {} });
  const timers = new Set<NodeJS.Timeout>();
  const tls = { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false };
  const respond = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = Buffer.concat(chunks).toString('utf8');
          }
          const peer = (req.socket as TLSSocket).getPeerCertificate?.();
          const got: ReceivedRequest = {
            path: req.url ?? '', body,
            ...(req.headers.authorization !== undefined ? { authorization: req.headers.authorization } : {}),
            ...(peer?.subject?.CN !== undefined ? { clientCn: String(peer.subject.CN) } : {}),
            httpVersion: req.httpVersion,
            ...(req.socket.remotePort !== undefined ? { remotePort: req.socket.remotePort } : {}),
          };
          received.push(got);
          const answer = await handler(got);
          const send = () => {
            if (res.destroyed || ('stream' in res && res.stream.destroyed)) return;
            res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
            res.end(answer.raw ?? JSON.stringify(answer.json ?? {}));
          };
          if (answer.delayMs === undefined) send();
          else {
            const t = setTimeout(() => {
              timers.delete(t);
              send();
            }, answer.delayMs);
            timers.add(t);
          }
        })();
      });
  };
  const server = options.http2 === true ? createSecureServer({ ...tls, allowHTTP1: true }, respond) : createServer(tls, respond);
  // Every connection, of either version, is cut when the test closes the server.
  const sockets = new Set<TLSSocket>();
  server.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`, port, ca, caBundle: Buffer.from(ca.certPem).toString('base64'), received,
    handle(h) {
      handler = h;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
