import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { encodeEnvelope, protobufCodec } from './codec.js';

const codec = protobufCodec(namesFor('svc'));

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n > 127; n = Math.floor(n / 128)) out.push((n & 127) | 128);
  out.push(n);
  return out;
}

/** A length-delimited field. */
const field = (tag: number, body: Uint8Array): Uint8Array => Buffer.concat([Buffer.from([...varint(tag), ...varint(body.length)]), body]);

/** A CustomResourceDefinition whose schema nests `depth` JSONSchemaProps through `not` (field 28). */
function nestedCrd(depth: number): Uint8Array {
  let props: Uint8Array = new Uint8Array(0);
  for (let i = 0; i < depth; i++) props = field((28 << 3) | 2, props);
  // spec(2).versions(7).schema(4).openAPIV3Schema(1)
  return field((2 << 3) | 2, field((7 << 3) | 2, field((4 << 3) | 2, field((1 << 3) | 2, props))));
}

test('nesting past the bound is a 400, however deep the message (no stack overflow)', () => {
  // A recursive type nests as deep as the bytes allow.
  const r = codec.decode(encodeEnvelope('apiextensions.svc.io/v1', 'CustomResourceDefinition', nestedCrd(10_000)));
  assert.ok(!r.ok);
  assert.equal(r.error.code, 400);
  assert.match(r.error.message ?? '', /nested deeper than/);
  // Within the bound it decodes.
  const ok = codec.decode(encodeEnvelope('apiextensions.svc.io/v1', 'CustomResourceDefinition', nestedCrd(50)));
  assert.ok(ok.ok, ok.ok ? '' : ok.error.message);
  let depth = 0;
  for (let s = (ok.value as unknown as { spec: { versions: { schema: { openAPIV3Schema: { not?: unknown } } }[] } }).spec.versions[0]!.schema.openAPIV3Schema; s.not !== undefined; s = s.not as typeof s) depth++;
  assert.equal(depth, 50);
});

test('malformed messages are 400s: wrong wire types, lengths past the end, tag 0, open groups, long varints', () => {
  const configMap = (raw: number[]): ReturnType<typeof codec.decode> => codec.decode(encodeEnvelope('v1', 'ConfigMap', Uint8Array.from(raw)));
  const cases: [string, number[], RegExp][] = [
    ['metadata sent as a varint', [0x08, 0x01], /wrong wire type 0 for field 1/],
    ['a length past the message', [0x0a, 0x05, 0x0a, 0x01], /beyond the end/],
    ['tag 0', [0x00, 0x01], /illegal tag 0/],
    ['a group never closed', [0x6b, 0x08, 0x01], /unterminated group|unexpected end/],
    ['a varint of eleven bytes', [0x08 | (99 << 3) & 0x7f | 0x80, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], /varint|wire type|end/],
    ['wire type 7', [0x0f], /wire type 7/],
    ['a double cut short', [0x09 | (99 << 3) & 0x7f | 0x80, 0x06, 1, 2, 3], /end of message/],
  ];
  for (const [what, raw, message] of cases) {
    const r = configMap(raw);
    assert.ok(!r.ok, what);
    assert.equal(r.error.code, 400, what);
    assert.match(r.error.message ?? '', message, what);
  }
  // Unknown fields of every wire type, groups nested inside, are skipped.
  const unknown = [0xa8, 0x06, 0x05, 0xb1, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0xbd, 0x06, 1, 2, 3, 4, 0xb3, 0x06, 0x0b, 0x08, 0x01, 0x0c, 0xb4, 0x06];
  const r = configMap([...unknown, 0x12, 0x06, 0x0a, 0x01, 0x61, 0x12, 0x01, 0x62]);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  assert.deepEqual(r.value, { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } });
});

test('a time out of the range of dates is a 400, not an exception', () => {
  // ConfigMap.metadata(1).creationTimestamp(8) with seconds far beyond year 275760.
  const time = Uint8Array.from([0x08, ...varint(2 ** 50)]);
  const r = codec.decode(encodeEnvelope('v1', 'ConfigMap', field((1 << 3) | 2, field((8 << 3) | 2, time))));
  assert.ok(!r.ok);
  assert.equal(r.error.code, 400);
});
