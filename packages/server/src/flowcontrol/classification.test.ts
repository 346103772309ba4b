import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';
import { mandatoryConfiguration, suggestedConfiguration } from './bootstrap-configuration.js';
import { userAndInfo, type FlatRequest } from '../testing/request-attributes.js';
import { createFlowController } from './flow-controller.js';
import { flowcontrolMetrics } from './flowcontrol-metrics.js';

const names = namesFor('svc');

function controller() {
  const c = createFlowController({ serverConcurrencyLimit: 600, waitLimitMs: 15_000, metrics: flowcontrolMetrics(createMetricsRegistry()) });
  const m = mandatoryConfiguration();
  const s = suggestedConfiguration(names);
  c.configure([...m.flowSchemas, ...s.flowSchemas], [...m.priorityLevels, ...s.priorityLevels]);
  return c;
}

const request = (over: Partial<FlatRequest>) => userAndInfo({
  username: 'alice', groups: ['system:authenticated'], verb: 'get', isResourceRequest: true, apiGroup: '', resource: 'pods',
  subresource: '', namespace: 'default', name: 'p', path: '/api/v1/namespaces/default/pods/p', ...over,
});

test('flow control: the default FlowSchemas classify as kube-apiserver 1.27 does', () => {
  const c = controller();
  const sa = (ns: string, name: string) => ({ username: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] });
  const cases: [string, Partial<FlatRequest>, string, string, string][] = [
    ['admin', { username: 'admin', groups: ['system:masters', 'system:authenticated'], verb: 'delete' }, 'exempt', 'exempt', ''],
    ['health check', { username: 'system:anonymous', groups: ['system:unauthenticated'], isResourceRequest: false, path: '/livez', resource: '', namespace: '' }, 'probes', 'exempt', ''],
    ['health check of one check', { username: 'system:anonymous', groups: ['system:unauthenticated'], isResourceRequest: false, path: '/readyz/ping', resource: '', namespace: '' }, 'global-default', 'global-default', 'system:anonymous'],
    ['node status', { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'], verb: 'patch', resource: 'nodes', subresource: 'status', namespace: '' }, 'system-node-high', 'node-high', 'system:node:n1'],
    ['node lease', { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'], verb: 'update', apiGroup: 'coordination.svc.io', resource: 'leases', namespace: 'svc-node-lease' }, 'system-node-high', 'node-high', 'system:node:n1'],
    ['node reading pods', { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'], verb: 'list' }, 'system-nodes', 'system', 'system:node:n1'],
    ['controller-manager lease', { username: 'system:kube-controller-manager', verb: 'update', apiGroup: 'coordination.svc.io', resource: 'leases', namespace: 'svc-system' }, 'system-leader-election', 'leader-election', 'system:kube-controller-manager'],
    ['controller-manager endpoints', { username: 'system:kube-controller-manager', verb: 'update', resource: 'endpoints' }, 'endpoint-controller', 'workload-high', 'system:kube-controller-manager'],
    ['controller-manager pods', { username: 'system:kube-controller-manager', verb: 'list', namespace: 'ns1' }, 'kube-controller-manager', 'workload-high', 'ns1'],
    ['scheduler binding', { username: 'system:kube-scheduler', verb: 'create', subresource: 'binding', namespace: 'ns2' }, 'kube-scheduler', 'workload-high', 'ns2'],
    ['system SA lease elsewhere', { ...sa('svc-system', 'my-op'), verb: 'get', apiGroup: 'coordination.svc.io', resource: 'leases', namespace: 'apps' }, 'workload-leader-election', 'leader-election', 'system:serviceaccount:svc-system:my-op'],
    ['system SA', { ...sa('svc-system', 'my-op'), verb: 'list', namespace: 'apps' }, 'kube-system-service-accounts', 'workload-high', 'apps'],
    ['other SA', { ...sa('apps', 'worker'), verb: 'list', namespace: 'apps' }, 'service-accounts', 'workload-low', 'system:serviceaccount:apps:worker'],
    ['user', {}, 'global-default', 'global-default', 'alice'],
    ['anonymous', { username: 'system:anonymous', groups: ['system:unauthenticated'] }, 'global-default', 'global-default', 'system:anonymous'],
  ];
  for (const [what, over, fs, pl, flow] of cases) {
    const got = c.classify(...request(over));
    assert.deepEqual([got.flowSchema.metadata.name, got.priorityLevel.metadata.name, got.distinguisher], [fs, pl, flow], what);
  }
});

test('flow control: nominal seats are shares of the server limit; missing mandatory objects stand in from memory', () => {
  const c = controller();
  const limits = Object.fromEntries(c.levels().map((l) => [l.name, l.nominalLimit]));
  // 600 seats over 245 shares (5 + 30 + 40 + 10 + 40 + 100 + 20).
  assert.deepEqual(limits, { exempt: 0, 'catch-all': 13, system: 74, 'node-high': 98, 'leader-election': 25, 'workload-high': 98, 'workload-low': 245, 'global-default': 49 });
  const bare = createFlowController({ serverConcurrencyLimit: 600, waitLimitMs: 1000, metrics: flowcontrolMetrics(createMetricsRegistry()) });
  assert.deepEqual(bare.levels().map((l) => [l.name, l.nominalLimit]), [['exempt', 0], ['catch-all', 600]]);
  assert.equal(bare.classify(...request({})).flowSchema.metadata.name, 'catch-all');
  const dangling = { metadata: { name: 'orphan' }, spec: { priorityLevelConfiguration: { name: 'gone' }, matchingPrecedence: 5, rules: [{ subjects: [{ kind: 'Group' as const, group: { name: '*' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }] } };
  bare.configure([dangling], []);
  assert.equal(bare.isDangling(dangling), true);
  assert.equal(bare.classify(...request({})).flowSchema.metadata.name, 'catch-all', 'a dangling FlowSchema is skipped');
});

test('flow control: exempt requests execute beyond every limit; a Reject level refuses at once', async () => {
  const c = createFlowController({ serverConcurrencyLimit: 1, waitLimitMs: 1000, metrics: flowcontrolMetrics(createMetricsRegistry()) });
  const user = c.classify(...request({}));
  assert.equal(user.priorityLevel.metadata.name, 'catch-all');
  const first = await c.admit(user);
  assert.equal(first.kind, 'execute');
  const second = await c.admit(user);
  assert.deepEqual(second.kind === 'reject' ? second.reason : second.kind, 'concurrency-limit');
  const admin = c.classify(...request({ username: 'admin', groups: ['system:masters'] }));
  const seats = await Promise.all(Array.from({ length: 50 }, () => c.admit(admin)));
  assert.ok(seats.every((s) => s.kind === 'execute'));
  if (first.kind === 'execute') first.release();
  assert.equal((await c.admit(user)).kind, 'execute');
});
