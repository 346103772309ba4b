import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';

pluginConformance('NamespaceExists');

test('NamespaceExists: writes in a missing namespace are NotFound, dry runs too; existing namespaces pass', async () => {
  const rig = await admissionRig({ plugins: ['NamespaceExists'] });
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} };
  for (const query of [{}, { dryRun: 'All' }]) {
    const missing = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'nope', query, body: cm });
    assert.equal(missing.code, 404);
    assert.deepEqual(missing.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'namespaces "nope" not found', reason: 'NotFound',
      details: { name: 'nope', kind: 'namespaces' }, code: 404,
    });
  }
  assert.equal((await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm })).code, 201);
  rig.close();
});
