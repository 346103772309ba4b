/**
 * Object lifecycles: two-phase delete with finalizers, namespace deletion cascading to its objects, the namespaces
 * that always exist and cannot be deleted, no new content in a terminating namespace.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const names = namesFor('svc');
let server: ServerProcess;
const finalizer = 'example.com/hold';

before(async () => {
  server = await startServerProcess();
});

after(async () => {
  await server?.stop();
});

test('system namespaces exist, are Active, and cannot be deleted', async () => {
  const list = await call(server.client, 'GET', '/api/v1/namespaces');
  assert.equal(list.status, 200);
  const present = list.body.items.map((n: any) => n.metadata.name);
  const expected = ['default', names.name('systemNamespace'), names.name('publicNamespace'), names.name('nodeLeaseNamespace')];
  for (const n of expected) assert.ok(present.includes(n), `${n} in ${present.join(',')}`);
  for (const n of list.body.items) assert.equal(n.status.phase, 'Active');
  for (const n of names.immortalNamespaces) {
    const r = await call(server.client, 'DELETE', `/api/v1/namespaces/${n}`);
    assert.equal(r.status, 403, r.text);
    assert.deepEqual(r.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `namespaces "${n}" is forbidden: this namespace may not be deleted`,
      reason: 'Forbidden', details: { name: n, kind: 'namespaces' }, code: 403,
    });
    assert.equal((await call(server.client, 'GET', `/api/v1/namespaces/${n}`)).status, 200);
  }
});

test('finalizers: delete marks the object, the last finalizer removal removes it', async () => {
  const ns = 'e2e-finalizers';
  await createNamespace(server.client, ns);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const created = await call(server.client, 'POST', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: [finalizer] } });
  assert.equal(created.status, 201, created.text);
  const deleted = await call(server.client, 'DELETE', `${path}/held`);
  assert.equal(deleted.status, 200, deleted.text);
  assert.equal(deleted.body.kind, 'ConfigMap', 'a delete that only marks returns the object');
  assert.ok(deleted.body.metadata.deletionTimestamp, 'deletionTimestamp set');
  const still = await call(server.client, 'GET', `${path}/held`);
  assert.equal(still.status, 200);
  assert.equal(still.body.metadata.deletionTimestamp, deleted.body.metadata.deletionTimestamp);
  assert.deepEqual(still.body.metadata.finalizers, [finalizer]);
  // a second delete changes nothing
  const again = await call(server.client, 'DELETE', `${path}/held`);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.metadata.deletionTimestamp, deleted.body.metadata.deletionTimestamp);
  const released = await call(server.client, 'PUT', `${path}/held`, { ...still.body, metadata: { ...still.body.metadata, finalizers: [] } });
  assert.equal(released.status, 200, released.text);
  assert.equal((await call(server.client, 'GET', `${path}/held`)).status, 404);
});

test('namespace deletion: Terminating, no new content, objects deleted, then the namespace', async () => {
  const ns = 'e2e-cascade';
  await createNamespace(server.client, ns);
  const base = `/api/v1/namespaces/${ns}`;
  const leases = `/apis/${names.group('coordination')}/v1/namespaces/${ns}/leases`;
  const seed: Array<[string, Record<string, unknown>]> = [
    [`${base}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } }],
    [`${base}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } }],
    [`${base}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1' } }],
    [leases, { apiVersion: `${names.group('coordination')}/v1`, kind: 'Lease', metadata: { name: 'l1' } }],
    [`${base}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: [finalizer] } }],
  ];
  for (const [path, body] of seed) {
    const r = await call(server.client, 'POST', path, body);
    assert.equal(r.status, 201, r.text);
  }
  const del = await call(server.client, 'DELETE', `/api/v1/namespaces/${ns}`);
  assert.equal(del.status, 200, del.text);
  assert.equal(del.body.kind, 'Namespace');
  assert.equal(del.body.status.phase, 'Terminating');
  assert.ok(del.body.metadata.deletionTimestamp);

  const refused = await call(server.client, 'POST', `${base}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.reason, 'Forbidden');
  assert.equal(refused.body.message, `configmaps "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`);

  // everything without a finalizer goes; the held configmap keeps the namespace Terminating
  const emptied = await eventually(async () => {
    const cms = await call(server.client, 'GET', `${base}/configmaps`);
    const secrets = await call(server.client, 'GET', `${base}/secrets`);
    const lease = await call(server.client, 'GET', leases);
    return cms.body.items.length === 1 && cms.body.items[0].metadata.name === 'held' && secrets.body.items.length === 0 && lease.body.items.length === 0;
  });
  assert.ok(emptied, 'objects of the namespace are deleted');
  const held = await call(server.client, 'GET', `${base}/configmaps/held`);
  assert.ok(held.body.metadata.deletionTimestamp, 'the held object is marked for deletion');
  const terminating = await call(server.client, 'GET', `/api/v1/namespaces/${ns}`);
  assert.equal(terminating.status, 200);
  assert.equal(terminating.body.status.phase, 'Terminating');

  const released = await call(server.client, 'PUT', `${base}/configmaps/held`, { ...held.body, metadata: { ...held.body.metadata, finalizers: [] } });
  assert.equal(released.status, 200, released.text);
  assert.ok(await eventually(async () => (await call(server.client, 'GET', `/api/v1/namespaces/${ns}`)).status === 404), 'namespace removed once empty');
  const list = await call(server.client, 'GET', '/api/v1/namespaces');
  assert.ok(!list.body.items.some((n: any) => n.metadata.name === ns));
});
