import { ok } from '@svc-apiserver/api';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../testing/test-registry.js';
import { controllerTable, selectControllers } from './controller-table.js';
import { startControllers } from './index.js';

test('the table is keyed by kube-controller-manager names; * enables those on by default', () => {
  const all = [
    'namespace', 'garbagecollector', 'clusterrole-aggregation', 'serviceaccount', 'serviceaccount-token', 'root-ca-cert-publisher',
    'csrsigning', 'csrapproving', 'csrcleaner', 'bootstrapsigner', 'tokencleaner', 'resourcequota', 'pvc-protection', 'pv-protection',
  ];
  const onByDefault = all.filter((n) => n !== 'bootstrapsigner' && n !== 'tokencleaner');
  assert.deepEqual(Object.keys(controllerTable), all);
  assert.deepEqual(selectControllers(['*']), ok(onByDefault));
  assert.deepEqual(selectControllers(['*', 'bootstrapsigner', 'tokencleaner', '-csrcleaner']), {
    ok: true,
    value: all.filter((n) => n !== 'csrcleaner'),
  });
  assert.equal(selectControllers(['nodeipam']).ok, false, 'a controller this server does not have is unknown');
});

test('--controllers: only the enabled controllers run; post-start hooks always do', async () => {
  const selected = selectControllers(['*', '-garbagecollector']);
  assert.deepEqual(selected, {
    ok: true,
    value: [
      'namespace', 'clusterrole-aggregation', 'serviceaccount', 'serviceaccount-token', 'root-ca-cert-publisher', 'csrsigning', 'csrapproving',
      'csrcleaner', 'resourcequota', 'pvc-protection', 'pv-protection',
    ],
  });
  const { registry, names } = await testRegistry([]);
  const controllers = await startControllers({ registry, names, retryMs: 20, controllers: selected.ok ? selected.value : [] });
  try {
    // The controllers answer as part of informer-sync, each under its own probe name.
    const checks = controllers.informerChecks.map((c) => c.probe);
    assert.ok(controllers.informerChecks.every((c) => c.name === 'informer-sync'));
    assert.ok(checks.includes('namespace-controller'));
    assert.ok(checks.includes('clusterrole-aggregation'));
    assert.ok(!checks.includes('garbage-collector'), 'the garbage collector is not running');
    assert.ok(controllers.checks.map((c) => c.name).includes('poststarthook/start-system-namespaces-controller'));
  } finally {
    await controllers.stop();
  }
});

test('a controller without the settings it needs is skipped with its reason logged', async () => {
  const { registry, names } = await testRegistry([]);
  const logged: string[] = [];
  const controllers = await startControllers({
    registry, names, retryMs: 20, controllers: ['serviceaccount', 'serviceaccount-token', 'root-ca-cert-publisher', 'csrsigning', 'csrapproving'],
    log: (m) => logged.push(m),
  });
  try {
    const checks = controllers.informerChecks.map((c) => c.probe);
    assert.ok(checks.includes('serviceaccount'));
    for (const name of ['serviceaccount-token', 'root-ca-cert-publisher', 'csrsigning', 'csrapproving']) assert.ok(!checks.includes(name), name);
    assert.deepEqual(logged.filter((m) => m.startsWith('controller ')), [
      'controller serviceaccount-token not started: no service account private key',
      'controller root-ca-cert-publisher not started: no root CA',
      'controller csrsigning not started: no signing CA',
      'controller csrapproving not started: no authorizer',
    ]);
  } finally {
    await controllers.stop();
  }
});
