import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { mergePatchMechanism } from './merge-patch.js';

const target = { qualified: { group: 'apps', resource: 'deployments' }, name: 'web' };
const stored: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { a: '1', b: '2' } }, spec: { replicas: 1 } };

test('merge patch mechanism: merges objects, null removes, 404 when nothing is stored', async () => {
  const made = mergePatchMechanism(target, { metadata: { labels: { a: null, c: '3' } }, spec: { replicas: 2 } });
  assert.ok(made.ok);
  assert.equal(made.value.createsMissing, false);
  const next = await made.value.next(stored);
  assert.ok(next.ok);
  assert.deepEqual(next.value.object.metadata?.labels, { b: '2', c: '3' });
  assert.deepEqual(next.value.object['spec'], { replicas: 2 });
  assert.deepEqual(stored.metadata?.labels, { a: '1', b: '2' });
  const missing = await made.value.next(undefined);
  assert.equal(!missing.ok && missing.error.message, 'deployments.apps "web" not found');
});

test('merge patch mechanism: a patch that is not a JSON object is refused once, before any object is read', async () => {
  for (const patch of [[{ op: 'add' }], 'text', null]) {
    const made = mergePatchMechanism(target, patch);
    assert.equal(made.ok, false);
    assert.equal(!made.ok && made.error.code, 400);
    assert.equal(!made.ok && made.error.message, 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  }
});
