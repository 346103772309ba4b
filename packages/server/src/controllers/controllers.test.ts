import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../testing/test-registry.js';
import { startControllers } from './index.js';

async function until(what: string, cond: () => Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('bootstrap creates default and the system namespaces; health checks pass after', async () => {
  const { registry, names, call } = await testRegistry([]);
  const controllers = await startControllers({ registry, names, retryMs: 20 });
  try {
    const wanted = ['default', 'svc-system', 'svc-public', 'svc-node-lease'];
    await until('namespaces', async () => {
      const list = (await call({ verb: 'list', resource: 'namespaces' })).body as { items: KubeObject[] };
      return wanted.every((n) => list.items.some((i) => i.metadata?.name === n));
    });
    await until('checks', async () => (await Promise.all(controllers.checks.map((c) => c.check()))).every((r) => r === undefined));
    assert.ok(controllers.checks.some((c) => c.name === 'poststarthook/start-system-namespaces-controller'));
  } finally {
    await controllers.stop();
  }
});

test('namespace deletion: content is deleted (waiting for finalizers), then the namespace is finalized and removed', async () => {
  const { registry, names, call } = await testRegistry(['default', 'team']);
  const controllers = await startControllers({ registry, names, retryMs: 20 });
  try {
    await call({ verb: 'create', resource: 'configmaps', namespace: 'team', body: { metadata: { name: 'plain' } } });
    await call({ verb: 'create', resource: 'configmaps', namespace: 'team', body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    await call({ verb: 'create', resource: 'secrets', namespace: 'team', body: { metadata: { name: 's' } } });
    await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'bystander' } } });
    const del = await call({ verb: 'delete', resource: 'namespaces', name: 'team', namespace: 'team' });
    assert.equal(del.code, 200);

    await until('plain content gone', async () =>
      (await call({ verb: 'get', resource: 'configmaps', namespace: 'team', name: 'plain' })).code === 404
      && (await call({ verb: 'get', resource: 'secrets', namespace: 'team', name: 's' })).code === 404);
    const held = (await call({ verb: 'get', resource: 'configmaps', namespace: 'team', name: 'held' })).body as KubeObject;
    assert.ok(held.metadata?.deletionTimestamp, 'object with a finalizer is marked, not removed');
    const ns = (await call({ verb: 'get', resource: 'namespaces', name: 'team', namespace: 'team' })).body as KubeObject;
    assert.equal((ns.status as { phase: string }).phase, 'Terminating');
    assert.deepEqual((ns.spec as { finalizers: string[] }).finalizers, [names.name('namespaceFinalizer')], 'not finalized while content remains');

    await call({ verb: 'patch', resource: 'configmaps', namespace: 'team', name: 'held', contentType: 'application/merge-patch+json', body: { metadata: { finalizers: null } } });
    await until('namespace removed', async () => (await call({ verb: 'get', resource: 'namespaces', name: 'team', namespace: 'team' })).code === 404);
    assert.equal((await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'bystander' })).code, 200);
  } finally {
    await controllers.stop();
  }
});

test('post-start hooks answer under kube-apiserver\'s names; APIServerIdentity off leaves the identity Lease hooks out', async () => {
  const hooks = async (enabled: boolean) => {
    const { registry, names } = await testRegistry([]);
    const controllers = await startControllers({ registry, names, retryMs: 20, controllers: [], apiServerIdentity: { enabled } });
    try {
      return [...new Set(controllers.checks.map((c) => c.name))];
    } finally {
      await controllers.stop();
    }
  };
  assert.deepEqual((await hooks(true)).sort(), [
    'poststarthook/rbac/bootstrap-roles',
    'poststarthook/scheduling/bootstrap-system-priority-classes',
    'poststarthook/start-apiextensions-controllers',
    'poststarthook/start-deprecated-kube-apiserver-identity-lease-garbage-collector',
    'poststarthook/start-kube-apiserver-identity-lease-controller',
    'poststarthook/start-kube-apiserver-identity-lease-garbage-collector',
    'poststarthook/start-system-namespaces-controller',
  ]);
  assert.deepEqual((await hooks(false)).filter((n) => n.includes('identity-lease')), []);
});
