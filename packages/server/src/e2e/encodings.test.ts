/**
 * Encodings end to end against the real server: objects created and read back in JSON, YAML and protobuf, lists
 * and Status errors in protobuf, protobuf watch frames, Tables and PartialObjectMetadata, 406 and 400 answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call } from './http.js';
import { serverForFile } from './server-process.js';
import { decodeEnvelope, protobufCodec } from '@svc-apiserver/protobuf/codec';
import { metaType } from '../protobuf/message-types.js';

const names = namesFor('svc');
const pb = names.name('protobufMediaType');
const codec = protobufCodec(names);
const ns = 'e2e-encodings';
const cmPath = `/api/v1/namespaces/${ns}/configmaps`;
const server = serverForFile({ storage: 'memory' }, ns);

/** A request whose body and response stay bytes. */
async function rawCall(method: string, path: string, headers: Record<string, string>, body?: Uint8Array) {
  const res = await server().client.raw({ method, path, headers, ...(body ? { body: Buffer.from(body) } : {}) });
  if (!res.ok) throw new Error(`${method} ${path}: transport failure`);
  return res.value;
}

test('JSON create, protobuf read back; protobuf create, JSON read back', async () => {
  const created = await call(server().client, 'POST', cmPath, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-json', labels: { a: 'b' } }, data: { k: 'v' } });
  assert.equal(created.status, 201, created.text);
  const got = await rawCall('GET', `${cmPath}/from-json`, { accept: `${pb}, application/json` });
  assert.equal(got.status, 200);
  assert.equal(got.headers['content-type'], pb);
  const decoded = codec.decode(got.body);
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.value, created.body);

  const body = codec.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-pb' }, data: { x: 'y' }, binaryData: { b: 'AAE=' } })!;
  const posted = await rawCall('POST', cmPath, { 'content-type': pb, accept: pb }, body);
  assert.equal(posted.status, 201, posted.body.toString());
  const back = codec.decode(posted.body);
  assert.ok(back.ok);
  assert.equal(back.value.metadata?.name, 'from-pb');
  const json = await call(server().client, 'GET', `${cmPath}/from-pb`);
  assert.deepEqual(json.body.data, { x: 'y' });
  assert.deepEqual(json.body.binaryData, { b: 'AAE=' });
});

test('protobuf lists and Status errors; a body without the prefix is a 400', async () => {
  const list = await rawCall('GET', cmPath, { accept: pb });
  assert.equal(list.status, 200);
  const decoded = codec.decode(list.body);
  assert.ok(decoded.ok);
  assert.equal(decoded.value.kind, 'ConfigMapList');
  assert.ok(((decoded.value as unknown as { items: unknown[] }).items).length >= 2);

  const missing = await rawCall('GET', `${cmPath}/nope`, { accept: pb });
  assert.equal(missing.status, 404);
  assert.equal(missing.headers['content-type'], pb);
  const status = codec.decode(missing.body);
  assert.ok(status.ok);
  assert.equal(status.value.kind, 'Status');
  assert.equal((status.value as unknown as { reason: string }).reason, 'NotFound');

  const env = decodeEnvelope(codec.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bare' } })!);
  assert.ok(env.ok);
  const bare = await call(server().client, 'POST', cmPath, Buffer.from(env.value.raw), { 'content-type': pb });
  assert.equal(bare.status, 400);
  assert.match(bare.body.message, /expected prefix \[107 56 115 0\]/);
});

test('protobuf watch: length-prefixed WatchEvent frames with the object enveloped', async () => {
  const w = await rawCall('GET', `${cmPath}?watch=1&timeoutSeconds=1`, { accept: pb });
  assert.equal(w.status, 200);
  assert.equal(w.headers['content-type'], `${pb};stream=watch`);
  const frames: { type: string; name?: string }[] = [];
  for (let off = 0; off < w.body.length;) {
    const len = w.body.readUInt32BE(off);
    const event = metaType('WatchEvent').decode(w.body.subarray(off + 4, off + 4 + len)) as unknown as { type: string; object: { raw: Uint8Array } };
    const object = codec.decode(event.object.raw);
    assert.ok(object.ok);
    frames.push({ type: event.type, ...(object.value.metadata?.name ? { name: object.value.metadata.name } : {}) });
    off += 4 + len;
  }
  assert.ok(frames.some((f) => f.type === 'ADDED' && f.name === 'from-json'), JSON.stringify(frames));
});

test('YAML request bodies and responses', async () => {
  const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  enabled: "yes"\n';
  const created = await call(server().client, 'POST', cmPath, yaml, { 'content-type': 'application/yaml', accept: 'application/yaml' });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers['content-type'], 'application/yaml');
  assert.match(created.text, /^apiVersion: v1\nkind: ConfigMap\n/m);
  assert.match(created.text, /enabled: "yes"/);
});

test('Tables, PartialObjectMetadata, includeObject; 406 lists what can be served', async () => {
  const tableAccept = 'application/json;as=Table;v=v1;g=meta.svc.io,application/json';
  const one = await call(server().client, 'GET', `${cmPath}/from-json`, undefined, { accept: tableAccept });
  assert.equal(one.status, 200);
  assert.equal(one.body.kind, 'Table');
  assert.deepEqual(one.body.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Data', 'Age']);
  assert.deepEqual(one.body.rows[0].cells.slice(0, 2), ['from-json', 1]);
  assert.equal(one.body.rows[0].object.kind, 'PartialObjectMetadata');
  const list = await call(server().client, 'GET', `${cmPath}?includeObject=Object`, undefined, { accept: tableAccept });
  assert.equal(list.body.kind, 'Table');
  assert.ok(list.body.rows.some((r: { object: { kind: string; data?: unknown } }) => r.object.kind === 'ConfigMap' && r.object.data));
  assert.match(list.body.metadata.resourceVersion, /^\d+$/);
  const metaList = await call(server().client, 'GET', cmPath, undefined, { accept: 'application/json;as=PartialObjectMetadataList;g=meta.svc.io;v=v1' });
  assert.equal(metaList.body.kind, 'PartialObjectMetadataList');
  assert.equal(metaList.body.items[0].kind, 'PartialObjectMetadata');
  assert.equal(metaList.body.items[0].data, undefined);
  const metaPb = await rawCall('GET', `${cmPath}/from-json`, { accept: `${pb};as=PartialObjectMetadata;g=meta.svc.io;v=v1` });
  const partial = codec.decode(metaPb.body);
  assert.ok(partial.ok);
  assert.equal(partial.value.kind, 'PartialObjectMetadata');
  assert.equal(partial.value.metadata?.name, 'from-json');

  const refused = await call(server().client, 'GET', cmPath, undefined, { accept: 'text/html' });
  assert.equal(refused.status, 406);
  assert.equal(refused.body.reason, 'NotAcceptable');
  assert.match(refused.body.message, new RegExp(`application/json, application/yaml, ${pb.replace(/\./g, '\\.')}`));
  const wrongList = await call(server().client, 'GET', `${cmPath}/from-json`, undefined, { accept: 'application/json;as=PartialObjectMetadataList;g=meta.svc.io;v=v1' });
  assert.equal(wrongList.status, 406);
  const badInclude = await call(server().client, 'GET', cmPath + '?includeObject=All', undefined, { accept: tableAccept });
  assert.equal(badInclude.status, 400);
});
