import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig, testAdmin } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { testClaim } from '../testing/test-objects.js';

pluginConformance('PersistentVolumeClaimResize');

test('PersistentVolumeClaimResize: bound claims of an expandable class grow; others are refused', async () => {
  const rig = await admissionRig({ plugins: ['PersistentVolumeClaimResize'] });
  for (const [name, expand] of [['grow', true], ['fixed', false]] as const) {
    const sc = { apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'example.com/disk', allowVolumeExpansion: expand };
    assert.equal((await rig.call({ verb: 'create', group: 'storage.svc.io', resource: 'storageclasses', body: sc })).code, 201);
  }
  const bound = async (name: string, storageClassName: string) => {
    assert.equal((await rig.call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default', body: testClaim(name, { storageClassName }) })).code, 201);
    const stored = await rig.get('persistentvolumeclaims', 'default', name);
    const r = await rig.call({ verb: 'update', resource: 'persistentvolumeclaims', namespace: 'default', name, subresource: 'status', body: { ...stored, status: { phase: 'Bound' } } });
    assert.equal(r.code, 200, JSON.stringify(r.body));
    return (await rig.get('persistentvolumeclaims', 'default', name))!;
  };
  const resize = (claim: Record<string, unknown>, storage: string, query: Record<string, string> = {}) =>
    rig.call({ verb: 'update', resource: 'persistentvolumeclaims', namespace: 'default', name: (claim['metadata'] as { name: string }).name, query,
      body: { ...claim, spec: { ...(claim['spec'] as object), resources: { requests: { storage } } } } });
  const ok = await bound('a', 'grow');
  const grown = await resize(ok, '2Gi');
  assert.equal(grown.code, 200, JSON.stringify(grown.body));
  assert.equal(((await rig.get('persistentvolumeclaims', 'default', 'a'))?.['spec'] as { resources: { requests: { storage: string } } }).resources.requests.storage, '2Gi');
  const fixed = await bound('b', 'fixed');
  const refused = await resize(fixed, '5Gi', { dryRun: 'All' });
  assert.equal(refused.code, 403);
  assert.equal((refused.body as { message: string }).message,
    'persistentvolumeclaims "b" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
  assert.equal((await rig.call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default', body: testClaim('pending', { storageClassName: 'grow' }) })).code, 201);
  const pending = await rig.get('persistentvolumeclaims', 'default', 'pending');
  // Through the API the claim's own update validation answers first, as kube validates before validating admission.
  const notBound = await resize(pending!, '9Gi');
  assert.equal(notBound.code, 422);
  assert.match((notBound.body as { message: string }).message, /spec: Forbidden: spec is immutable after creation except resources\.requests for bound claims/);
  const grownPending = { ...pending!, spec: { ...(pending!['spec'] as object), resources: { requests: { storage: '9Gi' } } } };
  const direct = await rig.chain.validate({
    operation: 'UPDATE', group: '', version: 'v1', resource: 'persistentvolumeclaims', subresource: '', kind: 'PersistentVolumeClaim',
    namespace: 'default', name: 'pending', object: grownPending, oldObject: pending!, dryRun: false, user: testAdmin,
  });
  assert.equal(direct.allowed ? '' : direct.status.message, 'persistentvolumeclaims "pending" is forbidden: Only bound persistent volume claims can be expanded');
  rig.close();
});
