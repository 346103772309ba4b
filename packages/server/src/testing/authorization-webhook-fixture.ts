/**
 * A SubjectAccessReview webhook for tests: HTTPS on 127.0.0.1 on an ephemeral port, answering each review with
 * what `answer` decides, recording every review received. Stopped by `close`.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookKubeconfig, type TestTls } from './auth-fixtures.js';

/** A received review. */
export interface ReceivedReview {
  readonly apiVersion: string;
  readonly kind: string;
  readonly spec: Record<string, unknown>;
  readonly authorization?: string;
}

/** The webhook's reply: a review status, or a raw HTTP answer (to test failures). */
export type ReviewReply =
  | { readonly status: Record<string, unknown> }
  | { readonly httpStatus: number; readonly body: string };

/** A running authorization webhook. */
export interface TestAuthorizationWebhook {
  readonly reviews: ReceivedReview[];
  /** Path of a kubeconfig-format connection file for it (removed by `close`). */
  readonly configFile: string;
  close(): Promise<void>;
}

/** Starts the webhook; `token` is the bearer token the connection file makes the server send. */
export async function startAuthorizationWebhook(tls: TestTls, answer: (review: ReceivedReview) => ReviewReply, token?: string): Promise<TestAuthorizationWebhook> {
  const reviews: ReceivedReview[] = [];
  const server = createServer({ cert: tls.serving.certPem, key: tls.serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedReview;
      const review = { ...parsed, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) };
      reviews.push(review);
      const reply = answer(review);
      res.setHeader('content-type', 'application/json');
      if ('httpStatus' in reply) {
        res.statusCode = reply.httpStatus;
        res.end(reply.body);
        return;
      }
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: reply.status }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`;
  const dir = mkdtempSync(join(tmpdir(), 'authz-webhook-'));
  const configFile = join(dir, 'webhook.kubeconfig');
  writeFileSync(configFile, webhookKubeconfig(url, tls.ca.certPem, token));
  return {
    reviews,
    configFile,
    close: async () => {
      rmSync(dir, { recursive: true, force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
