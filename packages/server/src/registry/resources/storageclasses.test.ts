import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';

const group = 'storage.svc.io';

test('StorageClass defaults reclaimPolicy Delete and volumeBindingMode Immediate; provisioner required; fields immutable', async () => {
  const { call } = await testRegistry([]);
  const r = await call({ verb: 'create', group, resource: 'storageclasses', body: { metadata: { name: 'fast' }, provisioner: 'example.com/p', parameters: { a: '1' } } });
  assert.equal(r.code, 201, JSON.stringify(r.body));
  const sc = r.body as Record<string, unknown>;
  assert.equal(sc['reclaimPolicy'], 'Delete');
  assert.equal(sc['volumeBindingMode'], 'Immediate');
  const missing = await call({ verb: 'create', group, resource: 'storageclasses', body: { metadata: { name: 'x' } } });
  assert.equal(missing.code, 422);
  assert.match((missing.body as Status).message ?? '', /provisioner: Required value/);
  const changed = await call({ verb: 'update', group, resource: 'storageclasses', name: 'fast', body: { ...sc, parameters: { a: '2' } } });
  assert.equal(changed.code, 422);
  assert.match((changed.body as Status).message ?? '', /parameters: Forbidden: updates to parameters are forbidden/);
  const labelled = await call({ verb: 'update', group, resource: 'storageclasses', name: 'fast', body: { ...sc, metadata: { ...(sc['metadata'] as object), labels: { a: 'b' } } } });
  assert.equal(labelled.code, 200);
});
