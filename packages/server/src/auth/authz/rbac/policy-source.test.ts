import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../../../testing/test-registry.js';
import { resourceRequestInfo, suiteUser } from '../authorizer-suite.js';
import { registryRoleGetter, startRbacPolicySource } from './policy-source.js';
import { rbacAuthorizer } from './rbac-authorizer.js';
import { binding, role, user } from '../../../testing/rbac-test-fixtures.js';

const masters = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

async function until(what: string, cond: () => Promise<boolean> | boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('the policy source follows the registry: bindings created, changed and deleted after start take effect', async () => {
  const { registry, names, call } = await testRegistry(['team']);
  const group = names.group('rbac.authorization');
  const created = await call({ verb: 'create', group, resource: 'clusterroles', user: masters, body: role('pod-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]) });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const source = startRbacPolicySource(registry, names, { retryMs: 10 });
  try {
    await source.synced();
    assert.equal(await source.health.check(), undefined);
    assert.equal(source.getClusterRole('pod-reader')?.metadata?.name, 'pod-reader');
    const authorizer = rbacAuthorizer(source, names);
    const decide = async () => (await authorizer.authorize({ user: suiteUser('u'), info: resourceRequestInfo({ verb: 'get', resource: 'pods', name: 'p', namespace: 'team' }) })).decision;
    assert.equal(await decide(), 'no-opinion');

    const rb = binding(names, 'read', { kind: 'ClusterRole', name: 'pod-reader' }, [user(names, 'u')], 'team');
    const made = await call({ verb: 'create', group, resource: 'rolebindings', namespace: 'team', user: masters, body: rb });
    assert.equal(made.code, 201, JSON.stringify(made.body));
    await until('the binding to take effect', async () => (await decide()) === 'allow');

    // A change of subjects moves the grant; the old subject's index entry goes.
    const changed = await call({
      verb: 'update', group, resource: 'rolebindings', namespace: 'team', name: 'read', user: masters,
      body: { ...(made.body as object), subjects: [user(names, 'v')] },
    });
    assert.equal(changed.code, 200, JSON.stringify(changed.body));
    await until('the old subject to lose the grant', async () => (await decide()) === 'no-opinion');
    assert.equal(source.roleBindingsFor(suiteUser('v'), 'team').length, 1);
    assert.equal(source.roleBindingsFor(suiteUser('u'), 'team').length, 0);

    await call({ verb: 'delete', group, resource: 'rolebindings', namespace: 'team', name: 'read', user: masters });
    await until('the deletion', () => source.roleBindingsFor(suiteUser('v'), 'team').length === 0);

    // Storage reads of roles, for the escalation checks.
    const getRole = registryRoleGetter(registry, names);
    const got = await getRole('ClusterRole', '', 'pod-reader');
    assert.ok(got.ok);
    const missing = await getRole('Role', 'team', 'nope');
    assert.ok(!missing.ok);
    assert.equal(missing.error.message, `roles.${group} "nope" not found`);
  } finally {
    source.stop();
  }
});

test('the policy source health check fails until synced', async () => {
  const { registry, names } = await testRegistry([]);
  const source = startRbacPolicySource(registry, names);
  try {
    // The informers read asynchronously: right after start nothing has been read.
    assert.equal(source.hasSynced(), false);
    assert.match((await source.health.check()) ?? '', /RBAC policy not yet read/);
    await source.synced();
    assert.equal(await source.health.check(), undefined);
  } finally {
    source.stop();
  }
});
