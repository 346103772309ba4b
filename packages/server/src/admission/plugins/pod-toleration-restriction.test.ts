import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody, testPod } from '../testing/test-objects.js';

const configuration = {
  PodTolerationRestriction: {
    apiVersion: 'podtolerationrestriction.admission.svc.io/v1alpha1', kind: 'Configuration',
    default: [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }],
    whitelist: [{ key: 'cluster', operator: 'Exists' }, { key: 'node.svc.io/memory-pressure', operator: 'Exists' }, { key: 'team', operator: 'Exists' }],
  },
};
pluginConformance('PodTolerationRestriction', { configuration });

test('PodTolerationRestriction: namespace defaults (else the cluster\'s) are merged in, and tolerations must lie within the whitelist', async () => {
  const rig = await admissionRig({ plugins: ['PodTolerationRestriction'], configuration });
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', annotations: {
    'scheduler.alpha.svc.io/defaultTolerations': '[{"key":"team","operator":"Equal","value":"a","effect":"NoSchedule"}]',
    'scheduler.alpha.svc.io/tolerationsWhitelist': '[{"key":"team","operator":"Exists"}]',
  } } };
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: ns })).code, 201);
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('p') })).code, 201);
  assert.deepEqual(((await rig.get('pods', 'default', 'p'))?.['spec'] as Record<string, unknown>)['tolerations'],
    [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }]);
  const teamPod = await rig.call({ verb: 'create', resource: 'pods', namespace: 'team', query: { dryRun: 'All' }, body: testPod('q') });
  assert.equal(teamPod.code, 201, JSON.stringify(teamPod.body));
  assert.deepEqual(specOfBody(teamPod.body)['tolerations'], [{ key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' }]);
  const burstable = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' },
    body: testPod('b', { containers: [{ name: 'c', image: 'x:1', resources: { requests: { cpu: '1' } } }] }) });
  assert.ok((specOfBody(burstable.body)['tolerations'] as { key: string }[]).some((t) => t.key === 'node.svc.io/memory-pressure'), 'non-BestEffort pods tolerate memory pressure');
  const outside = await rig.call({ verb: 'create', resource: 'pods', namespace: 'team', body: testPod('x', { tolerations: [{ key: 'gpu', operator: 'Exists' }] }) });
  assert.equal(outside.code, 500);
  assert.deepEqual(outside.body, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: '', code: 500,
    message: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
  });
  rig.close();
});
