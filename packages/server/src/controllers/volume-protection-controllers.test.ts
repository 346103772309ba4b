import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../admission/testing/admission-test-kit.js';
import { testClaim, testPod } from '../admission/testing/test-objects.js';
import { startPvcProtectionController, startPvProtectionController } from './volume-protection-controllers.js';

async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

test('pvc-protection keeps a claim while a running pod mounts it; pv-protection keeps a bound volume', async () => {
  const rig = await admissionRig({ plugins: ['StorageObjectInUseProtection'] });
  const context = { registry: rig.registry, names: rig.names, retryMs: 20 };
  const controllers = [startPvcProtectionController(context), startPvProtectionController(context)];
  try {
    assert.equal((await rig.call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default', body: testClaim('data') })).code, 201);
    const pod = testPod('user', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] });
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod })).code, 201);
    assert.equal((await rig.call({ verb: 'delete', resource: 'persistentvolumeclaims', namespace: 'default', name: 'data' })).code, 200);
    await new Promise((r) => setTimeout(r, 100));
    const held = await rig.get('persistentvolumeclaims', 'default', 'data');
    assert.ok(held?.metadata?.deletionTimestamp !== undefined, 'the claim is being deleted');
    assert.deepEqual(held.metadata.finalizers, ['svc.io/pvc-protection'], 'and held while mounted');
    assert.equal((await rig.call({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'user', query: { gracePeriodSeconds: '0' } })).code, 200);
    assert.ok(await eventually(async () => (await rig.get('persistentvolumeclaims', 'default', 'data')) === undefined), 'gone once unused');

    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'vol' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } } };
    assert.equal((await rig.call({ verb: 'create', resource: 'persistentvolumes', body: pv })).code, 201);
    const stored = (await rig.get('persistentvolumes', '', 'vol'))!;
    assert.equal((await rig.call({ verb: 'update', resource: 'persistentvolumes', name: 'vol', subresource: 'status', body: { ...stored, status: { phase: 'Bound' } } })).code, 200);
    assert.equal((await rig.call({ verb: 'delete', resource: 'persistentvolumes', name: 'vol' })).code, 200);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok((await rig.get('persistentvolumes', '', 'vol'))?.metadata?.deletionTimestamp !== undefined, 'a bound volume is held');
    const bound = (await rig.get('persistentvolumes', '', 'vol'))!;
    assert.equal((await rig.call({ verb: 'update', resource: 'persistentvolumes', name: 'vol', subresource: 'status', body: { ...bound, status: { phase: 'Released' } } })).code, 200);
    assert.ok(await eventually(async () => (await rig.get('persistentvolumes', '', 'vol')) === undefined), 'released, it goes');
  } finally {
    await Promise.all(controllers.map((c) => c.stop()));
    rig.close();
  }
});
