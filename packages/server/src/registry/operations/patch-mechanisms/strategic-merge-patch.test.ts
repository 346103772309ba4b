import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { patchSchemaFromOpenApi } from '../../../patch/patch-schema.js';
import { generatedSchemas } from '../../../schema/generated-data.js';
import { strategicMergePatchMechanism } from './strategic-merge-patch.js';

const target = { qualified: { group: '', resource: 'pods' }, name: 'p' };
const podSchema = patchSchemaFromOpenApi(generatedSchemas(), 'io.k8s.api.core.v1.Pod');
const stored: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } };

test('strategic merge patch mechanism: lists merge by the schema\'s merge keys', async () => {
  const mechanism = strategicMergePatchMechanism(target, { spec: { containers: [{ name: 'b', image: 'z' }] } }, podSchema);
  assert.equal(mechanism.createsMissing, false);
  const next = await mechanism.next(stored);
  assert.ok(next.ok);
  assert.deepEqual(next.value.object['spec'], { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'z' }] });
  assert.equal((await mechanism.next(undefined)).ok, false);
});

test('strategic merge patch mechanism: a patch that does not apply is a client error (400)', async () => {
  for (const patch of [{ spec: { $retainKeys: 'x' } }, { spec: { $patch: 'bogus' } }, { spec: { containers: [{ image: 'no-key' }] } }]) {
    const next = await strategicMergePatchMechanism(target, patch, podSchema).next(stored);
    assert.equal(!next.ok && next.error.code, 400, JSON.stringify(patch));
    assert.equal(!next.ok && next.error.reason, 'BadRequest');
  }
});
