/**
 * The client's protobuf encoding against a fake server that checks the wire: built-in objects sent in the flavour's
 * binary encoding and read back from it, anything else in JSON, Statuses and watch frames decoded, the flavour read
 * from the server's groups when not pinned, and malformed answers reported instead of thrown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { namesFor, notFound, type Flavour, type KubeObject, type WatchEvent } from '@svc-apiserver/api';
import { protobufCodec } from '@svc-apiserver/protobuf';
import { createClient } from './rest-client.js';
import { sendJson, startFakeServer, type RecordedRequest } from './testing/fake-server.js';

const cmRef = { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns' };
const widgetRef = { group: 'example.com', version: 'v1', resource: 'widgets', namespace: 'ns' };
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns', resourceVersion: '5' }, data: { k: 'v' } };

function sendProtobuf(res: ServerResponse, flavour: Flavour, code: number, object: unknown): void {
  const bytes = protobufCodec(namesFor(flavour)).encode(object)!;
  res.writeHead(code, { 'content-type': namesFor(flavour).name('protobufMediaType'), 'content-length': bytes.length });
  res.end(bytes);
}

test('built-in objects travel in the pinned flavour\'s protobuf; custom resources and patches in JSON', async () => {
  const media = namesFor('k8s').name('protobufMediaType');
  const fake = await startFakeServer((req: RecordedRequest, res) => {
    if (req.url.includes('/widgets')) return sendJson(res, 201, JSON.parse(req.body));
    if (req.url.endsWith('/configmaps/missing')) return sendProtobuf(res, 'k8s', 404, notFound({ group: '', resource: 'configmaps' }, 'missing'));
    if (req.method === 'POST' || req.method === 'PUT') {
      const decoded = protobufCodec(namesFor('k8s')).decode(req.bytes);
      assert.ok(decoded.ok, 'the body is the flavour\'s protobuf');
      return sendProtobuf(res, 'k8s', req.method === 'POST' ? 201 : 200, decoded.value);
    }
    return sendProtobuf(res, 'k8s', 200, cm);
  });
  const client = createClient({ server: fake.url, namespace: 'default' }, { encoding: 'protobuf', flavour: 'k8s' });
  try {
    const created = await client.create(cmRef, cm);
    assert.ok(created.ok, JSON.stringify(created));
    assert.deepEqual(created.value, cm);
    const post = fake.requests.at(-1)!;
    assert.equal(post.headers['content-type'], media);
    assert.equal(post.headers.accept, `${media}, application/json`);
    assert.deepEqual([...post.bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);

    assert.ok((await client.update(cmRef, cm)).ok);
    assert.equal(fake.requests.at(-1)!.headers['content-type'], media);
    const got = await client.get(cmRef, 'a');
    assert.ok(got.ok);
    assert.deepEqual(got.value, cm);

    const missing = await client.get(cmRef, 'missing');
    assert.ok(!missing.ok);
    assert.equal(missing.error.code, 404);
    assert.equal(missing.error.reason, 'NotFound');

    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } } as KubeObject;
    const cr = await client.create(widgetRef, widget);
    assert.ok(cr.ok);
    assert.equal(fake.requests.at(-1)!.headers['content-type'], 'application/json', 'a kind without a message type goes as JSON');

    assert.ok((await client.patch(cmRef, 'a', 'merge', { data: { k: 'w' } })).ok);
    assert.equal(fake.requests.at(-1)!.headers['content-type'], 'application/merge-patch+json');
    assert.equal(fake.requests.at(-1)!.headers.accept, `${media}, application/json`);
  } finally {
    client.close();
    await fake.close();
  }
});

test('without a pinned flavour the client reads it from the server\'s groups once, and a body that does not decode is a failure', async () => {
  const svcGroups = { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: namesFor('svc').group('rbac.authorization'), versions: [] }] };
  const fake = await startFakeServer((req, res) => {
    if (req.url === '/apis') return sendJson(res, 200, svcGroups);
    if (req.url.endsWith('/broken')) {
      res.writeHead(200, { 'content-type': namesFor('svc').name('protobufMediaType') });
      return res.end(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x7f]));
    }
    return sendProtobuf(res, 'svc', 200, cm);
  });
  const client = createClient({ server: fake.url, namespace: 'default' }, { encoding: 'protobuf' });
  try {
    assert.ok((await client.get(cmRef, 'a')).ok);
    assert.ok((await client.get(cmRef, 'a')).ok);
    assert.deepEqual(fake.requests.map((r) => r.url), ['/apis', '/api/v1/namespaces/ns/configmaps/a', '/api/v1/namespaces/ns/configmaps/a']);
    assert.equal(fake.requests[1]!.headers.accept, `${namesFor('svc').name('protobufMediaType')}, application/json`);
    const broken = await client.get(cmRef, 'broken');
    assert.ok(!broken.ok);
    assert.match(String(broken.error.message), /protobuf that does not decode/);
  } finally {
    client.close();
    await fake.close();
  }
});

test('a protobuf watch stream: frames split anywhere across chunks, resumed from the last version, a malformed frame ends it', async () => {
  const codec = protobufCodec(namesFor('k8s'));
  const frame = (type: string, rv: string): Buffer =>Buffer.from(codec.encodeWatchFrame({ type, object: { ...cm, metadata: { ...cm.metadata, resourceVersion: rv } } })!);
  let connection = 0;
  const fake = await startFakeServer((_req, res) => {
    connection++;
    res.writeHead(200, { 'content-type': `${namesFor('k8s').name('protobufMediaType')};stream=watch` });
    if (connection === 1) {
      const bytes = Buffer.concat([frame('ADDED', '11'), frame('MODIFIED', '12')]);
      // one byte, then the rest of the first length, then mid-message: every framing boundary is crossed
      res.write(bytes.subarray(0, 1));
      setTimeout(() => res.write(bytes.subarray(1, 7)), 10);
      setTimeout(() => res.end(bytes.subarray(7)), 20);
    } else {
      res.write(frame('DELETED', '13'));
      res.end(Buffer.from([0, 0, 0, 2, 0x08, 0x01]));
    }
  });
  const client = createClient({ server: fake.url, namespace: 'default' }, { encoding: 'protobuf', flavour: 'k8s' });
  try {
    const w = client.watch(cmRef, { resourceVersion: '10', retryDelayMs: 10 });
    const events: WatchEvent[] = [];
    for await (const e of w) events.push(e);
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED', 'ERROR']);
    assert.deepEqual(events.slice(0, 3).map((e) => e.object.metadata?.resourceVersion), ['11', '12', '13']);
    assert.match(String((events[3]!.object as unknown as { message?: string }).message), /does not decode/);
    assert.equal(fake.requests[1]!.url, '/api/v1/namespaces/ns/configmaps?watch=true&resourceVersion=12');
    assert.equal(fake.requests[0]!.headers.accept, `${namesFor('k8s').name('protobufMediaType')}, application/json`);
  } finally {
    client.close();
    await fake.close();
  }
});
