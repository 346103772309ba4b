/**
 * Handler tests go through the server's body decoder and response writer: a YAML or protobuf body, duplicate fields
 * and the negotiated answer are what a client of the server would see.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject, Status } from '@svc-apiserver/api';
import { protobufCodec } from '@svc-apiserver/protobuf/codec';
import { testRegistry } from '../../testing/test-registry.js';

type ConfigMap = KubeObject & { data?: Record<string, string> };

test('a handler test decodes a YAML body as the server does: YAML 1.1 quoting, duplicate keys by line under field validation', async () => {
  const { call } = await testRegistry();
  const yaml = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  mode: "0644"\n  a: "1"\n  a: "2"\n`;
  const created = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', contentType: 'application/yaml', body: yaml('warned'), query: { fieldValidation: 'Warn' } });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  assert.deepEqual((created.body as ConfigMap).data, { mode: '0644', a: '2' });
  assert.deepEqual(created.warnings, ['line 8: key "a" already set in map']);

  const strict = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', contentType: 'application/yaml', body: yaml('strict'), query: { fieldValidation: 'Strict' } });
  assert.equal(strict.code, 400);
  assert.match((strict.body as Status).message ?? '', /line 8: key "a" already set in map/);

  const ignored = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', contentType: 'application/yaml', body: yaml('ignored'), query: { fieldValidation: 'Ignore' } });
  assert.equal(ignored.code, 201);
  assert.deepEqual(ignored.warnings, []);
});

test('a handler test sees JSON duplicate fields as the server does: by path, the last value kept', async () => {
  const { call } = await testRegistry();
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1","a":"2"}}';
  const strict = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body, query: { fieldValidation: 'Strict' } });
  assert.equal(strict.code, 400);
  assert.equal((strict.body as Status).message, 'strict decoding error: duplicate field "data.a"');
  const warned = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body, query: { fieldValidation: 'Warn' } });
  assert.equal(warned.code, 201);
  assert.deepEqual(warned.warnings, ['duplicate field "data.a"']);
  assert.deepEqual((warned.body as ConfigMap).data, { a: '2' });
});

test('a handler test sends and receives protobuf as kubectl does', async () => {
  const { call, names } = await testRegistry();
  const protobuf = names.name('protobufMediaType');
  const codec = protobufCodec(names);
  const bytes = codec.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'proto' }, data: { k: 'v' } })!;
  const created = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', contentType: protobuf, accept: protobuf, body: bytes });
  assert.equal(created.code, 201);
  assert.equal(created.headers?.['Content-Type'], protobuf);
  assert.deepEqual((created.body as ConfigMap).data, { k: 'v' });
  assert.equal((created.body as ConfigMap).metadata?.namespace, 'default');

  const malformed = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', contentType: protobuf, body: Buffer.from('not protobuf') });
  assert.equal(malformed.code, 400);

  const table = await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'proto', accept: 'application/json;as=Table;v=v1;g=meta.svc.io' });
  assert.equal((table.body as KubeObject).kind, 'Table');
});
