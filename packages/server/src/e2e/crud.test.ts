/**
 * CRUD over HTTPS for every resource of the foundation release, against the real server as a child process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, optimisticLockMessage } from '@svc-apiserver/api';
import { resourcePath } from '@svc-apiserver/client';
import { call, eventually } from './http.js';
import { resourceFixtures } from './fixtures.js';
import { serverForFile } from './server-process.js';

const names = namesFor('svc');
const ns = 'e2e-crud';
// The resourcequota controller writes a new quota's status at once, racing this file's read-modify-write of the
// same object; the controller has its own tests.
const server = serverForFile({ extraArgs: ['--controllers=*,-resourcequota'] }, ns);

for (const fx of resourceFixtures(names)) {
  const qualified = fx.group ? `${fx.resource}.${fx.group}` : fx.resource;
  test(`CRUD ${qualified}`, async () => {
    const name = `crud-${fx.kind.toLowerCase()}`;
    const ref = { group: fx.group, version: fx.version, resource: fx.resource, ...(fx.namespaced ? { namespace: ns } : {}) };
    const apiVersion = fx.group ? `${fx.group}/${fx.version}` : fx.version;

    const created = await call(server().client, 'POST', resourcePath(ref), fx.make(name, ns));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, fx.kind);
    assert.equal(created.body.apiVersion, apiVersion);
    assert.equal(created.body.metadata.name, name);
    if (fx.namespaced) assert.equal(created.body.metadata.namespace, ns);
    else assert.equal(created.body.metadata.namespace, undefined);
    assert.match(created.body.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(created.body.metadata.resourceVersion, /^\d+$/);
    assert.ok(!Number.isNaN(Date.parse(created.body.metadata.creationTimestamp)));
    const rv1: string = created.body.metadata.resourceVersion;

    const got = await call(server().client, 'GET', resourcePath(ref, name));
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.metadata.uid, created.body.metadata.uid);
    assert.equal(got.body.metadata.resourceVersion, rv1);

    const listed = await call(server().client, 'GET', resourcePath(ref));
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.kind, `${fx.kind}List`);
    assert.equal(listed.body.apiVersion, apiVersion);
    assert.match(listed.body.metadata.resourceVersion, /^\d+$/);
    assert.ok(listed.body.items.some((o: any) => o.metadata.name === name), 'the list holds the new object');

    const updatedBody = { ...got.body, metadata: { ...got.body.metadata, labels: { stage: 'updated' } } };
    const updated = await call(server().client, 'PUT', resourcePath(ref, name), updatedBody);
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.metadata.labels.stage, 'updated');
    assert.notEqual(updated.body.metadata.resourceVersion, rv1);
    assert.ok(Number(updated.body.metadata.resourceVersion) > Number(rv1));
    assert.equal(updated.body.metadata.uid, created.body.metadata.uid);
    assert.equal(updated.body.metadata.creationTimestamp, created.body.metadata.creationTimestamp);

    const stale = await call(server().client, 'PUT', resourcePath(ref, name), updatedBody);
    assert.equal(stale.status, 409, stale.text);
    assert.deepEqual(stale.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `Operation cannot be fulfilled on ${qualified} "${name}": ${optimisticLockMessage}`,
      reason: 'Conflict', details: { name, ...(fx.group ? { group: fx.group } : {}), kind: fx.resource }, code: 409,
    });

    const patched = await call(server().client, 'PATCH', resourcePath(ref, name), { metadata: { annotations: { note: 'patched' } } },
      { 'content-type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.metadata.annotations.note, 'patched');
    assert.equal(patched.body.metadata.labels.stage, 'updated');

    const deleted = await call(server().client, 'DELETE', resourcePath(ref, name));
    assert.ok(deleted.status === 200 || deleted.status === 202, deleted.text);
    if (fx.resource !== 'namespaces') {
      const gone = await eventually(async () => (await call(server().client, 'GET', resourcePath(ref, name))).status === 404);
      assert.ok(gone, `${qualified} ${name} is gone after delete`);
      const missing = await call(server().client, 'GET', resourcePath(ref, name));
      assert.equal(missing.body.message, `${qualified} "${name}" not found`);
    } else {
      // a namespace goes Terminating first; the namespace controller removes it once empty
      assert.ok(deleted.body.status?.phase === 'Terminating' || deleted.body.kind === 'Status', deleted.text);
      assert.ok(await eventually(async () => (await call(server().client, 'GET', resourcePath(ref, name))).status === 404), 'namespace removed');
    }
  });
}

test('secrets: stringData is merged into base64 data and type is immutable', async () => {
  const ref = { group: '', version: 'v1', resource: 'secrets', namespace: ns };
  const created = await call(server().client, 'POST', resourcePath(ref), {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: 'merge' }, type: 'Opaque',
    data: { a: Buffer.from('one').toString('base64') }, stringData: { b: 'two', a: 'wins' },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.stringData, undefined);
  assert.deepEqual(created.body.data, { a: Buffer.from('wins').toString('base64'), b: Buffer.from('two').toString('base64') });
  const changed = await call(server().client, 'PUT', resourcePath(ref, 'merge'), { ...created.body, type: 'example.com/other' });
  assert.equal(changed.status, 422, changed.text);
  assert.equal(changed.body.reason, 'Invalid');
  assert.ok(changed.body.details.causes.some((c: any) => c.field === 'type' && c.reason === 'FieldValueInvalid'), changed.text);
});

test('pods: the status subresource changes status only, the main resource ignores status', async () => {
  const ref = { group: '', version: 'v1', resource: 'pods', namespace: ns };
  const created = await call(server().client, 'POST', resourcePath(ref), {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'status-split' }, spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] },
  });
  assert.equal(created.status, 201, created.text);
  const viaStatus = await call(server().client, 'PUT', resourcePath(ref, 'status-split', 'status'), {
    ...created.body,
    spec: { ...created.body.spec, containers: [{ ...created.body.spec.containers[0], image: 'registry.example/other:2' }] },
    status: { ...created.body.status, phase: 'Running' },
  });
  assert.equal(viaStatus.status, 200, viaStatus.text);
  assert.equal(viaStatus.body.status.phase, 'Running');
  assert.equal(viaStatus.body.spec.containers[0].image, 'registry.example/app:1', 'a status write keeps the stored spec');
  const viaMain = await call(server().client, 'PUT', resourcePath(ref, 'status-split'), {
    ...viaStatus.body, status: { ...viaStatus.body.status, phase: 'Failed' },
  });
  assert.equal(viaMain.status, 200, viaMain.text);
  assert.equal(viaMain.body.status.phase, 'Running', 'the main resource keeps the stored status');
  const status = await call(server().client, 'GET', resourcePath(ref, 'status-split', 'status'));
  assert.equal(status.status, 200);
  assert.equal(status.body.kind, 'Pod');
});

test('generateName: the server picks a unique name with a random suffix', async () => {
  const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: ns };
  const a = await call(server().client, 'POST', resourcePath(ref), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
  const b = await call(server().client, 'POST', resourcePath(ref), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
  assert.equal(a.status, 201, a.text);
  assert.equal(b.status, 201, b.text);
  assert.match(a.body.metadata.name, /^gen-[a-z0-9]{5}$/);
  assert.notEqual(a.body.metadata.name, b.body.metadata.name);
  assert.equal(a.body.metadata.generateName, 'gen-');
});

test('update with a changed spec bumps generation; a metadata-only change does not', async () => {
  const ref = { group: '', version: 'v1', resource: 'replicationcontrollers', namespace: ns };
  const fx = resourceFixtures(names).find((f) => f.resource === 'replicationcontrollers')!;
  const created = await call(server().client, 'POST', resourcePath(ref), fx.make('gen-bump', ns));
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.metadata.generation, 1);
  const relabeled = await call(server().client, 'PUT', resourcePath(ref, 'gen-bump'), { ...created.body, metadata: { ...created.body.metadata, labels: { a: 'b' } } });
  assert.equal(relabeled.status, 200, relabeled.text);
  assert.equal(relabeled.body.metadata.generation, 1);
  const scaled = await call(server().client, 'PUT', resourcePath(ref, 'gen-bump'), { ...relabeled.body, spec: { ...relabeled.body.spec, replicas: 3 } });
  assert.equal(scaled.status, 200, scaled.text);
  assert.equal(scaled.body.metadata.generation, 2);
});

test('list across all namespaces and deletecollection', async () => {
  const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: ns };
  for (const n of ['dc-1', 'dc-2']) {
    const r = await call(server().client, 'POST', resourcePath(ref), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: { batch: 'dc' } } });
    assert.equal(r.status, 201, r.text);
  }
  const all = await call(server().client, 'GET', '/api/v1/configmaps');
  assert.equal(all.status, 200, all.text);
  assert.ok(all.body.items.some((o: any) => o.metadata.name === 'dc-1' && o.metadata.namespace === ns));
  const dc = await call(server().client, 'DELETE', `${resourcePath(ref)}?labelSelector=batch%3Ddc`);
  assert.equal(dc.status, 200, dc.text);
  const left = await call(server().client, 'GET', resourcePath(ref));
  assert.ok(!left.body.items.some((o: any) => o.metadata.labels?.batch === 'dc'), left.text);
});
