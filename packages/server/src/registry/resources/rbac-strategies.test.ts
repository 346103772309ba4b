import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { forbidden, namesFor, type Status } from '@svc-apiserver/api';
import { createAdmissionChain } from '../../admission/chain.js';
import type { UserInfo } from '../../request/user-info.js';
import { fakeContext, type FakeRequest, type FakeResponse } from '../../testing/fake-context.js';
import { resourceHandler } from '../../http/handlers/resource-handler.js';
import { loadCatalog } from '../../schema/load-catalog.js';
import { openMemoryBackend } from '../../storage/memory/memory-backend.js';
import { createRegistry } from '../registry.js';
import { clusterRoleBindingStrategy } from './clusterrolebindings.js';
import { clusterRoleStrategy } from './clusterroles.js';
import type { RbacWriteGuard } from './rbac-write-guard.js';
import { roleBindingStrategy } from './rolebindings.js';
import { roleStrategy } from './roles.js';

const names = namesFor('svc');
const group = 'rbac.authorization.svc.io';
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

/** One guard call as the strategy made it. */
interface GuardCall { kind: 'role' | 'binding'; resource: string; name: string; old: boolean; user: string; roleRefGroup?: string }

/** A server-side registry of the RBAC resources, with a guard the test controls (none when `guarded` is false). */
async function rbacRegistry(options: { guarded: boolean; refuse?: (call: GuardCall) => Status | undefined }) {
  const calls: GuardCall[] = [];
  const guard: RbacWriteGuard = {
    async checkRole(resource, object, old, user) {
      const call: GuardCall = { kind: 'role', resource, name: object.metadata?.name ?? '', old: old !== undefined, user: user.username };
      calls.push(call);
      return options.refuse?.(call);
    },
    async checkBinding(resource, object, old, user) {
      const call: GuardCall = {
        kind: 'binding', resource, name: object.metadata?.name ?? '', old: old !== undefined, user: user.username, roleRefGroup: object.roleRef.apiGroup,
      };
      calls.push(call);
      return options.refuse?.(call);
    },
  };
  let current: RbacWriteGuard | undefined;
  const source = () => current;
  const admission = createAdmissionChain({ names });
  if (!admission.ok) throw new Error(admission.error.message);
  const registry = createRegistry({
    backend: openMemoryBackend(), catalog: loadCatalog(names), names, admission: admission.value,
    strategies: {
      'rbac.authorization/roles': () => roleStrategy(source),
      'rbac.authorization/clusterroles': () => clusterRoleStrategy(source),
      'rbac.authorization/rolebindings': (n) => roleBindingStrategy(n, source),
      'rbac.authorization/clusterrolebindings': (n) => clusterRoleBindingStrategy(n, source),
    },
  });
  const handle = resourceHandler(registry);
  const call = async (req: FakeRequest): Promise<FakeResponse> => {
    const { ctx, response } = fakeContext({ user: alice, ...req });
    await handle(ctx);
    return response;
  };
  const ns = await call({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'team' } } });
  assert.equal(ns.code, 201);
  // The guard is late-bound: installed after the registry exists, as the server does once its authorizer is built.
  if (options.guarded) current = guard;
  return { call, calls };
}

const message = (r: FakeResponse) => (r.body as Status).message ?? '';
const roleBody = (name: string, rules: unknown[]) => ({ apiVersion: `${group}/v1`, kind: 'Role', metadata: { name }, rules });
const podReader = [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }];

describe('RBAC strategies through the registry', () => {
  test('Role: path-segment names, rule validation in kube wording, create on update', async () => {
    const { call } = await rbacRegistry({ guarded: false });
    const ok = await call({ verb: 'create', group, resource: 'roles', namespace: 'team', body: roleBody('pod:reader', podReader) });
    assert.equal(ok.code, 201, JSON.stringify(ok.body));
    const url = await call({ verb: 'create', group, resource: 'roles', namespace: 'team', body: roleBody('bad', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]) });
    assert.equal(url.code, 422);
    assert.equal(message(url), `Role.${group} "bad" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs`);
    const noVerbs = await call({ verb: 'create', group, resource: 'roles', namespace: 'team', body: roleBody('bad', [{ verbs: [], apiGroups: [''], resources: ['pods'] }]) });
    assert.equal(noVerbs.code, 422);
    assert.match(message(noVerbs), /rules\[0\]\.verbs: Required value: verbs must contain at least one value/);
    const slash = await call({ verb: 'create', group, resource: 'roles', namespace: 'team', body: roleBody('a%b', podReader) });
    assert.equal(slash.code, 422);
    assert.match(message(slash), /metadata\.name: Invalid value: "a%b": may not contain '%'/);
    const put = await call({ verb: 'update', group, resource: 'roles', namespace: 'team', name: 'made-by-put', body: roleBody('made-by-put', podReader) });
    assert.equal(put.code, 201, JSON.stringify(put.body));
  });

  test('ClusterRole: resource and non-resource URLs mixed, aggregation rule', async () => {
    const { call } = await rbacRegistry({ guarded: false });
    const body = (name: string, extra: Record<string, unknown>) => ({ apiVersion: `${group}/v1`, kind: 'ClusterRole', metadata: { name }, ...extra });
    const mixed = await call({ verb: 'create', group, resource: 'clusterroles', body: body('mixed', { rules: [{ verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/metrics'] }] }) });
    assert.equal(mixed.code, 422);
    assert.equal(message(mixed), `ClusterRole.${group} "mixed" is invalid: rules[0].nonResourceURLs: Invalid value: ["/metrics"]: rules cannot apply to both regular resources and non-resource URLs`);
    const urls = await call({ verb: 'create', group, resource: 'clusterroles', body: body('metrics', { rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/healthz/*'] }] }) });
    assert.equal(urls.code, 201, JSON.stringify(urls.body));
    const noSelectors = await call({ verb: 'create', group, resource: 'clusterroles', body: body('agg', { aggregationRule: { clusterRoleSelectors: [] } }) });
    assert.equal(noSelectors.code, 422);
    assert.match(message(noSelectors), /aggregationRule\.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil/);
    const agg = await call({ verb: 'create', group, resource: 'clusterroles', body: body('agg', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate': 'true' } }] } }) });
    assert.equal(agg.code, 201, JSON.stringify(agg.body));
  });

  test('RoleBinding: defaults, roleRef rules, immutable roleRef', async () => {
    const { call } = await rbacRegistry({ guarded: false });
    const body = (name: string, roleRef: Record<string, unknown>, subjects: unknown[]) => ({ apiVersion: `${group}/v1`, kind: 'RoleBinding', metadata: { name }, roleRef, subjects });
    const created = await call({
      verb: 'create', group, resource: 'rolebindings', namespace: 'team',
      body: body('readers', { apiGroup: '', kind: 'Role', name: 'pod:reader' }, [{ kind: 'User', name: 'bob' }, { kind: 'ServiceAccount', name: 'default' }]),
    });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    const stored = created.body as Record<string, unknown>;
    assert.deepEqual(stored['roleRef'], { apiGroup: group, kind: 'Role', name: 'pod:reader' });
    assert.deepEqual(stored['subjects'], [{ kind: 'User', name: 'bob', apiGroup: group }, { kind: 'ServiceAccount', name: 'default' }]);
    const changed = await call({ verb: 'update', group, resource: 'rolebindings', namespace: 'team', name: 'readers', body: { ...stored, roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'view' } } });
    assert.equal(changed.code, 422);
    assert.match(message(changed), /roleRef: Invalid value: .*: cannot change roleRef/);
    const subjectsOnly = await call({ verb: 'update', group, resource: 'rolebindings', namespace: 'team', name: 'readers', body: { ...stored, subjects: [{ kind: 'Group', name: 'devs' }] } });
    assert.equal(subjectsOnly.code, 200, JSON.stringify(subjectsOnly.body));
    assert.deepEqual((subjectsOnly.body as Record<string, unknown>)['subjects'], [{ kind: 'Group', name: 'devs', apiGroup: group }]);
    const badKind = await call({ verb: 'create', group, resource: 'rolebindings', namespace: 'team', body: body('bad', { apiGroup: group, kind: 'Thing', name: 'x' }, [{ kind: 'Robot', name: 'r' }]) });
    assert.equal(badKind.code, 422);
    assert.equal(message(badKind), `RoleBinding.${group} "bad" is invalid: [roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole", subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]`);
  });

  test('ClusterRoleBinding: only ClusterRoles, ServiceAccounts need a namespace', async () => {
    const { call } = await rbacRegistry({ guarded: false });
    const body = (roleRef: Record<string, unknown>, subjects: unknown[]) => ({ apiVersion: `${group}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef, subjects });
    const toRole = await call({ verb: 'create', group, resource: 'clusterrolebindings', body: body({ apiGroup: group, kind: 'Role', name: 'r' }, []) });
    assert.equal(toRole.code, 422);
    assert.equal(message(toRole), `ClusterRoleBinding.${group} "b" is invalid: roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`);
    const sa = await call({ verb: 'create', group, resource: 'clusterrolebindings', body: body({ apiGroup: '', kind: 'ClusterRole', name: 'view' }, [{ kind: 'ServiceAccount', name: 'default' }]) });
    assert.equal(sa.code, 422);
    assert.match(message(sa), /subjects\[0\]\.namespace: Required value/);
    const ok = await call({ verb: 'create', group, resource: 'clusterrolebindings', body: body({ apiGroup: '', kind: 'ClusterRole', name: 'view' }, [{ kind: 'ServiceAccount', name: 'default', namespace: 'team' }]) });
    assert.equal(ok.code, 201, JSON.stringify(ok.body));
  });
});

describe('the writer check', () => {
  test('is called on create and main-resource update of all four, with the old object on update and defaults applied', async () => {
    const { call, calls } = await rbacRegistry({ guarded: true });
    assert.equal((await call({ verb: 'create', group, resource: 'roles', namespace: 'team', body: roleBody('r', podReader) })).code, 201);
    const cr = await call({ verb: 'create', group, resource: 'clusterroles', body: { metadata: { name: 'cr' }, rules: podReader } });
    assert.equal(cr.code, 201);
    assert.equal((await call({
      verb: 'create', group, resource: 'rolebindings', namespace: 'team', body: { metadata: { name: 'rb' }, roleRef: { apiGroup: '', kind: 'Role', name: 'r' }, subjects: [] },
    })).code, 201);
    assert.equal((await call({
      verb: 'create', group, resource: 'clusterrolebindings', body: { metadata: { name: 'crb' }, roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'cr' } },
    })).code, 201);
    const updated = await call({ verb: 'update', group, resource: 'clusterroles', name: 'cr', body: { ...(cr.body as object), rules: [] } });
    assert.equal(updated.code, 200, JSON.stringify(updated.body));
    assert.deepEqual(calls, [
      { kind: 'role', resource: 'roles', name: 'r', old: false, user: 'alice' },
      { kind: 'role', resource: 'clusterroles', name: 'cr', old: false, user: 'alice' },
      { kind: 'binding', resource: 'rolebindings', name: 'rb', old: false, user: 'alice', roleRefGroup: group },
      { kind: 'binding', resource: 'clusterrolebindings', name: 'crb', old: false, user: 'alice', roleRefGroup: group },
      { kind: 'role', resource: 'clusterroles', name: 'cr', old: true, user: 'alice' },
    ]);
  });

  test('its Status fails the write as it is, and nothing is stored', async () => {
    const refusal = forbidden({ group, resource: 'clusterroles' }, 'admin2', 'user "alice" is attempting to grant RBAC permissions not currently held');
    const { call, calls } = await rbacRegistry({ guarded: true, refuse: (c) => (c.name === 'admin2' ? refusal : undefined) });
    const r = await call({ verb: 'create', group, resource: 'clusterroles', body: { metadata: { name: 'admin2' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] } });
    assert.equal(r.code, 403);
    assert.deepEqual(r.body, refusal);
    assert.equal(calls.length, 1);
    const get = await call({ verb: 'get', group, resource: 'clusterroles', name: 'admin2' });
    assert.equal(get.code, 404);
  });

  test('refuses updates too, and is not consulted for reads and deletes', async () => {
    let refuse = false;
    const refusal = forbidden({ group, resource: 'rolebindings' }, 'rb', 'no');
    const { call, calls } = await rbacRegistry({ guarded: true, refuse: () => (refuse ? refusal : undefined) });
    const created = await call({ verb: 'create', group, resource: 'rolebindings', namespace: 'team', body: { metadata: { name: 'rb' }, roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'view' } } });
    assert.equal(created.code, 201);
    refuse = true;
    const updated = await call({ verb: 'update', group, resource: 'rolebindings', namespace: 'team', name: 'rb', body: { ...(created.body as object), subjects: [{ kind: 'User', name: 'eve' }] } });
    assert.equal(updated.code, 403);
    assert.equal((await call({ verb: 'get', group, resource: 'rolebindings', namespace: 'team', name: 'rb' })).code, 200);
    assert.equal((await call({ verb: 'delete', group, resource: 'rolebindings', namespace: 'team', name: 'rb' })).code, 200);
    assert.equal(calls.length, 2);
  });

  test('an absent guard lets every write through', async () => {
    const { call, calls } = await rbacRegistry({ guarded: false });
    assert.equal((await call({ verb: 'create', group, resource: 'clusterroles', body: { metadata: { name: 'all' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] } })).code, 201);
    assert.equal(calls.length, 0);
  });
});
