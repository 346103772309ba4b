import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer } from 'node:net';
import { defaultComponents, httpComponent, probeComponents, storeComponent } from './component-statuses.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('components: the store Healthy "ok" or Unhealthy with its error; an HTTPS component nobody serves is Unhealthy in Go\'s words', async () => {
  const port = await closedPort();
  const healthy = await probeComponents([
    storeComponent('etcd-0', { name: 'etcd', check: async () => undefined }),
    httpComponent('scheduler', `https://127.0.0.1:${port}/healthz`, 2000),
  ]);
  assert.deepEqual(healthy, [
    { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
    {
      kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'scheduler' },
      conditions: [{ type: 'Healthy', status: 'False', message: `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused` }],
    },
  ]);
  const [down] = await probeComponents([storeComponent('etcd-0', { name: 'etcd', check: async () => 'storage did not answer within 2000ms' })]);
  assert.deepEqual(down!['conditions'], [{ type: 'Healthy', status: 'False', error: 'storage did not answer within 2000ms' }]);
});

test('kube-apiserver 1.27\'s components: controller-manager and scheduler on their secure ports, then etcd-0', () => {
  assert.deepEqual(defaultComponents({ name: 'etcd', check: async () => undefined }).map((c) => c.name), ['controller-manager', 'scheduler', 'etcd-0']);
});
