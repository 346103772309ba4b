import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody, testPod } from '../testing/test-objects.js';

const configuration = { PodNodeSelector: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=prod', restricted: 'env=dev,tier=web' } } };
pluginConformance('PodNodeSelector', { configuration });

test('PodNodeSelector: the namespace annotation or the cluster default is merged in; conflicts and selectors outside the allowed one are refused', async () => {
  const rig = await admissionRig({ plugins: ['PodNodeSelector'], configuration });
  const annotated = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'annotated', annotations: { 'scheduler.alpha.svc.io/node-selector': 'disk=ssd' } } };
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: annotated })).code, 201);
  const restricted = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'restricted', annotations: { 'scheduler.alpha.svc.io/node-selector': 'env=dev' } } };
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: restricted })).code, 201);
  const pod = (ns: string, name: string, spec: Record<string, unknown> = {}, query: Record<string, string> = {}) =>
    rig.call({ verb: 'create', resource: 'pods', namespace: ns, query, body: testPod(name, spec) });
  assert.equal((await pod('default', 'p')).code, 201);
  assert.deepEqual(((await rig.get('pods', 'default', 'p'))?.['spec'] as Record<string, unknown>)['nodeSelector'], { env: 'prod' });
  const viaAnnotation = await pod('annotated', 'q', { nodeSelector: { zone: 'a' } }, { dryRun: 'All' });
  assert.deepEqual(specOfBody(viaAnnotation.body)['nodeSelector'], { disk: 'ssd', zone: 'a' });
  const conflict = await pod('default', 'r', { nodeSelector: { env: 'test' } });
  assert.equal(conflict.code, 403);
  assert.equal((conflict.body as { message: string }).message, 'pods "r" is forbidden: pod node label selector conflicts with its namespace node label selector');
  assert.equal((await pod('restricted', 'within', { nodeSelector: { tier: 'web' } })).code, 201);
  const outside = await pod('restricted', 's', { nodeSelector: { gpu: 'yes' } });
  assert.equal(outside.code, 403, JSON.stringify(outside.body));
  assert.equal((outside.body as { message: string }).message, 'pods "s" is forbidden: pod node label selector labels conflict with its namespace whitelist');
  rig.close();
});

test('PodNodeSelector: a malformed configuration stops the chain', async () => {
  await assert.rejects(admissionRig({ plugins: ['PodNodeSelector'], configuration: { PodNodeSelector: { podNodeSelectorPluginConfig: { a: '==' } } } }), /PodNodeSelector: invalid configuration/);
});
