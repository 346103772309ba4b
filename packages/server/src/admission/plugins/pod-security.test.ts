import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { requestRecorder } from '../recorder.js';
import { testPod } from '../testing/test-objects.js';

pluginConformance('PodSecurity');

const namespace = (name: string, labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const message = (r: { body?: unknown }) => (r.body as { message: string }).message;
const privilegedPod = (name: string) => testPod(name, { hostNetwork: true, containers: [{ name: 'c', image: 'x:1', securityContext: { privileged: true } }] });

test('PodSecurity: enforce refuses violating pods with kube\'s message, dry runs too; warn answers with a warning', async () => {
  const rig = await admissionRig({ plugins: ['PodSecurity'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: namespace('strict', { 'pod-security.svc.io/enforce': 'restricted' }) })).code, 201);
  for (const query of [{}, { dryRun: 'All' }]) {
    const refused = await rig.call({ verb: 'create', resource: 'pods', namespace: 'strict', query, body: privilegedPod('p') });
    assert.equal(refused.code, 403);
    assert.equal(message(refused), 'pods "p" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork), ' +
      'privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set ' +
      'securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set ' +
      'securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
  }
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: namespace('watched', { 'pod-security.svc.io/warn': 'baseline', 'pod-security.svc.io/warn-version': 'v1.24' }) })).code, 201);
  const warned = await rig.call({ verb: 'create', resource: 'pods', namespace: 'watched', body: privilegedPod('w') });
  assert.equal(warned.code, 201);
  assert.deepEqual(warned.warnings, ['would violate PodSecurity "baseline:v1.24": host namespaces (hostNetwork), privileged (container "c" must not set securityContext.privileged=true)']);
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: privilegedPod('free') })).code, 201, 'unlabelled namespaces are privileged');
  rig.close();
});

test('PodSecurity: audit annotations, workload templates warn only, significant updates only', async () => {
  const rig = await admissionRig({ plugins: ['PodSecurity'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: namespace('audited', {
    'pod-security.svc.io/audit': 'baseline', 'pod-security.svc.io/enforce': 'baseline', 'pod-security.svc.io/enforce-version': 'v1.26',
  }) })).code, 201);
  const plugin = rig.chain.plugins.find((p) => p.name === 'PodSecurity')!;
  const recorder = requestRecorder(() => {});
  const attrs = { operation: 'CREATE' as const, group: '', version: 'v1', resource: 'pods', subresource: '', kind: 'Pod', namespace: 'audited', name: 'a', dryRun: false, user: { username: 'u', groups: [] } };
  const hostPorts = testPod('a', { containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 1, hostPort: 1 }] }] });
  const result = await plugin.validate!(Object.defineProperty({ ...attrs, object: hostPorts }, 'recorder', { value: recorder }));
  assert.equal(result.allowed, false);
  assert.deepEqual(Object.fromEntries([...recorder.annotations].map(([k, v]) => [k, v.value])), {
    'pod-security.svc.io/enforce-policy': 'baseline:v1.26',
    'pod-security.svc.io/audit-violations': 'would violate PodSecurity "baseline:latest": hostPort (container "c" uses hostPort 1)',
  });
  // A Deployment whose template violates enforce is stored, with a warning.
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: namespace('apps', { 'pod-security.svc.io/enforce': 'baseline' }) })).code, 201);
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } },
    template: { metadata: { labels: { a: 'b' } }, spec: { hostPID: true, containers: [{ name: 'c', image: 'x:1' }] } } } };
  const made = await rig.call({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'apps', body: deployment });
  assert.equal(made.code, 201, JSON.stringify(made.body));
  assert.deepEqual(made.warnings, ['would violate PodSecurity "baseline:latest": host namespaces (hostPID)']);
  rig.close();
});

test('PodSecurity: namespace labels are validated; tightening enforce warns about existing pods', async () => {
  const rig = await admissionRig({ plugins: ['PodSecurity'] });
  const bad = await rig.call({ verb: 'create', resource: 'namespaces', body: namespace('bad', { 'pod-security.svc.io/enforce': 'strict', 'pod-security.svc.io/warn-version': '1.25' }) });
  assert.equal(bad.code, 422);
  assert.equal(message(bad), 'Namespace "bad" is invalid: [metadata.labels[pod-security.svc.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, ' +
    'metadata.labels[pod-security.svc.io/warn-version]: Invalid value: "1.25": must be "latest" or "v1.x"]');
  assert.equal((await rig.call({ verb: 'create', resource: 'namespaces', body: namespace('team', {}) })).code, 201);
  for (const name of ['b', 'a', 'c']) assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'team', body: privilegedPod(name) })).code, 201);
  const ns = (await rig.get('namespaces', '', 'team'))!;
  const tightened = await rig.call({ verb: 'update', resource: 'namespaces', name: 'team',
    body: { ...ns, metadata: { ...ns.metadata, labels: { 'pod-security.svc.io/enforce': 'baseline' } } } });
  assert.equal(tightened.code, 200);
  assert.deepEqual(tightened.warnings, [
    'existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"',
    'a (and 2 other pods): host namespaces, privileged',
  ]);
  rig.close();
});

test('PodSecurity: the configuration sets defaults and exemptions', async () => {
  const configuration = { PodSecurity: {
    apiVersion: 'pod-security.admission.config.svc.io/v1', kind: 'PodSecurityConfiguration',
    defaults: { enforce: 'baseline' }, exemptions: { namespaces: ['ops'], usernames: ['trusted'], runtimeClasses: ['vm'] },
  } };
  const rig = await admissionRig({ plugins: ['PodSecurity'], configuration, namespaces: ['default', 'ops'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: privilegedPod('p') })).code, 403, 'baseline by default');
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'ops', body: privilegedPod('p') })).code, 201, 'exempt namespace');
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', user: { username: 'trusted', groups: [] }, body: privilegedPod('q') })).code, 201);
  const vm = privilegedPod('r');
  (vm['spec'] as Record<string, unknown>)['runtimeClassName'] = 'vm';
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: vm })).code, 201);
  await assert.rejects(admissionRig({ plugins: ['PodSecurity'], configuration: { PodSecurity: { ...configuration.PodSecurity, defaults: { enforce: 'all' } } } }),
    /PodSecurity: invalid configuration: defaults\.enforce: Invalid value: "all"/);
  rig.close();
});
