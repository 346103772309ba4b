import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody, testClaim } from '../testing/test-objects.js';

pluginConformance('DefaultStorageClass');

const storageClass = (name: string, isDefault: boolean) => ({
  apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', provisioner: 'example.com/disk',
  metadata: { name, ...(isDefault ? { annotations: { 'storageclass.svc.io/is-default-class': 'true' } } : {}) },
});

test('DefaultStorageClass: claims without a class get the default; an explicit "" stays; several defaults refuse', async () => {
  const rig = await admissionRig({ plugins: ['DefaultStorageClass'] });
  const claim = (name: string, spec = {}, query?: Record<string, string>) =>
    rig.call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default', body: testClaim(name, spec), ...(query ? { query } : {}) });
  assert.equal(specOfBody((await claim('none')).body)['storageClassName'], undefined, 'no default: nothing set');
  assert.equal((await rig.call({ verb: 'create', group: 'storage.svc.io', resource: 'storageclasses', body: storageClass('fast', true) })).code, 201);
  assert.equal((await claim('c')).code, 201);
  assert.equal(((await rig.get('persistentvolumeclaims', 'default', 'c'))?.['spec'] as { storageClassName: string }).storageClassName, 'fast');
  const empty = await claim('empty', { storageClassName: '' }, { dryRun: 'All' });
  assert.equal(specOfBody(empty.body)['storageClassName'], '');
  assert.equal(await rig.get('persistentvolumeclaims', 'default', 'empty'), undefined);
  assert.equal((await rig.call({ verb: 'create', group: 'storage.svc.io', resource: 'storageclasses', body: storageClass('slow', true) })).code, 201);
  const refused = await claim('two');
  assert.equal(refused.code, 403);
  assert.equal((refused.body as { message: string }).message,
    'persistentvolumeclaims "two" is forbidden: Internal error occurred: 2 default StorageClasses were found');
  rig.close();
});
