import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { evaluatePolicy, parsePolicy } from './policy.js';
import { userAndInfo, type FlatRequest } from '../testing/request-attributes.js';

const names = namesFor('svc');

const attrs = (over: Partial<FlatRequest>) => userAndInfo({
  username: 'alice', groups: ['devs', 'system:authenticated'], verb: 'get', isResourceRequest: true, apiGroup: '',
  resource: 'pods', subresource: '', namespace: 'ns', name: 'p', path: '/api/v1/namespaces/ns/pods/p', ...over,
});

function policy(rules: unknown[], extra: Record<string, unknown> = {}) {
  const p = parsePolicy({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules, ...extra }, names);
  assert.ok(p.ok, JSON.stringify(p));
  return p.ok ? p.value : (undefined as never);
}

test('audit policy: the first matching rule decides; users, groups, verbs, resources, names, namespaces, URLs', () => {
  const p = policy([
    { level: 'None', users: ['system:kube-proxy'], verbs: ['watch'] },
    { level: 'None', nonResourceURLs: ['/healthz*', '/version'] },
    { level: 'Metadata', resources: [{ group: '', resources: ['secrets', 'configmaps'] }] },
    { level: 'Request', userGroups: ['ops'], resources: [{ group: 'apps', resources: [] }] },
    { level: 'RequestResponse', resources: [{ group: '', resources: ['pods/log', '*/status'] }] },
    { level: 'Request', resources: [{ group: '', resources: ['pods'], resourceNames: ['special'] }], namespaces: ['prod'] },
    { level: 'Metadata', omitStages: ['RequestReceived'] },
  ], { omitStages: ['Panic'] });
  assert.equal(evaluatePolicy(p, ...attrs({ username: 'system:kube-proxy', verb: 'watch' })).level, 'None');
  assert.equal(evaluatePolicy(p, ...attrs({ username: 'system:kube-proxy', verb: 'list' })).level, 'Metadata');
  assert.equal(evaluatePolicy(p, ...attrs({ isResourceRequest: false, path: '/healthz/etcd', verb: 'get' })).level, 'None');
  assert.equal(evaluatePolicy(p, ...attrs({ isResourceRequest: false, path: '/versions', verb: 'get' })).level, 'Metadata');
  assert.equal(evaluatePolicy(p, ...attrs({ resource: 'secrets' })).level, 'Metadata');
  assert.equal(evaluatePolicy(p, ...attrs({ apiGroup: 'apps', resource: 'deployments' })).level, 'Metadata', 'not in ops');
  assert.equal(evaluatePolicy(p, ...attrs({ apiGroup: 'apps', resource: 'deployments', groups: ['ops'] })).level, 'Request');
  assert.equal(evaluatePolicy(p, ...attrs({ subresource: 'log' })).level, 'RequestResponse');
  assert.equal(evaluatePolicy(p, ...attrs({ resource: 'nodes', subresource: 'status', namespace: '' })).level, 'RequestResponse');
  assert.equal(evaluatePolicy(p, ...attrs({ name: 'special', namespace: 'prod' })).level, 'Request');
  assert.equal(evaluatePolicy(p, ...attrs({ name: 'special', namespace: 'dev' })).level, 'Metadata');
  assert.deepEqual(evaluatePolicy(p, ...attrs({})).omitStages, ['Panic', 'RequestReceived'], 'the policy\'s omitted stages and the rule\'s');
  assert.equal(evaluatePolicy(policy([{ level: 'Metadata', users: ['bob'] }]), ...attrs({})).level, 'None', 'no rule matches: not audited');
});

test('audit policy: omitManagedFields from the rule, else the policy', () => {
  const p = policy([{ level: 'Request', resources: [{ group: '', resources: ['pods'] }], omitManagedFields: false }, { level: 'Request' }], { omitManagedFields: true });
  assert.equal(evaluatePolicy(p, ...attrs({})).omitManagedFields, false);
  assert.equal(evaluatePolicy(p, ...attrs({ resource: 'secrets' })).omitManagedFields, true);
});

test('audit policy: invalid documents are refused with what is wrong', () => {
  const bad = (doc: Record<string, unknown>, pattern: RegExp) => {
    const p = parsePolicy(doc, names);
    assert.equal(p.ok, false);
    if (!p.ok) assert.match(p.error, pattern);
  };
  bad({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'None' }] }, /must be kind Policy in audit\.svc\.io\/v1/);
  bad({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules: [] }, /at least one rule/);
  bad({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules: [{ level: 'Everything' }] }, /rules\[0\]\.level: Unsupported value: "Everything"/);
  bad({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules: [{ level: 'None', omitStages: ['Later'] }] }, /omitStages\[0\]: Invalid value: "Later"/);
  bad({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules: [{ level: 'None', nonResourceURLs: ['healthz'] }] }, /must begin with "\/"/);
  bad({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules: [{ level: 'None', nonResourceURLs: ['/a'], resources: [{ group: '' }] }] }, /both regular resources and non-resource URLs/);
  bad({ apiVersion: 'audit.svc.io/v1', kind: 'Policy', rules: [{ level: 'None', resources: [{ group: '', resourceNames: ['x'] }] }] }, /requires at least one resource/);
  assert.ok(parsePolicy({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'None' }] }, namesFor('k8s')).ok, 'the k8s flavour reads kube\'s group');
});
