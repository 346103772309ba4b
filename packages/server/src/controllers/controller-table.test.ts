import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../testing/test-registry.js';
import { controllerTable, selectControllers } from './controller-table.js';
import { startControllers } from './index.js';

test('the table is keyed by kube-controller-manager names; * enables those on by default', () => {
  assert.deepEqual(Object.keys(controllerTable), ['namespace', 'garbagecollector', 'clusterrole-aggregation']);
  assert.deepEqual(selectControllers(['*']), { ok: true, value: ['namespace', 'garbagecollector', 'clusterrole-aggregation'] });
  assert.equal(selectControllers(['tokencleaner']).ok, false, 'a controller this server does not have yet is unknown');
});

test('--controllers: only the enabled controllers run; post-start hooks always do', async () => {
  const selected = selectControllers(['*', '-garbagecollector']);
  assert.deepEqual(selected, { ok: true, value: ['namespace', 'clusterrole-aggregation'] });
  const { registry, names } = await testRegistry([]);
  const controllers = await startControllers({ registry, names, retryMs: 20, controllers: selected.ok ? selected.value : [] });
  try {
    const checks = controllers.checks.map((c) => c.name);
    assert.ok(checks.includes('namespace-controller'));
    assert.ok(checks.includes('clusterrole-aggregation'));
    assert.ok(!checks.includes('garbage-collector'), 'the garbage collector is not running');
    assert.ok(checks.includes('poststarthook/start-system-namespaces-controller'));
  } finally {
    await controllers.stop();
  }
});
