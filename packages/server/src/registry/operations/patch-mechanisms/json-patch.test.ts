import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { jsonPatchMechanism } from './json-patch.js';

const target = { qualified: { group: '', resource: 'configmaps' }, name: 'x' };
const stored: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } };

test('JSON patch mechanism: applies the operations to a copy of the stored object, 404 when none is stored', async () => {
  const mechanism = jsonPatchMechanism(target, [{ op: 'add', path: '/data/b', value: '2' }, { op: 'remove', path: '/data/a' }]);
  assert.equal(mechanism.createsMissing, false);
  assert.deepEqual(await mechanism.next(stored), { ok: true, value: { object: { ...stored, data: { b: '2' } }, warnings: [] } });
  assert.deepEqual(stored.data, { a: '1' });
  const missing = await mechanism.next(undefined);
  assert.equal(!missing.ok && missing.error.message, 'configmaps "x" not found');
  assert.equal(!missing.ok && missing.error.code, 404);
});

test('JSON patch mechanism: an operation that does not apply is 422, a malformed patch or a non-object result 400', async () => {
  const failedTest = await jsonPatchMechanism(target, [{ op: 'test', path: '/data/a', value: '2' }]).next(stored);
  assert.equal(!failedTest.ok && failedTest.error.code, 422);
  const notAPatch = await jsonPatchMechanism(target, { op: 'add' }).next(stored);
  assert.equal(!notAPatch.ok && notAPatch.error.code, 400);
  const array = await jsonPatchMechanism(target, [{ op: 'replace', path: '', value: [1] }]).next(stored);
  assert.equal(!array.ok && array.error.message, 'the patched document is not an object');
});
