import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notFound } from '@svc-apiserver/api';
import { createClient, parseWarnings } from './rest-client.js';
import { sendJson, startFakeServer } from './testing/fake-server.js';

const cm = { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns' };

test('verbs send the right method, path, query, headers and body', async () => {
  const fake = await startFakeServer((req, res) => {
    if (req.method === 'GET' && req.url.startsWith('/api/v1/namespaces/ns/configmaps/missing')) {
      sendJson(res, 404, notFound({ group: '', resource: 'configmaps' }, 'missing'));
    } else if (req.method === 'POST') {
      res.setHeader('warning', '299 - "unknown field \\"x\\"", 299 - "second"');
      sendJson(res, 201, { ...JSON.parse(req.body), metadata: { name: 'a', resourceVersion: '5' } });
    } else sendJson(res, 200, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' }, method: req.method });
  });
  const warnings: string[] = [];
  const client = createClient({ server: fake.url, namespace: 'default', token: 't0k' }, { onWarning: (w) => warnings.push(w), userAgent: 'test/1' });
  try {
    const got = await client.get(cm, 'a', { resourceVersion: '0' });
    assert.ok(got.ok);
    assert.equal(got.value.metadata?.name, 'a');
    const last = () => fake.requests[fake.requests.length - 1]!;
    assert.equal(last().url, '/api/v1/namespaces/ns/configmaps/a?resourceVersion=0');
    assert.equal(last().headers.authorization, 'Bearer t0k');
    assert.equal(last().headers['user-agent'], 'test/1');

    const missing = await client.get(cm, 'missing');
    assert.equal(missing.ok, false);
    assert.deepEqual(missing.ok ? undefined : missing.error, notFound({ group: '', resource: 'configmaps' }, 'missing'));

    const created = await client.create({ ...cm, namespace: undefined } as never, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns' }, data: { k: 'v' } }, { dryRun: true, fieldManager: 'me', fieldValidation: 'Strict' });
    assert.ok(created.ok);
    assert.equal(last().url, '/api/v1/namespaces/ns/configmaps?dryRun=All&fieldManager=me&fieldValidation=Strict');
    assert.equal(last().headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(last().body).data, { k: 'v' });
    assert.deepEqual(warnings, ['unknown field "x"', 'second']);

    await client.update(cm, { metadata: { name: 'a', resourceVersion: '5' } }, { subresource: 'status' });
    assert.equal(last().method, 'PUT');
    assert.equal(last().url, '/api/v1/namespaces/ns/configmaps/a/status');

    await client.patch(cm, 'a', 'merge', { data: { k: 'w' } });
    assert.equal(last().headers['content-type'], 'application/merge-patch+json');
    await client.patch(cm, 'a', 'apply', 'data: {}', { fieldManager: 'm', force: true });
    assert.equal(last().headers['content-type'], 'application/apply-patch+yaml');
    assert.equal(last().url, '/api/v1/namespaces/ns/configmaps/a?fieldManager=m&force=true');
    assert.equal(last().body, 'data: {}');

    await client.delete(cm, 'a', { propagationPolicy: 'Foreground', preconditions: { resourceVersion: '5' } });
    assert.equal(last().method, 'DELETE');
    assert.deepEqual(JSON.parse(last().body), { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', preconditions: { resourceVersion: '5' } });
    await client.delete(cm, 'a');
    assert.equal(last().body, '');

    await client.deleteCollection(cm, { labelSelector: 'a=b' });
    assert.equal(last().url, '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db');

    await client.list({ group: 'coordination.x.io', version: 'v1', resource: 'leases' }, { limit: 2, continue: 'tok' });
    assert.equal(last().url, '/apis/coordination.x.io/v1/leases?limit=2&continue=tok');
  } finally {
    client.close();
    await fake.close();
  }
});

test('a failure body that is not a Status becomes one with the HTTP code', async () => {
  const fake = await startFakeServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain' });
    res.end('overloaded');
  });
  const client = createClient({ server: fake.url, namespace: 'default' });
  try {
    const r = await client.get(cm, 'a');
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.error.code, 503);
      assert.equal(r.error.reason, 'ServiceUnavailable');
      assert.equal(r.error.message, 'overloaded');
    }
  } finally {
    client.close();
    await fake.close();
  }
});

test('a connection failure is a Status with code 0', async () => {
  const fake = await startFakeServer(() => undefined);
  const url = fake.url;
  await fake.close();
  const client = createClient({ server: url, namespace: 'default' });
  const r = await client.get(cm, 'a');
  client.close();
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 0);
    assert.equal(r.error.status, 'Failure');
    assert.match(r.error.message ?? '', /ECONNREFUSED/);
  }
});

test('parseWarnings reads quoted texts with escapes', () => {
  assert.deepEqual(parseWarnings(undefined), []);
  assert.deepEqual(parseWarnings(['299 - "a \\"b\\""', '299 - "c, d"']), ['a "b"', 'c, d']);
});
