/**
 * Every served kind has the strategy kube-apiserver 1.27 gives it: kube registers each stored resource with its own
 * strategy, so every served resource but those it serves without one (create-only reviews, bindings, component
 * statuses) has an entry in the strategy table instead of the generic strategy.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResourceKeys, type GroupResourceKey } from '../../schema/resource-keys.js';
import { tableCoverage } from '../../testing/table-coverage.js';
import { servedResources } from '../served-resources.js';
import { strategyFactories } from './index.js';
import { testRegistry } from '../../testing/test-registry.js';

/** The built-in resources kube-apiserver 1.27 serves without a strategy: nothing of them is stored. */
const withoutStrategy: ReadonlySet<GroupResourceKey> = new Set<GroupResourceKey>([
  'core/bindings', 'core/componentstatuses', 'authentication/tokenreviews', 'authentication/selfsubjectreviews',
  'authorization/subjectaccessreviews', 'authorization/localsubjectaccessreviews',
  'authorization/selfsubjectaccessreviews', 'authorization/selfsubjectrulesreviews',
]);

/** Every built-in resource but those. */
const kubeStrategies: ReadonlySet<GroupResourceKey> = new Set(builtinResourceKeys
  .map((k) => k.replace(/\/[^/]+\//, '/') as GroupResourceKey).filter((k) => !withoutStrategy.has(k)));

test('every served kind kube-apiserver 1.27 gives a strategy has its own, and no other kind has one', () => {
  assert.deepEqual(tableCoverage(strategyFactories, kubeStrategies, servedResources), { missing: [], extra: [] });
});

test('every served resource whose discovery lists a status subresource has a status strategy (no 405 on /status)', async () => {
  const { registry } = await testRegistry();
  const missing = registry.all()
    .filter((def) => def.subresources.some((s) => s.name === 'status') && def.strategy.status === undefined)
    .map((def) => `${def.groupKey || 'core'}/${def.version}/${def.resource}`);
  assert.deepEqual(missing, []);
});
