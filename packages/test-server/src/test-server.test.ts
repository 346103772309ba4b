import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startTestServer } from './test-server.js';

test('test servers: ready with an admin client, users with exactly their rights, independent of each other', async () => {
  const [a, b] = await Promise.all([startTestServer(), startTestServer({ flavour: 'k8s' })]);
  try {
    assert.notEqual(a.url, b.url);
    assert.match(a.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(b.names.group('rbac.authorization'), 'rbac.authorization.k8s.io');
    const cms = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };
    const created = await a.client.create(cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'only-in-a' } });
    assert.ok(created.ok);
    const inB = await b.client.get(cms, 'only-in-a');
    assert.ok(!inB.ok && inB.error.code === 404, 'servers share no state');

    await a.createNamespace('team');
    const reader = await a.createUser({ name: 'reader', groups: ['readers'], namespace: 'team', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] });
    const teamCms = { ...cms, namespace: 'team' };
    const list = await reader.client.list(teamCms);
    assert.ok(list.ok, list.ok ? '' : list.error.message);
    const write = await reader.client.create(teamCms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    assert.ok(!write.ok && write.error.code === 403 && write.error.reason === 'Forbidden');
    const elsewhere = await reader.client.list(cms);
    assert.ok(!elsewhere.ok && elsewhere.error.code === 403, 'rights only in the namespace');
    assert.match(reader.kubeconfig, /current-context: reader/);

    const viewer = await b.createUser({ name: 'viewer', clusterRole: 'view' });
    assert.ok((await viewer.client.list(cms)).ok);
    assert.equal((await viewer.client.delete(cms, 'anything')).ok, false);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  assert.equal(existsSync(a.kubeconfigPath), false, 'stop removes the data directory');
});

test('test server on sqlite storage', async () => {
  const s = await startTestServer({ storage: 'sqlite' });
  try {
    const ns = await s.client.list({ group: '', version: 'v1', resource: 'namespaces' });
    assert.ok(ns.ok && ns.value.items.some((n) => n.metadata?.name === 'default'));
  } finally {
    await s.stop();
  }
});
