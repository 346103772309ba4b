/**
 * `--flavour=k8s`: every renamed name is served in its Kubernetes form (groups, system namespaces, discovery media
 * type), so stock clients work unchanged.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const k8s = namesFor('k8s');
const svc = namesFor('svc');
let server: ServerProcess;

before(async () => {
  server = await startServerProcess({ flavour: 'k8s' });
});

after(async () => {
  await server?.stop();
});

test('groups carry the Kubernetes names, the svc names are not served', async () => {
  const apis = await call(server.client, 'GET', '/apis');
  assert.equal(apis.status, 200);
  const groups: string[] = apis.body.groups.map((g: any) => g.name);
  assert.ok(groups.includes(k8s.group('coordination')), groups.join(','));
  assert.ok(groups.includes(k8s.group('events')), groups.join(','));
  assert.ok(!groups.some((g) => g.endsWith(svc.group('coordination').slice('coordination'.length))), 'no svc group names');
  const missing = await call(server.client, 'GET', `/apis/${svc.group('coordination')}/v1`);
  assert.equal(missing.status, 404);
});

test('the system namespaces carry the Kubernetes names and cannot be deleted', async () => {
  const list = await call(server.client, 'GET', '/api/v1/namespaces');
  const present: string[] = list.body.items.map((n: any) => n.metadata.name);
  for (const n of ['default', k8s.name('systemNamespace'), k8s.name('publicNamespace'), k8s.name('nodeLeaseNamespace')]) {
    assert.ok(present.includes(n), `${n} in ${present.join(',')}`);
  }
  assert.ok(!present.includes(svc.name('systemNamespace')));
  const del = await call(server.client, 'DELETE', `/api/v1/namespaces/${k8s.name('systemNamespace')}`);
  assert.equal(del.status, 403, del.text);
});

test('leases CRUD in the Kubernetes coordination group', async () => {
  const group = k8s.group('coordination');
  const path = `/apis/${group}/v1/namespaces/${k8s.name('nodeLeaseNamespace')}/leases`;
  const created = await call(server.client, 'POST', path, { apiVersion: `${group}/v1`, kind: 'Lease', metadata: { name: 'node-1' }, spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40 } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.apiVersion, `${group}/v1`);
  const got = await call(server.client, 'GET', `${path}/node-1`);
  assert.equal(got.status, 200);
  const missing = await call(server.client, 'GET', `${path}/nope`);
  assert.equal(missing.body.message, `leases.${group} "nope" not found`);
  assert.equal((await call(server.client, 'DELETE', `${path}/node-1`)).status, 200);
});

test('aggregated discovery uses the Kubernetes discovery group', async () => {
  const accept = `application/json;g=${k8s.group('apidiscovery')};v=v2beta1;as=APIGroupDiscoveryList`;
  const r = await call(server.client, 'GET', '/apis', undefined, { accept });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.apiVersion, `${k8s.group('apidiscovery')}/v2beta1`);
  assert.ok(r.body.items.some((g: any) => g.metadata?.name === k8s.group('coordination')));
});
