import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { parse } from 'yaml';
import { bootstrapPolicy, policyFiles, upstreamPolicyDir } from '../auth/authz/rbac/bootstrap-policy/bootstrap-policy.js';
import type { BindingObject, RoleObject } from '../registry/resources/rbac-types.js';
import { testRegistry } from '../testing/test-registry.js';
import { startRbacBootstrap } from './rbac-bootstrap.js';

const rbac = 'rbac.authorization.svc.io';

async function setup() {
  const t = await testRegistry(['default', 'svc-system', 'svc-public']);
  const run = async () => {
    const b = startRbacBootstrap(t.registry, t.names, { retryMs: 10 });
    await b.done;
    assert.equal(await b.checks[0]!.check(), undefined, 'health check passes once done');
    return b;
  };
  const get = async (resource: string, name: string, namespace?: string) =>
    (await t.call({ verb: 'get', group: rbac, version: 'v1', resource, name, ...(namespace ? { namespace } : {}) })).body as KubeObject;
  const list = async (resource: string) =>
    ((await t.call({ verb: 'list', group: rbac, version: 'v1', resource })).body as { items: KubeObject[] }).items;
  const put = async (resource: string, object: KubeObject) => {
    const res = await t.call({
      verb: 'update', group: rbac, version: 'v1', resource, name: object.metadata!.name!,
      ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}), body: object,
    });
    assert.equal(res.code, 200, JSON.stringify(res.body));
  };
  return { ...t, run, get, list, put };
}

test('bootstrap creates the whole policy on an empty store, renamed; the check names the kube hook', async () => {
  const t = await setup();
  const b = startRbacBootstrap(t.registry, t.names, { retryMs: 10 });
  assert.equal(b.checks[0]!.name, 'poststarthook/rbac/bootstrap-roles');
  await b.done;
  const policy = bootstrapPolicy(t.names);
  assert.equal((await t.list('clusterroles')).length, policy.clusterRoles.length);
  assert.equal((await t.list('clusterrolebindings')).length, policy.clusterRoleBindings.length);
  assert.equal((await t.list('roles')).length, policy.roles.length);
  assert.equal((await t.list('rolebindings')).length, policy.roleBindings.length);
  assert.equal(b.writes(), policy.clusterRoles.length + policy.clusterRoleBindings.length + policy.roles.length + policy.roleBindings.length);

  const approver = await t.get('clusterroles', 'system:certificates.svc.io:kube-apiserver-client-approver') as RoleObject;
  assert.deepEqual(approver.rules, [{ apiGroups: ['certificates.svc.io'], resources: ['signers'], resourceNames: ['svc.io/api-client'], verbs: ['approve'] }]);
  assert.equal(approver.metadata?.labels?.['svc.io/bootstrapping'], 'rbac-defaults');
  assert.equal(approver.metadata?.annotations?.['rbac.authorization.svc.io/autoupdate'], 'true');
  const edit = await t.get('clusterroles', 'edit') as RoleObject;
  assert.equal(edit.metadata?.labels?.['rbac.authorization.svc.io/aggregate-to-admin'], 'true');
  assert.deepEqual(edit.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.svc.io/aggregate-to-edit': 'true' } }] });
  const signer = await t.get('rolebindings', 'system:controller:bootstrap-signer', 'svc-public') as BindingObject;
  assert.deepEqual(signer.subjects, [{ kind: 'ServiceAccount', name: 'bootstrap-signer', namespace: 'svc-system' }]);
  assert.equal(signer.roleRef.apiGroup, rbac);
});

test('the namespaces of the namespaced roles and bindings are created when missing, in the first attempt', async () => {
  const t = await testRegistry(['default']);
  const failures: string[] = [];
  const b = startRbacBootstrap(t.registry, t.names, { retryMs: 10, log: (m) => failures.push(m) });
  await b.done;
  assert.deepEqual(failures, [], 'no attempt failed');
  for (const ns of ['svc-system', 'svc-public']) {
    const got = await t.call({ verb: 'get', resource: 'namespaces', name: ns });
    assert.equal(got.code, 200, `namespace ${ns}`);
  }
  const signer = await t.call({ verb: 'get', group: rbac, version: 'v1', resource: 'rolebindings', namespace: 'svc-public', name: 'system:controller:bootstrap-signer' });
  assert.equal(signer.code, 200);
  const policy = bootstrapPolicy(t.names);
  assert.equal(b.writes(), policy.clusterRoles.length + policy.clusterRoleBindings.length + policy.roles.length + policy.roleBindings.length,
    'the namespaces are not counted as policy writes');
});

test('a second run writes nothing', async () => {
  const t = await setup();
  await t.run();
  const before = (await t.list('clusterroles')).map((o) => o.metadata?.resourceVersion);
  const again = await t.run();
  assert.equal(again.writes(), 0);
  assert.deepEqual((await t.list('clusterroles')).map((o) => o.metadata?.resourceVersion), before);
});

test('reconcile adds back a removed rule, label and subject, keeping what users added', async () => {
  const t = await setup();
  await t.run();
  const basic = await t.get('clusterroles', 'system:basic-user') as RoleObject;
  const extra = { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] };
  basic.rules = [basic.rules![0]!, extra];
  delete basic.metadata!.labels!['svc.io/bootstrapping'];
  await t.put('clusterroles', basic);
  const admin = await t.get('clusterrolebindings', 'cluster-admin') as BindingObject;
  const user = { kind: 'User', apiGroup: rbac, name: 'alice' };
  admin.subjects = [user];
  await t.put('clusterrolebindings', admin);

  const again = await t.run();
  assert.equal(again.writes(), 2);
  const fixed = await t.get('clusterroles', 'system:basic-user') as RoleObject;
  assert.deepEqual(fixed.rules?.slice(0, 2), [basic.rules[0], extra], 'existing rules kept first');
  assert.deepEqual(fixed.rules?.slice(2), [{ apiGroups: ['authentication.svc.io'], resources: ['selfsubjectreviews'], verbs: ['create'] }]);
  assert.equal(fixed.metadata?.labels?.['svc.io/bootstrapping'], 'rbac-defaults');
  const bound = await t.get('clusterrolebindings', 'cluster-admin') as BindingObject;
  assert.deepEqual(bound.subjects, [user, { kind: 'Group', apiGroup: rbac, name: 'system:masters' }]);
});

test('objects annotated autoupdate "false" are left alone', async () => {
  const t = await setup();
  await t.run();
  const basic = await t.get('clusterroles', 'system:basic-user') as RoleObject;
  basic.rules = [];
  basic.metadata!.annotations = { 'rbac.authorization.svc.io/autoupdate': 'false' };
  await t.put('clusterroles', basic);
  const again = await t.run();
  assert.equal(again.writes(), 0);
  assert.deepEqual((await t.get('clusterroles', 'system:basic-user') as RoleObject).rules ?? [], []);
});

test('a binding with another roleRef is recreated with the default roleRef, its subjects kept', async () => {
  const t = await setup();
  const res = await t.call({
    verb: 'create', group: rbac, version: 'v1', resource: 'clusterrolebindings',
    body: { metadata: { name: 'system:basic-user' }, roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', apiGroup: rbac, name: 'bob' }] },
  });
  assert.equal(res.code, 201, JSON.stringify(res.body));
  const uid = (res.body as KubeObject).metadata?.uid;
  await t.run();
  const b = await t.get('clusterrolebindings', 'system:basic-user') as BindingObject;
  assert.equal(b.roleRef.name, 'system:basic-user');
  assert.notEqual(b.metadata?.uid, uid, 'recreated');
  assert.deepEqual(b.subjects?.map((s) => s.name), ['bob', 'system:authenticated']);
});

test('the k8s flavour keeps every upstream name; the svc flavour spells none of them', () => {
  const k8s = bootstrapPolicy(namesFor('k8s'));
  const upstream: unknown[] = [];
  for (const file of policyFiles) {
    const doc = parse(readFileSync(new URL(file, upstreamPolicyDir), 'utf8')) as { items: Record<string, unknown>[] };
    for (const item of doc.items) {
      const o = structuredClone(item) as { metadata: Record<string, unknown>; rules?: unknown; aggregationRule?: unknown };
      delete o.metadata.creationTimestamp;
      if (o.aggregationRule) o.rules = [];
      upstream.push(o);
    }
  }
  const ours = [...k8s.clusterRoles, ...k8s.clusterRoleBindings, ...k8s.roles, ...k8s.roleBindings];
  const byName = (a: unknown) => JSON.stringify([(a as KubeObject).kind, (a as KubeObject).metadata?.namespace, (a as KubeObject).metadata?.name]);
  assert.deepEqual(ours.map((o) => JSON.parse(JSON.stringify(o))).sort((a, b) => (byName(a) < byName(b) ? -1 : 1)),
    upstream.sort((a, b) => (byName(a) < byName(b) ? -1 : 1)));
  const svc = JSON.stringify(bootstrapPolicy(namesFor('svc')));
  assert.doesNotMatch(svc, /k8s\.io|kubernetes\.io|kube-system|kube-public/);
});
