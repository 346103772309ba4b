import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inKubeOrder } from './check-order.js';
import { mergeChecks, reportedAs } from './merged-checks.js';
import type { HealthCheck } from './health-check.js';

const c = (name: string, reason?: string): HealthCheck => ({ name, check: async () => reason });

test('checks are listed in kube-apiserver\'s order; unknown ones after its hooks, shutdown last', () => {
  const names = inKubeOrder([
    c('shutdown'), c('poststarthook/rbac/bootstrap-roles'), c('mine'), c('etcd'), c('informer-sync'), c('ping'),
    c('poststarthook/start-system-namespaces-controller'), c('log'), c('etcd-readiness'),
  ]).map((x) => x.name);
  assert.deepEqual(names, [
    'ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', 'poststarthook/start-system-namespaces-controller',
    'poststarthook/rbac/bootstrap-roles', 'mine', 'shutdown',
  ]);
});

test('checks of one name answer as one, with the first failure\'s reason and its probe\'s name', async () => {
  const merged = mergeChecks([
    reportedAs('informer-sync', c('namespace-controller')),
    c('etcd'),
    reportedAs('informer-sync', c('garbage-collector', 'not watching pods')),
    reportedAs('informer-sync', c('rbac-policy', 'not synced')),
  ]);
  assert.deepEqual(merged.map((m) => m.name), ['informer-sync', 'etcd']);
  assert.equal(await merged[0]!.check(), 'garbage-collector: not watching pods');
  assert.equal(await merged[1]!.check(), undefined);
});
