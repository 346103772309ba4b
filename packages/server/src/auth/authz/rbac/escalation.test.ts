import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor, type Status } from '@svc-apiserver/api';
import type { Authorizer } from '../../../request/authorizer.js';
import { authorizerUnion } from '../authorizer-union.js';
import { suiteUser } from '../authorizer-suite.js';
import { compactRuleString, confirmNoEscalation, covers, createRbacWriteGuard } from './escalation.js';
import { staticPolicySource, type PolicyObjects } from './policy-source.js';
import { rbacAuthorizer } from './rbac-authorizer.js';
import type { PolicyRule } from '../../../registry/resources/rbac-types.js';
import { binding, group, role, user } from '../../../testing/rbac-test-fixtures.js';

const names = namesFor('svc');

test('covers: table of owner rules against servant rules', () => {
  const r = (verbs: string[], resources: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({ verbs, apiGroups: [''], resources, ...extra });
  const cases: [string, PolicyRule[], PolicyRule[], boolean][] = [
    ['same rule', [r(['get'], ['pods'])], [r(['get'], ['pods'])], true],
    ['fewer verbs', [r(['get', 'list'], ['pods'])], [r(['get'], ['pods'])], true],
    ['more verbs', [r(['get'], ['pods'])], [r(['get', 'list'], ['pods'])], false],
    ['verb *', [r(['*'], ['pods'])], [r(['get', 'delete'], ['pods'])], true],
    ['servant * is not owned by a list', [r(['get', 'list'], ['pods'])], [r(['*'], ['pods'])], false],
    ['resource *', [r(['get'], ['*'])], [r(['get'], ['pods', 'pods/log'])], true],
    ['*/sub', [r(['get'], ['*/status'])], [r(['get'], ['pods/status', 'nodes/status'])], true],
    ['*/sub is not the resource', [r(['get'], ['*/status'])], [r(['get'], ['pods'])], false],
    ['resource is not subresource', [r(['get'], ['pods'])], [r(['get'], ['pods/log'])], false],
    ['group *', [{ verbs: ['get'], apiGroups: ['*'], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: ['apps', ''], resources: ['pods'] }], true],
    ['other group', [r(['get'], ['pods'])], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }], false],
    ['owner without names covers names', [r(['get'], ['pods'])], [r(['get'], ['pods'], { resourceNames: ['a'] })], true],
    ['owner names cover the same names', [r(['get'], ['pods'], { resourceNames: ['a', 'b'] })], [r(['get'], ['pods'], { resourceNames: ['b'] })], true],
    ['owner names do not cover all names', [r(['get'], ['pods'], { resourceNames: ['a'] })], [r(['get'], ['pods'])], false],
    ['owner names do not cover other names', [r(['get'], ['pods'], { resourceNames: ['a'] })], [r(['get'], ['pods'], { resourceNames: ['c'] })], false],
    ['split across owner rules', [r(['get'], ['pods']), r(['list'], ['pods'])], [r(['get', 'list'], ['pods'])], true],
    ['url exact', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], true],
    ['url prefix', [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/apps', '/apis/*'] }], true],
    ['url *', [{ verbs: ['*'], nonResourceURLs: ['*'] }], [{ verbs: ['get', 'post'], nonResourceURLs: ['/x', '/y/*'] }], true],
    ['url outside prefix', [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api'] }], false],
    ['resource rules do not own urls', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], false],
    ['nothing wanted', [], [], true],
  ];
  for (const [what, owner, servant, expected] of cases) assert.equal(covers(owner, servant).covered, expected, what);
  assert.deepEqual(covers([r(['get'], ['pods'])], [r(['get', 'list'], ['pods', 'secrets'], { resourceNames: ['n'] })]).missing, [
    r(['list'], ['pods'], { resourceNames: ['n'] }), r(['get'], ['secrets'], { resourceNames: ['n'] }), r(['list'], ['secrets'], { resourceNames: ['n'] }),
  ]);
});

test('the missing rules print as kube prints them', () => {
  assert.equal(compactRuleString({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }), '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}');
  assert.equal(compactRuleString({ verbs: ['get', 'post'], nonResourceURLs: ['/a', '/b'] }), '{NonResourceURLs:["/a" "/b"], Verbs:["get" "post"]}');
  assert.equal(compactRuleString({ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['d'] }),
    '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["d"], Verbs:["get"]}');
  const source = staticPolicySource({
    clusterRoles: [role('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])],
    clusterRoleBindings: [binding(names, 'b', { kind: 'ClusterRole', name: 'r' }, [user(names, 'u')]), binding(names, 'bad', { kind: 'ClusterRole', name: 'gone' }, [group(names, 'g2')])],
  });
  const { resolver } = rbacAuthorizer(source, names);
  const message = confirmNoEscalation(resolver, { username: 'u', groups: ['g1', 'g2'] }, 'ns', [
    { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'secrets'] },
    { verbs: ['get'], nonResourceURLs: ['/healthz'] },
  ]);
  assert.equal(message, 'user "u" (groups=["g1" "g2"]) is attempting to grant RBAC permissions not currently held:\n'
    + '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}\n'
    + '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "watch"]}\n'
    + '{NonResourceURLs:["/healthz"], Verbs:["get"]}'
    + '; resolution errors: [clusterrole.rbac.authorization.svc.io "gone" not found]');
  assert.equal(confirmNoEscalation(resolver, { username: 'u', groups: [] }, '', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), undefined);
});

const admin: PolicyRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }];

/** A guard over RBAC alone as the whole authorizer. */
function guardOver(objects: PolicyObjects, extra?: Authorizer) {
  const authorizer = rbacAuthorizer(staticPolicySource(objects), names);
  const whole = extra === undefined ? authorizer : authorizerUnion([extra, authorizer]);
  return createRbacWriteGuard({ resolver: authorizer.resolver, authorizer: () => whole, names });
}

const podRules: PolicyRule[] = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }];
const writer = (extraRules: PolicyRule[] = []): PolicyObjects => ({
  clusterRoles: [
    role('pod-reader', podRules),
    role('rbac-writer', [{ verbs: ['create', 'update'], apiGroups: [names.group('rbac.authorization')], resources: ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'] }, ...extraRules]),
    role('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]),
  ],
  roles: [role('ns-secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], 'ns')],
  clusterRoleBindings: [binding(names, 'w', { kind: 'ClusterRole', name: 'rbac-writer' }, [user(names, 'w')])],
  roleBindings: [binding(names, 'w-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [user(names, 'w')], 'ns')],
});
const w = suiteUser('w');

function assertForbidden(status: Status | undefined, message: string): void {
  assert.ok(status !== undefined, 'refused');
  assert.equal(status.code, 403, JSON.stringify(status));
  assert.equal(status.reason, 'Forbidden');
  assert.equal(status.message, message);
}

test('roles: granting what you hold is allowed, more is refused with the missing rules', async () => {
  const guard = guardOver(writer());
  assert.equal(await guard.checkRole('roles', role('r', podRules, 'ns'), undefined, w), undefined);
  assert.equal(await guard.checkRole('roles', role('r', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }], 'ns'), undefined, w), undefined);
  // Held only in ns: not in another namespace, and not cluster-wide.
  assertForbidden(await guard.checkRole('roles', role('r', podRules, 'other'), undefined, w),
    'roles.rbac.authorization.svc.io "r" is forbidden: user "w" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
    + '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}');
  assertForbidden(await guard.checkRole('clusterroles', role('cr', podRules), undefined, w),
    'clusterroles.rbac.authorization.svc.io "cr" is forbidden: user "w" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
    + '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}');
  const more = await guard.checkRole('roles', role('r', [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }], 'ns'), undefined, w);
  assert.match(more?.message ?? '', /not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["delete"\]\}$/);
  assert.deepEqual(more?.details, { name: 'r', group: 'rbac.authorization.svc.io', kind: 'roles' });
});

test('roles: escalate, system:masters, unchanged updates and aggregation rules', async () => {
  const guard = guardOver(writer());
  const wide = role('wide', admin);
  assert.ok(await guard.checkRole('clusterroles', wide, undefined, w));
  assert.equal(await guard.checkRole('clusterroles', wide, undefined, suiteUser('root', ['system:masters'])), undefined);
  // Updates changing only what garbage collection writes are not checked; any other change is.
  const stored = { ...wide, metadata: { name: 'wide', resourceVersion: '5', uid: 'u1' } };
  assert.equal(await guard.checkRole('clusterroles', { ...stored, metadata: { ...stored.metadata, finalizers: ['f'] } }, stored, w), undefined);
  assert.ok(await guard.checkRole('clusterroles', { ...stored, metadata: { ...stored.metadata, labels: { a: 'b' } } }, stored, w));
  // `escalate` on roles lets a writer grant anything.
  const escalator = guardOver(writer([{ verbs: ['escalate'], apiGroups: [names.group('rbac.authorization')], resources: ['clusterroles'] }]));
  assert.equal(await escalator.checkRole('clusterroles', wide, undefined, w), undefined);
  // ... limited by name: a create names nothing, as kube asks with the request's name.
  const named = guardOver(writer([{ verbs: ['escalate'], apiGroups: [names.group('rbac.authorization')], resources: ['clusterroles'], resourceNames: ['wide'] }]));
  assert.ok(await named.checkRole('clusterroles', wide, undefined, w));
  assert.equal(await named.checkRole('clusterroles', { ...stored, rules: [...admin, { verbs: ['get'], apiGroups: ['x'], resources: ['y'] }] }, stored, w), undefined);
  // An aggregation rule needs every permission, even with no rules.
  const aggregated = { ...role('agg', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
  assertForbidden(await guard.checkRole('clusterroles', aggregated, undefined, w),
    'clusterroles.rbac.authorization.svc.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  // ... and so does taking one away.
  assert.ok(await guard.checkRole('clusterroles', role('agg', []), aggregated, w));
  const superUser = guardOver({ ...writer(), clusterRoles: [...writer().clusterRoles!, role('all', admin)], clusterRoleBindings: [binding(names, 'su', { kind: 'ClusterRole', name: 'all' }, [user(names, 'w')])] });
  assert.equal(await superUser.checkRole('clusterroles', aggregated, undefined, w), undefined);
  // The authorizer asked is the whole union: another authorizer's `escalate` counts.
  const allowEscalate: Authorizer = { name: 'x', authorize: async ({ info }) => ({ decision: info.verb === 'escalate' ? 'allow' : 'no-opinion' }) };
  assert.equal(await guardOver(writer(), allowEscalate).checkRole('clusterroles', aggregated, undefined, w), undefined);
});

test('bindings: binding what you hold is allowed, more is refused, bind allows', async () => {
  const guard = guardOver(writer());
  const bindingOf = (kind: string, name: string, ns?: string) => binding(names, 'b', { kind, name }, [user(names, 'friend')], ns);
  assert.equal(await guard.checkBinding('rolebindings', bindingOf('ClusterRole', 'pod-reader', 'ns'), undefined, w), undefined);
  assertForbidden(await guard.checkBinding('rolebindings', bindingOf('ClusterRole', 'secret-reader', 'ns'), undefined, w),
    'rolebindings.rbac.authorization.svc.io "b" is forbidden: user "w" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
    + '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}');
  assert.ok(await guard.checkBinding('rolebindings', bindingOf('Role', 'ns-secret-reader', 'ns'), undefined, w));
  assert.ok(await guard.checkBinding('clusterrolebindings', bindingOf('ClusterRole', 'pod-reader'), undefined, w));
  assert.equal(await guard.checkBinding('clusterrolebindings', bindingOf('ClusterRole', 'secret-reader'), undefined, suiteUser('root', ['system:masters'])), undefined);
  // A role that does not exist: NotFound, as kube's storage answers.
  const missing = await guard.checkBinding('rolebindings', bindingOf('Role', 'nope', 'ns'), undefined, w);
  assert.equal(missing?.code, 404);
  assert.equal(missing?.message, 'roles.rbac.authorization.svc.io "nope" not found');
  // `bind` on the role, in the binding's namespace.
  const rbacGroup = names.group('rbac.authorization');
  const binder = guardOver(writer([
    { verbs: ['bind'], apiGroups: [rbacGroup], resources: ['clusterroles'], resourceNames: ['secret-reader'] },
  ]));
  assert.equal(await binder.checkBinding('rolebindings', bindingOf('ClusterRole', 'secret-reader', 'ns'), undefined, w), undefined);
  assert.equal(await binder.checkBinding('clusterrolebindings', bindingOf('ClusterRole', 'secret-reader'), undefined, w), undefined);
  assert.ok(await binder.checkBinding('rolebindings', bindingOf('Role', 'ns-secret-reader', 'ns'), undefined, w));
  const nsBinder = guardOver({
    ...writer(),
    roles: [...writer().roles!, role('binder', [{ verbs: ['bind'], apiGroups: [rbacGroup], resources: ['clusterroles'] }], 'ns')],
    roleBindings: [...writer().roleBindings!, binding(names, 'binder', { kind: 'Role', name: 'binder' }, [user(names, 'w')], 'ns')],
  });
  assert.equal(await nsBinder.checkBinding('rolebindings', bindingOf('ClusterRole', 'secret-reader', 'ns'), undefined, w), undefined);
  assert.ok(await nsBinder.checkBinding('clusterrolebindings', bindingOf('ClusterRole', 'secret-reader'), undefined, w));
  // Updates: adding a subject is granting; touching only finalizers is not.
  const stored = { ...bindingOf('ClusterRole', 'secret-reader', 'ns'), metadata: { name: 'b', namespace: 'ns', resourceVersion: '3' } };
  assert.ok(await guard.checkBinding('rolebindings', { ...stored, subjects: [...stored.subjects!, user(names, 'x')] }, stored, w));
  assert.equal(await guard.checkBinding('rolebindings', { ...stored, metadata: { ...stored.metadata, finalizers: ['f'] } }, stored, w), undefined);
});
