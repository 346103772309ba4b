import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { protobufCodec } from './codec.js';

const codec = protobufCodec(namesFor('k8s'));
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n', resourceVersion: '7' }, data: { k: 'v' } };

/** The message of a frame: the bytes after its 4-byte big-endian length, which must be theirs. */
function messageOf(frame: Uint8Array): Uint8Array {
  const length = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0, false);
  assert.equal(length, frame.length - 4);
  return frame.subarray(4);
}

test('a watch frame reads back as the event it was written from', () => {
  for (const type of ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']) {
    const back = codec.decodeWatchEvent(messageOf(codec.encodeWatchFrame({ type, object: cm })!));
    assert.ok(back.ok, back.ok ? '' : back.error.message);
    assert.deepEqual(back.value, { type, object: cm });
  }
  const status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
  const error = codec.decodeWatchEvent(messageOf(codec.encodeWatchFrame({ type: 'ERROR', object: status })!));
  assert.ok(error.ok);
  assert.equal(error.value.type, 'ERROR');
  assert.equal((error.value.object as { code?: number }).code, 410);
});

test('a malformed watch event is a 400, never a throw', () => {
  const good = messageOf(codec.encodeWatchFrame({ type: 'ADDED', object: cm })!);
  const cases: Array<[string, Uint8Array]> = [
    ['no type', Uint8Array.from([0x12, 0x00])],
    ['a length past the end', good.subarray(0, good.length - 3)],
    ['the type with a wrong wire type', Uint8Array.from([0x08, 0x01])],
    ['an object that is no envelope', Uint8Array.from([0x0a, 0x01, 0x41, 0x12, 0x03, 0x0a, 0x01, 0x00])],
    ['an empty object', Uint8Array.from([0x0a, 0x01, 0x41, 0x12, 0x00])],
  ];
  for (const [what, bytes] of cases) {
    const r = codec.decodeWatchEvent(bytes);
    assert.ok(!r.ok, what);
    assert.equal(r.error.code, 400, what);
  }
});
