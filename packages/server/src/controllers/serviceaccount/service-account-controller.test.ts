import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../../testing/test-registry.js';
import { createInformerFactory } from '../kit/informer-factory.js';
import { until } from '../../testing/until.js';
import { serviceAccountSync, startServiceAccountController } from './service-account-controller.js';

test('sync: creates default in an active namespace, nothing in a missing or terminating one', async () => {
  const t = await testRegistry(['default', 'team']);
  const nsDef = t.registry.lookup('', 'v1', 'namespaces')!;
  const saDef = t.registry.lookup('', 'v1', 'serviceaccounts')!;
  const informers = createInformerFactory(t.registry);
  try {
    const namespaces = informers.informerFor(nsDef);
    const accounts = informers.informerFor(saDef);
    await Promise.all([namespaces.synced(), accounts.synced()]);
    const sync = serviceAccountSync(t.registry, saDef, namespaces, accounts);
    assert.deepEqual(await sync('team'), { kind: 'done' });
    assert.equal((await t.call({ verb: 'get', resource: 'serviceaccounts', namespace: 'team', name: 'default' })).code, 200);
    assert.deepEqual(await sync('ghost'), { kind: 'done' });
    await t.call({ verb: 'delete', resource: 'namespaces', name: 'team' });
    await until('team terminating', () => (namespaces.get('', 'team')?.status as { phase?: string } | undefined)?.phase === 'Terminating');
    await t.call({ verb: 'delete', resource: 'serviceaccounts', namespace: 'team', name: 'default' });
    await until('account gone from the cache', () => accounts.get('team', 'default') === undefined);
    assert.deepEqual(await sync('team'), { kind: 'done' });
    assert.equal((await t.call({ verb: 'get', resource: 'serviceaccounts', namespace: 'team', name: 'default' })).code, 404);
  } finally {
    informers.stop();
  }
});

test('the controller: default appears in new namespaces and comes back when deleted', async () => {
  const t = await testRegistry(['default']);
  const ctl = startServiceAccountController({ registry: t.registry, names: t.names, retryMs: 20 });
  const exists = async (ns: string) => (await t.call({ verb: 'get', resource: 'serviceaccounts', namespace: ns, name: 'default' })).code === 200;
  try {
    await until('default in default', () => exists('default'));
    await t.call({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'fresh' } } });
    await until('default in fresh', () => exists('fresh'));
    assert.equal((await t.call({ verb: 'delete', resource: 'serviceaccounts', namespace: 'fresh', name: 'default' })).code, 200);
    await until('default back in fresh', () => exists('fresh'));
  } finally {
    await ctl.stop();
  }
});
