import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoDuration, namesFor, type Names } from '@svc-apiserver/api';
import { generatedResources, generatedSchemas } from '../schema/generated-data.js';
import { refName, type OpenApiSchema } from '../schema/openapi-schema.js';
import { decodeEnvelope, encodeEnvelope, protobufCodec, protobufPrefix } from '@svc-apiserver/protobuf/codec';
import { messageTypeFor, metaType } from './message-types.js';
import { parseGoDuration } from '@svc-apiserver/protobuf/go-time';

const svc = namesFor('svc');
const k8s = namesFor('k8s');
const schemas = generatedSchemas();
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** A sample value for a schema: every property set, one list item, one map entry; recursion cut at a depth. */
function sample(schema: OpenApiSchema | undefined, depth: number, seed: { n: number }): unknown {
  if (schema === undefined) return 'x';
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  if (ref !== undefined) {
    const name = refName(ref);
    seed.n++;
    switch (name) {
      case 'io.k8s.apimachinery.pkg.api.resource.Quantity': return seed.n % 2 ? '1500m' : '2Gi';
      case 'io.k8s.apimachinery.pkg.util.intstr.IntOrString': return seed.n % 2 ? 8080 : 'http';
      case `${meta}Time`: return '2024-01-02T03:04:05Z';
      case `${meta}MicroTime`: return '2024-01-02T03:04:05.123456Z';
      case `${meta}FieldsV1`: return { 'f:metadata': { 'f:labels': {} } };
      case 'io.k8s.apimachinery.pkg.runtime.RawExtension': return { apiVersion: 'v1', kind: 'Foo', a: [1, 'b'] };
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': return { any: ['json', 1, true] };
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': return seed.n % 2 ? false : { type: 'string' };
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': return { type: 'integer' };
      case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': return ['a', 'b'];
      default: return sample(schemas[name], depth, seed);
    }
  }
  switch (schema.type) {
    case 'string': return schema.format === 'byte' ? 'aGVsbG8=' : schema.enum ? schema.enum[0] : `s${seed.n++}`;
    case 'integer': return 7 + (seed.n++ % 5);
    case 'number': return 1.5;
    case 'boolean': return true;
    case 'array': return depth > 5 ? [] : [sample(schema.items, depth + 1, seed)];
    case 'object':
    default: {
      if (schema.properties) {
        if (depth > 5) return {};
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(schema.properties)) {
          if (k === 'apiVersion' || k === 'kind') continue;
          const value = sample(v, depth + 1, seed);
          // Empty lists and maps have no presence in a message (nor in Go's JSON).
          if (value !== undefined && !(Array.isArray(value) && value.length === 0)) out[k] = value;
        }
        return out;
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return depth > 5 ? undefined : { key: sample(schema.additionalProperties, depth + 1, seed) };
      }
      return schema['x-kubernetes-preserve-unknown-fields'] ? { free: 'form' } : {};
    }
  }
}

/** Every kind the schema catalog declares (`x-kubernetes-group-version-kind`), with its apiVersion in a flavour. */
function allKinds(names: Names): { apiVersion: string; kind: string; schemaName: string }[] {
  const out: { apiVersion: string; kind: string; schemaName: string }[] = [];
  for (const [schemaName, schema] of Object.entries(schemas)) {
    const gvks = (schema['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[];
    for (const gvk of gvks) {
      const group = gvk.group === '' ? '' : names.fromUpstream(gvk.group);
      out.push({ apiVersion: group === '' ? gvk.version : `${group}/${gvk.version}`, kind: gvk.kind, schemaName });
    }
  }
  return out;
}

/** Encodes and decodes an object in a flavour. */
function roundTrip(names: Names, object: Record<string, unknown>): unknown {
  const codec = protobufCodec(names);
  const bytes = codec.encode(object);
  assert.ok(bytes, `${String(object['kind'])} has a message type`);
  const back = codec.decode(bytes);
  assert.ok(back.ok, back.ok ? '' : back.error.message);
  return back.value;
}

test('every kind of the catalog round-trips through its upstream protobuf message', () => {
  const kinds = allKinds(svc);
  assert.ok(kinds.length > 200, `catalog has ${kinds.length} kinds`);
  const seen = new Set<string>();
  for (const k of kinds) {
    const key = `${k.apiVersion} ${k.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const body = sample(schemas[k.schemaName], 0, { n: 0 }) as Record<string, unknown>;
    const object = { apiVersion: k.apiVersion, kind: k.kind, ...body };
    assert.deepEqual(roundTrip(svc, object), object, key);
  }
});

test('k8s flavour: groups keep their upstream names; lists carry their items', () => {
  const list = {
    apiVersion: 'coordination.k8s.io/v1', kind: 'LeaseList', metadata: { resourceVersion: '12', continue: 'abc' },
    items: [{ metadata: { name: 'a', namespace: 'n' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 0 } }],
  };
  assert.deepEqual(roundTrip(k8s, list), list);
  assert.equal(messageTypeFor(svc, 'coordination.k8s.io/v1', 'Lease'), undefined, 'the other flavour\'s group is not built in');
  assert.equal(messageTypeFor(svc, 'example.com/v1', 'Widget'), undefined, 'custom groups have no protobuf');
  assert.equal(messageTypeFor(svc, 'v1', 'Status')?.fullName, '.k8s.io.apimachinery.pkg.apis.meta.v1.Status');
  assert.equal(messageTypeFor(svc, 'apps/v1', 'DeleteOptions')?.fullName, '.k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
  assert.equal(messageTypeFor(svc, 'meta.svc.io/v1beta1', 'PartialObjectMetadataList')?.fullName, '.k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList');
});

test('Go conventions: inlined structs, renamed fields, zero values Go writes, bytes and int-or-string', () => {
  const codec = protobufCodec(svc);
  const pod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'i', livenessProbe: { httpGet: { port: 8080 } } }], volumes: [{ name: 'v', emptyDir: {} }] },
  };
  const env = decodeEnvelope(codec.encode(pod)!);
  assert.ok(env.ok);
  const msg = messageTypeFor(svc, 'v1', 'Pod')!.decode(env.value.raw) as unknown as { spec: { volumes: { volumeSource: unknown }[]; containers: { livenessProbe: { handler: { httpGet: { port: { type: number; intVal: number } } } } }[] } };
  assert.ok(msg.spec.volumes[0]!.volumeSource, 'Volume.volumeSource is the inlined VolumeSource');
  const port = msg.spec.containers[0]!.livenessProbe.handler.httpGet.port;
  assert.deepEqual([Number(port.type), port.intVal], [0, 8080]);
  // As a Go client writes a ConfigMap: every non-pointer string present, empty, and a zero creation time.
  const type = messageTypeFor(k8s, 'v1', 'ConfigMap')!;
  const raw = type.encode({ metadata: { name: 'x', generateName: '', namespace: '', uid: '', resourceVersion: '', creationTimestamp: {} }, data: { a: 'b' } }).finish();
  const decoded = protobufCodec(k8s).decode(encodeEnvelope('v1', 'ConfigMap', raw));
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.value, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } });
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: Buffer.from([0, 255, 1]).toString('base64') }, type: 'Opaque' };
  const secretEnv = decodeEnvelope(codec.encode(secret)!);
  assert.ok(secretEnv.ok);
  const secretMsg = messageTypeFor(svc, 'v1', 'Secret')!.decode(secretEnv.value.raw) as unknown as { data: Record<string, Uint8Array> };
  assert.deepEqual([...secretMsg.data['k']!], [0, 255, 1], 'bytes travel raw, base64 only in JSON');
});

test('envelope: prefix, typeMeta, raw, empty encoding fields; data without the prefix is a 400', () => {
  const codec = protobufCodec(svc);
  const bytes = codec.encode({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } })!;
  assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
  const env = decodeEnvelope(bytes);
  assert.ok(env.ok);
  assert.equal(env.value.apiVersion, 'v1');
  assert.equal(env.value.kind, 'Namespace');
  assert.equal(env.value.contentEncoding, '');
  assert.equal(env.value.contentType, '');
  const bad = codec.decode(bytes.subarray(4));
  assert.ok(!bad.ok);
  assert.equal(bad.error.code, 400);
  assert.match(bad.error.message ?? '', /expected prefix \[107 56 115 0\]/);
  const unknownKind = codec.decode(encodeEnvelope('v1', 'NoSuchKind', new Uint8Array()));
  assert.ok(!unknownKind.ok && unknownKind.error.code === 400);
  assert.ok(!codec.decode(new Uint8Array()).ok);
  assert.equal(codec.encode({ apiVersion: 'example.com/v1', kind: 'Widget' }), undefined);
  assert.equal(codec.supports({ apiVersion: 'version' }), false);
  assert.deepEqual([...protobufPrefix], [107, 56, 115, 0]);
});

test('watch frames: 4-byte big-endian length, a raw WatchEvent, the object enveloped in object.raw', () => {
  const codec = protobufCodec(svc);
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', resourceVersion: '5' }, data: { a: 'b' } };
  const frame = codec.encodeWatchFrame({ type: 'ADDED', object })!;
  const length = new DataView(frame.buffer, frame.byteOffset).getUint32(0, false);
  assert.equal(length, frame.length - 4);
  const event = metaType('WatchEvent').decode(frame.subarray(4)) as unknown as { type: string; object: { raw: Uint8Array } };
  assert.equal(event.type, 'ADDED');
  const inner = codec.decode(event.object.raw);
  assert.ok(inner.ok);
  assert.deepEqual(inner.value, object);
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'gone', reason: 'Expired', code: 410 };
  const errFrame = codec.encodeWatchFrame({ type: 'ERROR', object: status })!;
  const errEvent = metaType('WatchEvent').decode(errFrame.subarray(4)) as unknown as { object: { raw: Uint8Array } };
  const errBack = codec.decode(errEvent.object.raw);
  assert.ok(errBack.ok);
  assert.deepEqual(errBack.value, status);
});

test('Go durations', () => {
  for (const [text, ns] of [['1h0m0s', 3600e9], ['1m30s', 90e9], ['1.5s', 1.5e9], ['300ms', 300e6], ['0s', 0], ['2µs', 2000], ['-5s', -5e9]] as const) {
    assert.equal(formatGoDuration(ns), text);
    assert.equal(parseGoDuration(text), ns);
  }
  assert.equal(parseGoDuration('2h45m'), (2 * 3600 + 45 * 60) * 1e9);
  assert.equal(parseGoDuration('soon'), undefined);
});
