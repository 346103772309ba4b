import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';

pluginConformance('NamespaceAutoProvision');

test('NamespaceAutoProvision: a create in a missing namespace creates it first; a dry run creates nothing', async () => {
  const rig = await admissionRig({ plugins: ['NamespaceAutoProvision', 'NamespaceLifecycle'] });
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} };
  const dry = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'dry', query: { dryRun: 'All' }, body: cm });
  assert.equal(dry.code, 404, 'without the namespace, lifecycle refuses the dry run');
  assert.equal(await rig.get('namespaces', '', 'dry'), undefined);
  const made = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'fresh', body: cm });
  assert.equal(made.code, 201, JSON.stringify(made.body));
  assert.equal((await rig.get('namespaces', '', 'fresh'))?.metadata?.name, 'fresh');
  assert.equal((await rig.get('configmaps', 'fresh', 'c'))?.metadata?.name, 'c');
  rig.close();
});
