import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTls, webhookKubeconfig, type TestTls } from '../testing/auth-fixtures.js';
import { loadWebhookConnection } from '../outbound/webhook-connection.js';
import { auditMetrics } from './audit-metrics.js';
import { startWebhookBackend } from './webhook-backend.js';
import { testEvent } from '../testing/audit-events.js';

interface Received {
  readonly authorization: string | undefined;
  readonly body: { kind: string; apiVersion: string; items: { auditID: string }[] };
  readonly at: number;
}

let tls: TestTls;
let server: Server;
let dir: string;
const received: Received[] = [];
/** The status the receiver answers next (then 200). */
const answers: number[] = [];

before(async () => {
  tls = await testTls('audit-webhook-ca');
  server = createServer({ cert: tls.serving.certPem, key: tls.serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = answers.shift() ?? 200;
      if (status === 200) received.push({ authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), at: performance.now() });
      res.statusCode = status;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  dir = mkdtempSync(join(tmpdir(), 'audit-webhook-'));
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function connection() {
  const file = join(dir, 'webhook.kubeconfig');
  writeFileSync(file, webhookKubeconfig(`https://127.0.0.1:${(server.address() as AddressInfo).port}/audit`, tls.ca.certPem, 'audit-token'));
  const c = loadWebhookConnection(file);
  assert.ok(c.ok);
  return c.ok ? c.value : (undefined as never);
}

test('audit webhook: EventLists of at most maxBatchSize over HTTPS with the configured credentials, throttled', async () => {
  received.length = 0;
  const backend = startWebhookBackend({
    connection: connection(), apiVersion: 'audit.svc.io/v1', initialBackoffMs: 10, log: () => {},
    batch: { bufferSize: 100, maxBatchSize: 10, maxBatchWaitMs: 20, throttleQps: 20, throttleBurst: 1 },
  });
  const started = performance.now();
  for (let i = 0; i < 25; i++) backend.processEvents([testEvent(i)]);
  await backend.shutdown();
  assert.deepEqual(received.map((r) => r.body.items.length), [10, 10, 5]);
  assert.deepEqual(received.flatMap((r) => r.body.items.map((e) => e.auditID)), Array.from({ length: 25 }, (_, i) => `id-${i}`));
  assert.ok(received.every((r) => r.body.kind === 'EventList' && r.body.apiVersion === 'audit.svc.io/v1'));
  assert.ok(received.every((r) => r.authorization === 'Bearer audit-token'));
  // 20 batches a second with a burst of 1: the third batch leaves no sooner than 100 ms after the first.
  assert.ok(received[2]!.at - started >= 90, `third batch after ${Math.round(received[2]!.at - started)} ms`);
});

test('audit webhook: a partial batch leaves after maxBatchWait', async () => {
  received.length = 0;
  const backend = startWebhookBackend({
    connection: connection(), apiVersion: 'audit.svc.io/v1', initialBackoffMs: 10, log: () => {},
    batch: { bufferSize: 100, maxBatchSize: 50, maxBatchWaitMs: 30 },
  });
  backend.processEvents([testEvent(1), testEvent(2)]);
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(received.map((r) => r.body.items.length), [2], 'sent without waiting for a full batch or shutdown');
  await backend.shutdown();
});

test('audit webhook: 5xx and 429 are retried with back-off; a refused batch is dropped, counted and logged', async () => {
  received.length = 0;
  const logs: string[] = [];
  const errorsBefore = await auditMetrics().errors.value({ plugin: 'webhook' });
  const backend = startWebhookBackend({
    connection: connection(), apiVersion: 'audit.svc.io/v1', initialBackoffMs: 5, log: (m) => logs.push(m),
    batch: { bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 0 },
  });
  answers.push(503, 429);
  backend.processEvents([testEvent(1), testEvent(2), testEvent(3)]);
  await backend.shutdown();
  assert.deepEqual(received.map((r) => r.body.items.length), [3], 'delivered on the third try');
  const refused = startWebhookBackend({
    connection: connection(), apiVersion: 'audit.svc.io/v1', initialBackoffMs: 5, log: (m) => logs.push(m),
    batch: { bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 0 },
  });
  answers.push(400);
  refused.processEvents([testEvent(4), testEvent(5)]);
  await refused.shutdown();
  assert.equal((await auditMetrics().errors.value({ plugin: 'webhook' })) - errorsBefore, 2);
  assert.match(logs.join('\n'), /audit webhook backend dropped 2 event\(s\): the audit webhook answered 400/);
});
