import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../../testing/test-registry.js';

test('PersistentVolume defaults: reclaim policy Retain, volumeMode Filesystem; bad reclaim policy 422', async () => {
  const { call } = await testRegistry([]);
  const spec = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } };
  const r = await call({ verb: 'create', resource: 'persistentvolumes', body: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec } });
  assert.equal(r.code, 201, JSON.stringify(r.body));
  const s = (r.body as { spec: Record<string, unknown> }).spec;
  assert.equal(s['persistentVolumeReclaimPolicy'], 'Retain');
  assert.equal(s['volumeMode'], 'Filesystem');
  const kept = await call({ verb: 'create', resource: 'persistentvolumes', body: { metadata: { name: 'pv2' }, spec: { ...spec, persistentVolumeReclaimPolicy: 'Delete', volumeMode: 'Block' } } });
  assert.equal((kept.body as { spec: Record<string, unknown> }).spec['persistentVolumeReclaimPolicy'], 'Delete');
  assert.equal((kept.body as { spec: Record<string, unknown> }).spec['volumeMode'], 'Block');
  const bad = await call({ verb: 'create', resource: 'persistentvolumes', body: { metadata: { name: 'pv3' }, spec: { ...spec, persistentVolumeReclaimPolicy: 'Keep' } } });
  assert.equal(bad.code, 422);
});

test('PersistentVolumeClaim defaults volumeMode to Filesystem', async () => {
  const { call } = await testRegistry();
  const r = await call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default',
    body: { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } });
  assert.equal(r.code, 201, JSON.stringify(r.body));
  assert.equal((r.body as { spec: Record<string, unknown> }).spec['volumeMode'], 'Filesystem');
});
