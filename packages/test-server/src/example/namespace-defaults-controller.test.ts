import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '@svc-apiserver/api';
import { startTestServer, type TestServer } from '../test-server.js';
import { defaultsConfigMap, defaultsLabel, startNamespaceDefaultsController, type RunningController } from './namespace-defaults-controller.js';

let server: TestServer;
let controller: RunningController;
const cms = (namespace: string) => ({ group: '', version: 'v1', resource: 'configmaps', namespace });
const nsRef = { group: '', version: 'v1', resource: 'namespaces' };

/** Polls until `check` holds; the controller reacts to watch events, so a test waits for the effect. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  server = await startTestServer();
  // a namespace opted in before the controller starts is found by its initial list
  await server.client.create(nsRef, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'early', labels: { [defaultsLabel]: 'true' } } });
  controller = await startNamespaceDefaultsController({ client: server.client, data: { region: 'eu' } });
});
after(async () => {
  await controller?.stop();
  await server?.stop();
});

test('opted-in namespaces get the defaults ConfigMap, from the initial list and from watch events', async () => {
  await eventually('defaults in early', async () => (await server.client.get(cms('early'), defaultsConfigMap)).ok);
  await server.client.create(nsRef, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'late', labels: { [defaultsLabel]: 'true' } } });
  await server.createNamespace('plain');
  await eventually('defaults in late', async () => (await server.client.get(cms('late'), defaultsConfigMap)).ok);
  await controller.idle();
  const plain = await server.client.get(cms('plain'), defaultsConfigMap);
  assert.ok(!plain.ok && plain.error.code === 404, 'a namespace without the label is left alone');
  const got = await server.client.get(cms('late'), defaultsConfigMap);
  assert.ok(got.ok);
  assert.deepEqual(got.value.data, { region: 'eu' });
});

test('a deleted or edited defaults ConfigMap is put back; labelling a namespace later opts it in', async () => {
  await server.client.create(nsRef, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'heal', labels: { [defaultsLabel]: 'true' } } });
  await eventually('defaults in heal', async () => (await server.client.get(cms('heal'), defaultsConfigMap)).ok);
  const first = await server.client.get(cms('heal'), defaultsConfigMap);
  assert.ok((await server.client.delete(cms('heal'), defaultsConfigMap)).ok);
  await eventually('defaults made again', async () => {
    const again = await server.client.get(cms('heal'), defaultsConfigMap);
    return again.ok && first.ok && again.value.metadata?.uid !== first.value.metadata?.uid;
  });
  assert.ok((await server.client.patch(cms('heal'), defaultsConfigMap, 'merge', { data: { region: 'us' } })).ok);
  await eventually('edit undone', async () => {
    const cm = await server.client.get<KubeObject & { data?: Record<string, string> }>(cms('heal'), defaultsConfigMap);
    return cm.ok && cm.value.data?.region === 'eu';
  });
  await server.createNamespace('opt-in-later');
  assert.ok((await server.client.patch(nsRef, 'opt-in-later', 'merge', { metadata: { labels: { [defaultsLabel]: 'true' } } })).ok);
  await eventually('defaults after labelling', async () => (await server.client.get(cms('opt-in-later'), defaultsConfigMap)).ok);
});
