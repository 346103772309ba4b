import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import type { PolicyRule, RoleObject } from '../registry/resources/rbac-types.js';
import { testRegistry } from '../testing/test-registry.js';
import { aggregatedRules, startClusterRoleAggregation } from './cluster-role-aggregation.js';
import { startRbacBootstrap } from './rbac-bootstrap.js';

const rbac = 'rbac.authorization.svc.io';
const toView = 'rbac.authorization.svc.io/aggregate-to-view';

async function until(what: string, cond: () => Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('aggregatedRules: per selector, matched roles by name, equal rules once, itself excluded', () => {
  const r = (verb: string): PolicyRule => ({ apiGroups: [''], resources: ['pods'], verbs: [verb] });
  const role = (name: string, labels: Record<string, string>, rules: PolicyRule[]): RoleObject => ({ metadata: { name, labels }, rules });
  const agg: RoleObject = { metadata: { name: 'agg', labels: { a: '1' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: '1' } }, { matchExpressions: [{ key: 'b', operator: 'Exists' }] }] }, rules: [r('bogus')] };
  const all = [role('zeta', { a: '1' }, [r('get')]), role('alpha', { a: '1' }, [r('list'), r('get')]), role('beta', { b: 'x' }, [r('watch'), r('list')]), role('other', {}, [r('delete')]), agg];
  assert.deepEqual(aggregatedRules(agg, all), [r('list'), r('get'), r('watch')]);
  assert.equal(aggregatedRules(role('plain', {}, []), all), undefined);
});

test('admin, edit and view aggregate; a new labelled role joins and leaves; direct edits are reverted', async () => {
  const t = await testRegistry(['default', 'svc-system', 'svc-public']);
  const boot = startRbacBootstrap(t.registry, t.names, { retryMs: 10 });
  await boot.done;
  const ctl = startClusterRoleAggregation(t.registry, t.names, { retryMs: 20 });
  const get = async (name: string) =>
    (await t.call({ verb: 'get', group: rbac, version: 'v1', resource: 'clusterroles', name })).body as RoleObject;
  const has = (role: RoleObject, rule: PolicyRule) => (role.rules ?? []).some((x) => JSON.stringify(x) === JSON.stringify(rule));
  try {
    const viewRules = (await get('system:aggregate-to-view')).rules!;
    const editRules = (await get('system:aggregate-to-edit')).rules!;
    const adminRules = (await get('system:aggregate-to-admin')).rules!;
    await until('view aggregated', async () => JSON.stringify((await get('view')).rules) === JSON.stringify(viewRules));
    await until('edit aggregated', async () => { const e = await get('edit'); return [...viewRules, ...editRules].every((x) => has(e, x)); });
    await until('admin aggregated', async () => { const a = await get('admin'); return [...viewRules, ...editRules, ...adminRules].every((x) => has(a, x)); });

    const extra: PolicyRule = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] };
    const created = await t.call({
      verb: 'create', group: rbac, version: 'v1', resource: 'clusterroles',
      body: { metadata: { name: 'widgets-view', labels: { [toView]: 'true' } }, rules: [extra] },
    });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    await until('widgets in view', async () => has(await get('view'), extra));
    await until('widgets in admin', async () => has(await get('admin'), extra));

    const deleted = await t.call({ verb: 'delete', group: rbac, version: 'v1', resource: 'clusterroles', name: 'widgets-view' });
    assert.equal(deleted.code, 200, JSON.stringify(deleted.body));
    await until('widgets gone from view', async () => !has(await get('view'), extra));
    await until('widgets gone from admin', async () => !has(await get('admin'), extra));

    const view = await get('view');
    const edited = await t.call({
      verb: 'update', group: rbac, version: 'v1', resource: 'clusterroles', name: 'view',
      body: { ...view, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] } as KubeObject,
    });
    assert.equal(edited.code, 200, JSON.stringify(edited.body));
    await until('direct edit reverted', async () => JSON.stringify((await get('view')).rules) === JSON.stringify(viewRules));
  } finally {
    await ctl.stop();
  }
});

test('started on an empty store, the controller aggregates the roles created after it', async () => {
  const t = await testRegistry(['default', 'svc-system', 'svc-public']);
  const ctl = startClusterRoleAggregation(t.registry, t.names, { retryMs: 20 });
  try {
    await ctl.idle();
    const boot = startRbacBootstrap(t.registry, t.names, { retryMs: 10 });
    await boot.done;
    const get = async (name: string) =>
      (await t.call({ verb: 'get', group: rbac, version: 'v1', resource: 'clusterroles', name })).body as RoleObject;
    const viewRules = (await get('system:aggregate-to-view')).rules!;
    await until('view aggregated', async () => JSON.stringify((await get('view')).rules) === JSON.stringify(viewRules));
  } finally {
    await ctl.stop();
  }
});
