import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from './rest-client.js';
import { discoverResources, resolveKind, resolveResource } from './discovery.js';
import { sendJson, startFakeServer } from './testing/fake-server.js';

const docs: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'] },
  '/apis': {
    kind: 'APIGroupList',
    groups: [
      { name: 'coordination.x.io', versions: [{ groupVersion: 'coordination.x.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'coordination.x.io/v1', version: 'v1' } },
      { name: 'events.x.io', versions: [{ groupVersion: 'events.x.io/v1', version: 'v1' }, { groupVersion: 'events.x.io/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'events.x.io/v1', version: 'v1' } },
    ],
  },
  '/api/v1': {
    kind: 'APIResourceList', groupVersion: 'v1', resources: [
      { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['get', 'list'], shortNames: ['cm'] },
      { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['get'], shortNames: ['ev'] },
      { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get'] },
      { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
      { name: 'nodes', singularName: '', namespaced: false, kind: 'Node', verbs: ['get'] },
    ],
  },
  '/apis/coordination.x.io/v1': { kind: 'APIResourceList', groupVersion: 'coordination.x.io/v1', resources: [{ name: 'leases', singularName: 'lease', namespaced: true, kind: 'Lease', verbs: ['get'] }] },
  '/apis/events.x.io/v1': { kind: 'APIResourceList', groupVersion: 'events.x.io/v1', resources: [{ name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['get'], shortNames: ['ev'] }] },
};

test('discovers preferred versions and resolves names the way kubectl does', async () => {
  const fake = await startFakeServer((req, res) => {
    const doc = docs[req.url];
    if (doc) sendJson(res, 200, doc);
    else sendJson(res, 404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 });
  });
  const client = createClient({ server: fake.url, namespace: 'default' });
  try {
    const r = await discoverResources(client);
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    const all = r.value;
    assert.equal(all.length, 6);
    assert.ok(!fake.requests.some((q) => q.url.includes('v1beta1')));
    assert.equal(resolveResource(all, 'cm')?.resource, 'configmaps');
    assert.equal(resolveResource(all, 'ConfigMap')?.resource, 'configmaps');
    assert.equal(resolveResource(all, 'configmap')?.resource, 'configmaps');
    assert.deepEqual(resolveResource(all, 'pods')?.subresources, ['status']);
    assert.equal(resolveResource(all, 'node')?.namespaced, false);
    assert.equal(resolveResource(all, 'events')?.group, '');
    assert.equal(resolveResource(all, 'events.events.x.io')?.group, 'events.x.io');
    assert.equal(resolveResource(all, 'leases.v1.coordination.x.io')?.resource, 'leases');
    assert.equal(resolveResource(all, 'widgets'), undefined);
    assert.equal(resolveKind(all, 'coordination.x.io/v1', 'Lease')?.resource, 'leases');
    assert.equal(resolveKind(all, 'v1', 'Lease'), undefined);
    const everything = await discoverResources(client, { allVersions: true });
    assert.equal(everything.ok, false); // v1beta1 answers 404 in this fake
  } finally {
    client.close();
    await fake.close();
  }
});
