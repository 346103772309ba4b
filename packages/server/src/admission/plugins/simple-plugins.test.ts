import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody, testClaim, testPod } from '../testing/test-objects.js';

for (const name of ['AlwaysPullImages', 'DefaultTolerationSeconds', 'DenyServiceExternalIPs', 'ExtendedResourceToleration',
  'LimitPodHardAntiAffinityTopology', 'SecurityContextDeny', 'StorageObjectInUseProtection', 'TaintNodesByCondition', 'PersistentVolumeLabel']) {
  pluginConformance(name);
}

test('AlwaysPullImages: every container pulls always; a validating change back is refused; updates without new images pass', async () => {
  const rig = await admissionRig({ plugins: ['AlwaysPullImages'] });
  const pod = testPod('p', { initContainers: [{ name: 'i', image: 'init:1', imagePullPolicy: 'Never' }] });
  const created = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const stored = await rig.get('pods', 'default', 'p');
  const spec = stored?.['spec'] as { containers: { imagePullPolicy: string }[]; initContainers: { imagePullPolicy: string }[] };
  assert.equal(spec.containers[0]?.imagePullPolicy, 'Always');
  assert.equal(spec.initContainers[0]?.imagePullPolicy, 'Always');
  // A dry run is mutated alike and stores nothing.
  const dry = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('q') });
  assert.equal(dry.code, 201);
  assert.equal((specOfBody(dry.body)['containers'] as { imagePullPolicy: string }[])[0]?.imagePullPolicy, 'Always');
  assert.equal(await rig.get('pods', 'default', 'q'), undefined);
  // The validating phase refuses what a later mutation undid.
  const plugin = rig.chain.plugins[0]!;
  const refused = await plugin.validate!({
    operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', kind: 'Pod', namespace: 'default', name: 'r',
    dryRun: false, user: { username: 'u', groups: [] }, object: testPod('r', { containers: [{ name: 'c', image: 'x', imagePullPolicy: 'IfNotPresent' }] }),
  });
  assert.equal(refused.allowed, false);
  assert.deepEqual(!refused.allowed && refused.status, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
    message: 'pods "r" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"',
    details: { name: 'r', kind: 'pods' },
  });
  rig.close();
});

test('DefaultTolerationSeconds: not-ready and unreachable tolerations with the flags\' seconds, unless the pod has them', async () => {
  const rig = await admissionRig({ plugins: ['DefaultTolerationSeconds'], flags: { defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 120 } });
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('p') })).code, 201);
  const spec = (await rig.get('pods', 'default', 'p'))?.['spec'] as { tolerations: unknown[] };
  assert.deepEqual(spec.tolerations, [
    { key: 'node.svc.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    { key: 'node.svc.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
  ]);
  // A toleration of every taint covers both: nothing is added.
  const all = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('q', { tolerations: [{ operator: 'Exists' }] }) });
  assert.deepEqual(specOfBody(all.body)['tolerations'], [{ operator: 'Exists' }]);
  assert.equal(await rig.get('pods', 'default', 'q'), undefined);
  rig.close();
});

test('DenyServiceExternalIPs: new external IPs are refused; existing ones may stay or go', async () => {
  const rig = await admissionRig({ plugins: ['DenyServiceExternalIPs'] });
  const svc = (ips?: string[]) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' },
    spec: { ports: [{ port: 80 }], selector: { a: 'b' }, ...(ips ? { externalIPs: ips } : {}) } });
  const refusedCreate = await rig.call({ verb: 'create', resource: 'services', namespace: 'default', body: svc(['1.2.3.4']) });
  assert.equal(refusedCreate.code, 403);
  assert.equal((refusedCreate.body as { message: string }).message, 'services "s" is forbidden: Use of external IPs is denied by admission control');
  const dry = await rig.call({ verb: 'create', resource: 'services', namespace: 'default', query: { dryRun: 'All' }, body: svc(['1.2.3.4']) });
  assert.equal(dry.code, 403, 'a dry run is refused alike');
  assert.equal((await rig.call({ verb: 'create', resource: 'services', namespace: 'default', body: svc() })).code, 201);
  const stored = await rig.get('services', 'default', 's');
  const adding = await rig.call({ verb: 'update', resource: 'services', namespace: 'default', name: 's', body: { ...stored, spec: { ...(stored!['spec'] as object), externalIPs: ['5.6.7.8'] } } });
  assert.equal(adding.code, 403);
  rig.close();
});

test('ExtendedResourceToleration: pods requesting extended resources tolerate their taints', async () => {
  const rig = await admissionRig({ plugins: ['ExtendedResourceToleration'] });
  const pod = testPod('p', { containers: [{ name: 'c', image: 'x:1', resources: { limits: { 'example.com/gpu': '1', cpu: '1' } } }] });
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod })).code, 201);
  const spec = (await rig.get('pods', 'default', 'p'))?.['spec'] as { tolerations: unknown[] };
  assert.deepEqual(spec.tolerations, [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  const plain = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('q') });
  assert.equal(specOfBody(plain.body)['tolerations'], undefined, 'no extended resource, no toleration');
  rig.close();
});

test('LimitPodHardAntiAffinityTopology: required anti-affinity only by hostname', async () => {
  const rig = await admissionRig({ plugins: ['LimitPodHardAntiAffinityTopology'] });
  const term = (key: string) => ({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: key, labelSelector: {} }] } } });
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('ok', term('svc.io/hostname')) })).code, 201);
  const refused = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('zone', term('topology.svc.io/zone')) });
  assert.equal(refused.code, 403);
  assert.equal((refused.body as { message: string }).message,
    'pods "zone" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.svc.io/zone but only key svc.io/hostname is allowed');
  rig.close();
});

test('SecurityContextDeny: identity fields of pod and container security contexts are refused', async () => {
  const rig = await admissionRig({ plugins: ['SecurityContextDeny'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('ok', { securityContext: { runAsNonRoot: true } }) })).code, 201);
  const cases: [Record<string, unknown>, string][] = [
    [{ securityContext: { supplementalGroups: [1] } }, 'pod.Spec.SecurityContext.SupplementalGroups is forbidden'],
    [{ securityContext: { fsGroup: 2 } }, 'pod.Spec.SecurityContext.FSGroup is forbidden'],
    [{ containers: [{ name: 'c', image: 'x:1', securityContext: { runAsUser: 0 } }] }, 'SecurityContext.RunAsUser is forbidden'],
  ];
  for (const [spec, why] of cases) {
    const r = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('bad', spec) });
    assert.equal(r.code, 403);
    assert.equal((r.body as { message: string }).message, `pods "bad" is forbidden: ${why}`);
  }
  rig.close();
});

test('StorageObjectInUseProtection: claims and volumes get their protection finalizers', async () => {
  const rig = await admissionRig({ plugins: ['StorageObjectInUseProtection'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default', body: testClaim('c') })).code, 201);
  assert.deepEqual((await rig.get('persistentvolumeclaims', 'default', 'c'))?.metadata?.finalizers, ['svc.io/pvc-protection']);
  const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } } };
  const dry = await rig.call({ verb: 'create', resource: 'persistentvolumes', query: { dryRun: 'All' }, body: pv });
  assert.deepEqual((dry.body as { metadata: { finalizers: string[] } }).metadata.finalizers, ['svc.io/pv-protection']);
  assert.equal(await rig.get('persistentvolumes', '', 'v'), undefined);
  rig.close();
});

test('TaintNodesByCondition: new nodes start not-ready for scheduling', async () => {
  const rig = await admissionRig({ plugins: ['TaintNodesByCondition'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'nodes', body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } })).code, 201);
  assert.deepEqual(((await rig.get('nodes', '', 'n1'))?.['spec'] as { taints: unknown[] }).taints, [{ key: 'node.svc.io/not-ready', effect: 'NoSchedule' }]);
  rig.close();
});

test('PersistentVolumeLabel: cloud disks cannot be labelled without a cloud provider; other volumes pass', async () => {
  const rig = await admissionRig({ plugins: ['PersistentVolumeLabel'] });
  const pv = (source: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...source } });
  const refused = await rig.call({ verb: 'create', resource: 'persistentvolumes', body: pv({ gcePersistentDisk: { pdName: 'disk-1' } }) });
  assert.equal(refused.code, 403);
  assert.match((refused.body as { message: string }).message, /^persistentvolumes "v" is forbidden: error querying GCE PD volume disk-1/);
  assert.equal((await rig.call({ verb: 'create', resource: 'persistentvolumes', body: pv({ hostPath: { path: '/x' } }) })).code, 201);
  rig.close();
});
