import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { authorizerSuite, nonResourceRequestInfo, resourceRequestInfo, suiteUser, type ResourceRequest } from '../authorizer-suite.js';
import { staticPolicySource, type PolicyObjects } from './policy-source.js';
import { rbacAuthorizer } from './rbac-authorizer.js';
import { binding, group, policyForGrants, role, serviceAccount, user } from '../../../testing/rbac-test-fixtures.js';
import type { UserInfo } from '../../../request/user-info.js';

const names = namesFor('svc');

authorizerSuite('RBAC', async (grants) => ({
  authorizer: rbacAuthorizer(staticPolicySource(policyForGrants(names, grants)), names),
  close: async () => {},
}));

const podReader = role('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);

function authorizerOver(objects: PolicyObjects) {
  return rbacAuthorizer(staticPolicySource(objects), names);
}

async function decide(objects: PolicyObjects | ReturnType<typeof authorizerOver>, u: UserInfo, r: ResourceRequest) {
  const a = 'authorize' in objects ? objects : authorizerOver(objects);
  return a.authorize({ user: u, info: resourceRequestInfo(r) });
}

test('RBAC table: wildcards, subresources, resourceNames and groups', async () => {
  const rules = (r: object) => [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], ...r }];
  const cases: [string, object, ResourceRequest, boolean][] = [
    ['exact', {}, { verb: 'get', resource: 'pods', name: 'p' }, true],
    ['verb *', { verbs: ['*'] }, { verb: 'deletecollection', resource: 'pods' }, true],
    ['other verb', {}, { verb: 'watch', resource: 'pods' }, false],
    ['group *', { apiGroups: ['*'] }, { verb: 'get', group: 'apps', resource: 'pods' }, true],
    ['core only', {}, { verb: 'get', group: 'apps', resource: 'pods' }, false],
    ['resource *', { resources: ['*'] }, { verb: 'get', resource: 'secrets' }, true],
    ['resource * covers subresources', { resources: ['*'] }, { verb: 'get', resource: 'pods', subresource: 'log', name: 'p' }, true],
    ['resource is not its subresource', {}, { verb: 'get', resource: 'pods', subresource: 'log', name: 'p' }, false],
    ['res/sub', { resources: ['pods/log'] }, { verb: 'get', resource: 'pods', subresource: 'log', name: 'p' }, true],
    ['res/sub is not res', { resources: ['pods/log'] }, { verb: 'get', resource: 'pods', name: 'p' }, false],
    ['*/sub', { resources: ['*/scale'] }, { verb: 'get', group: '', resource: 'replicationcontrollers', subresource: 'scale', name: 'r' }, true],
    ['*/sub is not another sub', { resources: ['*/scale'] }, { verb: 'get', resource: 'pods', subresource: 'status', name: 'p' }, false],
    ['*/sub is not a longer name ending in it', { resources: ['*/mystatus'] }, { verb: 'get', resource: 'pods', subresource: 'status', name: 'p' }, false],
    ['name listed', { resourceNames: ['a', 'b'] }, { verb: 'get', resource: 'pods', name: 'b' }, true],
    ['name not listed', { resourceNames: ['a'] }, { verb: 'get', resource: 'pods', name: 'c' }, false],
    ['names limit lists', { resourceNames: ['a'] }, { verb: 'get', resource: 'pods' }, false],
  ];
  for (const [what, override, request, expected] of cases) {
    const d = await decide({
      clusterRoles: [role('r', rules(override))],
      clusterRoleBindings: [binding(names, 'b', { kind: 'ClusterRole', name: 'r' }, [user(names, 'u')])],
    }, suiteUser('u'), { namespace: 'ns', ...request });
    assert.equal(d.decision, expected ? 'allow' : 'no-opinion', `${what}: ${JSON.stringify(d)}`);
  }
});

test('RBAC table: non-resource URLs, only through ClusterRoleBindings', async () => {
  const nonResource = role('nr', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*', '/exact/'] }, { verbs: ['*'], nonResourceURLs: ['/metrics'] }]);
  const viaCluster = authorizerOver({ clusterRoles: [nonResource], clusterRoleBindings: [binding(names, 'b', { kind: 'ClusterRole', name: 'nr' }, [user(names, 'u')])] });
  const cases: [string, string, boolean][] = [
    ['get', '/healthz', true], ['post', '/healthz', false], ['get', '/healthz/ping', false], ['get', '/apis/', true],
    ['get', '/apis/apps/v1', true], ['get', '/apis', false], ['get', '/exact/', true], ['get', '/exact', false],
    ['put', '/metrics', true], ['get', '/version', false],
  ];
  for (const [verb, path, expected] of cases) {
    const d = await viaCluster.authorize({ user: suiteUser('u'), info: nonResourceRequestInfo(verb, path) });
    assert.equal(d.decision, expected ? 'allow' : 'no-opinion', `${verb} ${path}`);
  }
  const everything = authorizerOver({
    clusterRoles: [role('all', [{ verbs: ['*'], nonResourceURLs: ['*'] }])],
    clusterRoleBindings: [binding(names, 'b', { kind: 'ClusterRole', name: 'all' }, [group(names, 'g')])],
  });
  assert.equal((await everything.authorize({ user: suiteUser('x', ['g']), info: nonResourceRequestInfo('delete', '/anything/at/all') })).decision, 'allow');
  // A RoleBinding to the same ClusterRole grants none of its paths, and rules reviews do not list them.
  const viaRoleBinding = authorizerOver({ clusterRoles: [nonResource], roleBindings: [binding(names, 'b', { kind: 'ClusterRole', name: 'nr' }, [user(names, 'u')], 'ns')] });
  assert.equal((await viaRoleBinding.authorize({ user: suiteUser('u'), info: nonResourceRequestInfo('get', '/healthz') })).decision, 'no-opinion');
  assert.deepEqual((await viaRoleBinding.rulesFor!(suiteUser('u'), 'ns')).nonResourceRules, []);
  assert.equal((await viaCluster.rulesFor!(suiteUser('u'), 'ns')).nonResourceRules.length, 2);
});

test('RBAC: namespace scoping of RoleBindings, also to ClusterRoles', async () => {
  const a = authorizerOver({
    roles: [role('pod-reader', podReader.rules!, 'ns1')],
    clusterRoles: [role('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }])],
    roleBindings: [
      binding(names, 'read-pods', { kind: 'Role', name: 'pod-reader' }, [user(names, 'u')], 'ns1'),
      binding(names, 'read-secrets', { kind: 'ClusterRole', name: 'secret-reader' }, [user(names, 'u')], 'ns2'),
    ],
  });
  const u = suiteUser('u');
  assert.equal((await decide(a, u, { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns1' })).decision, 'allow');
  assert.equal((await decide(a, u, { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns2' })).decision, 'no-opinion');
  assert.equal((await decide(a, u, { verb: 'get', resource: 'pods', name: 'p' })).decision, 'no-opinion');
  assert.equal((await decide(a, u, { verb: 'get', resource: 'secrets', name: 's', namespace: 'ns2' })).decision, 'allow');
  assert.equal((await decide(a, u, { verb: 'get', resource: 'secrets', name: 's', namespace: 'ns1' })).decision, 'no-opinion');
  assert.equal((await decide(a, u, { verb: 'get', resource: 'secrets', name: 's' })).decision, 'no-opinion');
  // A Role of another namespace of the same name is not the one a RoleBinding refers to.
  const other = authorizerOver({
    roles: [role('pod-reader', podReader.rules!, 'ns1')],
    roleBindings: [binding(names, 'read-pods', { kind: 'Role', name: 'pod-reader' }, [user(names, 'u')], 'ns2')],
  });
  const d = await decide(other, u, { verb: 'get', resource: 'pods', name: 'p', namespace: 'ns2' });
  assert.equal(d.decision, 'no-opinion');
  assert.equal(d.evaluationError, 'role.rbac.authorization.svc.io "pod-reader" not found');
});

test('RBAC: reasons name the binding, role and subject as kube-apiserver does', async () => {
  const a = authorizerOver({
    clusterRoles: [podReader],
    roles: [role('local', podReader.rules!, 'ns')],
    clusterRoleBindings: [binding(names, 'crb', { kind: 'ClusterRole', name: 'pod-reader' }, [user(names, 'z')])],
    roleBindings: [
      binding(names, 'rb', { kind: 'Role', name: 'local' }, [group(names, 'g')], 'ns'),
      binding(names, 'sa', { kind: 'ClusterRole', name: 'pod-reader' }, [serviceAccount('robot')], 'ns'),
    ],
  });
  assert.deepEqual(await decide(a, suiteUser('z'), { verb: 'get', resource: 'pods', namespace: 'ns' }),
    { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "pod-reader" to User "z"' });
  assert.deepEqual(await decide(a, suiteUser('y', ['g']), { verb: 'list', resource: 'pods', namespace: 'ns' }),
    { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "rb/ns" of Role "local" to Group "g"' });
  assert.deepEqual(await decide(a, suiteUser('system:serviceaccount:ns:robot'), { verb: 'list', resource: 'pods', namespace: 'ns' }),
    { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "sa/ns" of ClusterRole "pod-reader" to ServiceAccount "robot/ns"' });
  assert.deepEqual(await decide(a, suiteUser('nobody'), { verb: 'list', resource: 'pods', namespace: 'ns' }), { decision: 'no-opinion' });
});

test('RBAC: a bad roleRef is an evaluation error while other bindings still grant', async () => {
  const objectsFor = (n: typeof names): PolicyObjects => ({
    clusterRoles: [podReader],
    clusterRoleBindings: [
      binding(n, 'missing', { kind: 'ClusterRole', name: 'gone' }, [user(n, 'u')]),
      binding(n, 'odd', { kind: 'Robot', name: 'x' }, [user(n, 'u')]),
    ],
    roleBindings: [binding(n, 'ok', { kind: 'ClusterRole', name: 'pod-reader' }, [user(n, 'u')], 'ns')],
  });
  const a = authorizerOver(objectsFor(names));
  const granted = await decide(a, suiteUser('u'), { verb: 'get', resource: 'pods', namespace: 'ns' });
  assert.equal(granted.decision, 'allow');
  const refused = await decide(a, suiteUser('u'), { verb: 'delete', resource: 'pods', namespace: 'ns' });
  const errors = '[clusterrole.rbac.authorization.svc.io "gone" not found, unsupported role reference kind: "Robot"]';
  assert.deepEqual(refused, { decision: 'no-opinion', reason: `RBAC: ${errors}`, evaluationError: errors });
  const rules = await a.rulesFor!(suiteUser('u'), 'ns');
  assert.equal(rules.evaluationError, errors);
  assert.equal(rules.incomplete, false);
  assert.deepEqual(rules.resourceRules, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }]);
  // Users the broken bindings do not name see no error.
  assert.deepEqual(await decide(a, suiteUser('v'), { verb: 'get', resource: 'pods', namespace: 'ns' }), { decision: 'no-opinion' });
  // The k8s flavour names its own group.
  const k8s = namesFor('k8s');
  const d = await rbacAuthorizer(staticPolicySource(objectsFor(k8s)), k8s).authorize({ user: suiteUser('u'), info: resourceRequestInfo({ verb: 'delete', resource: 'pods' }) });
  assert.match(d.evaluationError ?? '', /clusterrole\.rbac\.authorization\.k8s\.io "gone" not found/);
});

test('RBAC: malformed subjects grant nothing and are reported', async () => {
  const bindingTo = (subjects: Parameters<typeof binding>[3], ns?: string) => ({
    clusterRoles: [podReader],
    ...(ns === undefined
      ? { clusterRoleBindings: [binding(names, 'b', { kind: 'ClusterRole', name: 'pod-reader' }, subjects)] }
      : { roleBindings: [binding(names, 'b', { kind: 'ClusterRole', name: 'pod-reader' }, subjects, ns)] }),
  });
  const unknown = await decide(bindingTo([{ kind: 'Robot', name: 'u' }]), suiteUser('anyone'), { verb: 'get', resource: 'pods', namespace: 'ns' });
  assert.equal(unknown.decision, 'no-opinion');
  assert.equal(unknown.evaluationError, 'ClusterRoleBinding "b": subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"');
  const userWithNamespace = await decide(bindingTo([{ kind: 'User', name: 'u', namespace: 'ns' }], 'ns'), suiteUser('u'), { verb: 'get', resource: 'pods', namespace: 'ns' });
  assert.equal(userWithNamespace.decision, 'no-opinion');
  assert.equal(userWithNamespace.evaluationError, 'RoleBinding "b/ns": subjects[0].namespace: Invalid value: "ns": must be empty for kind "User"');
  const groupWrongApiGroup = await decide(bindingTo([{ kind: 'Group', apiGroup: 'example.com', name: 'g' }]), suiteUser('u', ['g']), { verb: 'get', resource: 'pods' });
  assert.equal(groupWrongApiGroup.decision, 'no-opinion');
  assert.match(groupWrongApiGroup.evaluationError ?? '', /subjects\[0\]\.apiGroup: Unsupported value: "example.com"/);
  // A valid subject of the same binding still grants, whatever the others.
  const mixed = await decide(bindingTo([{ kind: 'Robot', name: 'x' }, user(names, 'u')]), suiteUser('u'), { verb: 'get', resource: 'pods' });
  assert.equal(mixed.decision, 'allow');
});

test('RBAC: ServiceAccount subjects', async () => {
  const u = (ns: string, name: string) => suiteUser(`system:serviceaccount:${ns}:${name}`, ['system:serviceaccounts', `system:serviceaccounts:${ns}`]);
  const a = authorizerOver({
    clusterRoles: [podReader],
    clusterRoleBindings: [binding(names, 'cluster', { kind: 'ClusterRole', name: 'pod-reader' }, [serviceAccount('builder', 'ci')])],
    roleBindings: [
      binding(names, 'local', { kind: 'ClusterRole', name: 'pod-reader' }, [serviceAccount('default')], 'team'),
      binding(names, 'cross', { kind: 'ClusterRole', name: 'pod-reader' }, [serviceAccount('watcher', 'ops')], 'team'),
    ],
  });
  const get = (ns: string): ResourceRequest => ({ verb: 'get', resource: 'pods', name: 'p', namespace: ns });
  assert.equal((await decide(a, u('ci', 'builder'), get('anywhere'))).decision, 'allow');
  assert.equal((await decide(a, u('ci2', 'builder'), get('anywhere'))).decision, 'no-opinion');
  // Without a namespace, a RoleBinding's ServiceAccount subject is of the binding's namespace.
  assert.equal((await decide(a, u('team', 'default'), get('team'))).decision, 'allow');
  assert.equal((await decide(a, u('other', 'default'), get('team'))).decision, 'no-opinion');
  assert.equal((await decide(a, u('ops', 'watcher'), get('team'))).decision, 'allow');
  assert.equal((await decide(a, u('ops', 'watcher'), get('ops'))).decision, 'no-opinion');
  // A user whose name only resembles an account's is that account (kube matches by username).
  assert.equal((await decide(a, suiteUser('system:serviceaccount:ci:builder'), get('x'))).decision, 'allow');
  // A ClusterRoleBinding's ServiceAccount subject without a namespace names nobody.
  const bare = authorizerOver({ clusterRoles: [podReader], clusterRoleBindings: [binding(names, 'bare', { kind: 'ClusterRole', name: 'pod-reader' }, [serviceAccount('default')])] });
  assert.equal((await decide(bare, u('default', 'default'), get('default'))).decision, 'no-opinion');
});

test('RBAC: rules reviews list the rules of both scopes', async () => {
  const a = authorizerOver({
    clusterRoles: [podReader, role('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }])],
    roles: [role('cm', [{ verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['c'] }], 'ns')],
    clusterRoleBindings: [binding(names, 'h', { kind: 'ClusterRole', name: 'health' }, [group(names, 'system:authenticated')])],
    roleBindings: [binding(names, 'cm', { kind: 'Role', name: 'cm' }, [user(names, 'u')], 'ns')],
  });
  const rules = await a.rulesFor!(suiteUser('u'), 'ns');
  assert.deepEqual(rules, {
    resourceRules: [{ verbs: ['update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['c'] }],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
    incomplete: false,
  });
  assert.deepEqual((await a.rulesFor!(suiteUser('u'), '')).resourceRules, []);
});
