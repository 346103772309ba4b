import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { startResourceQuotaController } from '../../controllers/resource-quota-controller.js';
import { admissionRig, type AdmissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { testPod } from '../testing/test-objects.js';

pluginConformance('ResourceQuota');

const quota = (name: string, hard: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...extra } });
const message = (r: { body?: unknown }) => (r.body as { message: string }).message;

/** Waits until the stored quota's status satisfies `ready`. */
async function quotaStatus(rig: AdmissionRig, name: string, ready: (used: Record<string, string>) => boolean): Promise<Record<string, string>> {
  for (let i = 0; i < 200; i++) {
    const used = ((await rig.get('resourcequotas', 'default', name))?.['status'] as { used?: Record<string, string> } | undefined)?.used;
    if (used !== undefined && ready(used)) return used;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`quota ${name} never got the expected status`);
}

async function withController<T>(rig: AdmissionRig, run: () => Promise<T>): Promise<T> {
  const controller = startResourceQuotaController({ registry: rig.registry, names: rig.names, retryMs: 20 });
  try {
    return await run();
  } finally {
    await controller.stop();
    rig.close();
  }
}

test('ResourceQuota: pods are counted and charged; the next one over the quota is refused; deletions free the quota', async () => {
  const rig = await admissionRig({ plugins: ['ResourceQuota'] });
  await withController(rig, async () => {
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('before') })).code, 201);
    assert.equal((await rig.call({ verb: 'create', resource: 'resourcequotas', namespace: 'default', body: quota('q', { pods: '2', 'count/configmaps': '1' }) })).code, 201);
    assert.deepEqual(await quotaStatus(rig, 'q', (u) => u['pods'] === '1'), { 'count/configmaps': '0', pods: '1' });
    const stored = await rig.get('resourcequotas', 'default', 'q');
    assert.deepEqual((stored?.['status'] as { hard: unknown }).hard, { 'count/configmaps': '1', pods: '2' });
    // A dry run is checked, not charged.
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('dry') })).code, 201);
    assert.equal(((await rig.get('resourcequotas', 'default', 'q'))?.['status'] as { used: Record<string, string> }).used['pods'], '1');
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('second') })).code, 201);
    assert.equal(((await rig.get('resourcequotas', 'default', 'q'))?.['status'] as { used: Record<string, string> }).used['pods'], '2', 'charged at admission');
    const over = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('third') });
    assert.equal(over.code, 403);
    assert.deepEqual(over.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
      message: 'pods "third" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2', details: { name: 'third', kind: 'pods' },
    });
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: {} });
    assert.equal((await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('a') })).code, 201);
    assert.equal(message(await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('b') })),
      'configmaps "b" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1');
    assert.equal((await rig.call({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'before', query: { gracePeriodSeconds: '0' } })).code, 200);
    await quotaStatus(rig, 'q', (u) => u['pods'] === '1');
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('third') })).code, 201);
  });
});

test('ResourceQuota: compute resources must be stated; usage before the status is known is refused; scopes select pods', async () => {
  const rig = await admissionRig({ plugins: ['ResourceQuota'] });
  // A quota without status limits nothing yet (kube matches quotas by status.hard); one whose usage is not known
  // yet refuses what it covers.
  assert.equal((await rig.call({ verb: 'create', resource: 'resourcequotas', namespace: 'default', body: quota('compute', { 'requests.cpu': '1', 'limits.memory': '1Gi' }) })).code, 201);
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('early') })).code, 201);
  const created = (await rig.get('resourcequotas', 'default', 'compute'))!;
  assert.equal((await rig.call({ verb: 'update', resource: 'resourcequotas', namespace: 'default', name: 'compute', subresource: 'status',
    body: { ...created, status: { hard: { 'requests.cpu': '1', 'limits.memory': '1Gi' } } } })).code, 200);
  const stated = testPod('early', { containers: [{ name: 'c', image: 'x:1', resources: { requests: { cpu: '1m' }, limits: { memory: '1Mi' } } }] });
  assert.equal(message(await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: stated })),
    'pods "early" is forbidden: status unknown for quota: compute, resources: limits.memory,requests.cpu');
  await withController(rig, async () => {
    await quotaStatus(rig, 'compute', (u) => u['requests.cpu'] === '0');
    assert.equal(message(await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('bare') })),
      'pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: c; requests.cpu for: c');
    const sized = (name: string, cpu: string) => testPod(name, { containers: [{ name: 'c', image: 'x:1', resources: { requests: { cpu }, limits: { memory: '100Mi' } } }] });
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: sized('a', '600m') })).code, 201);
    assert.equal(message(await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: sized('b', '500m') })),
      'pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1');
    // A quota scoped to BestEffort pods does not count pods with requests.
    assert.equal((await rig.call({ verb: 'create', resource: 'resourcequotas', namespace: 'default', body: quota('besteffort', { pods: '0' }, { scopes: ['BestEffort'] }) })).code, 201);
    await quotaStatus(rig, 'besteffort', (u) => u['pods'] === '0');
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: sized('c', '100m') })).code, 201);
    const priority = quota('critical', { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['critical'] }] } });
    assert.equal((await rig.call({ verb: 'create', resource: 'resourcequotas', namespace: 'default', body: priority })).code, 201);
    await quotaStatus(rig, 'critical', (u) => u['pods'] === '0');
    const critical = sized('d', '100m');
    (critical['spec'] as Record<string, unknown>)['priorityClassName'] = 'critical';
    assert.match(message(await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: critical })), /exceeded quota: critical, requested: pods=1/);
  });
});

test('ResourceQuota: services count node ports and load balancers; limited resources need a covering quota', async () => {
  const configuration = { ResourceQuota: { apiVersion: 'apiserver.config.svc.io/v1', kind: 'ResourceQuotaConfiguration',
    limitedResources: [{ resource: 'pods', matchContains: ['cpu'] }] } };
  const rig = await admissionRig({ plugins: ['ResourceQuota'], configuration });
  await withController(rig, async () => {
    const cpuPod = testPod('p', { containers: [{ name: 'c', image: 'x:1', resources: { requests: { cpu: '1' } } }] });
    assert.equal(message(await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: cpuPod })),
      'pods "p" is forbidden: insufficient quota to consume: cpu,requests.cpu');
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('plain') })).code, 201, 'no cpu consumed');
    assert.equal((await rig.call({ verb: 'create', resource: 'resourcequotas', namespace: 'default', body: quota('svc', { 'services.nodeports': '1', 'requests.cpu': '4', cpu: '4' }) })).code, 201);
    await quotaStatus(rig, 'svc', (u) => u['services.nodeports'] === '0');
    assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: cpuPod })).code, 201, 'now covered');
    const nodePort = (name: string, ports: number) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name },
      spec: { type: 'NodePort', selector: { a: 'b' }, ports: Array.from({ length: ports }, (_, i) => ({ name: `p${i}`, port: 80 + i })) } });
    assert.equal(message(await rig.call({ verb: 'create', resource: 'services', namespace: 'default', body: nodePort('two', 2) })),
      'services "two" is forbidden: exceeded quota: svc, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1');
  });
});
