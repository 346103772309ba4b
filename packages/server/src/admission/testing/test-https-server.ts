/**
 * Test support: an HTTPS server on 127.0.0.1 (ephemeral port) with its own CA, answering JSON posts through a
 * handler the test gives, recording what it was sent and by whom (client certificate CN, Authorization header).
 * Webhook backends in admission tests are these real servers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createCa, issueLeaf, type CertAndKey } from '../../pki/certificates.js';

/** One request the server received. */
export interface ReceivedRequest {
  readonly path: string;
  readonly body: unknown;
  readonly authorization?: string;
  readonly clientCn?: string;
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

/** Starts a server whose certificate names 127.0.0.1 and `dnsNames`. */
export async function startTestHttpsServer(dnsNames: readonly string[] = []): Promise<TestHttpsServer> {
  const ca = await createCa('webhook-test-ca');
  const serving = await issueLeaf(ca, { commonName: 'webhook', usage: 'server', sans: ['127.0.0.1', ...dnsNames] });
  const received: ReceivedRequest[] = [];
  let handler: (req: ReceivedRequest) => Answer | Promise<Answer> = () => ({ status: 404, json: {} });
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false },
    (req: IncomingMessage, res: ServerResponse) => {
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
          };
          received.push(got);
          const answer = await handler(got);
          const send = () => {
            if (res.destroyed) return;
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
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
