import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '@svc-apiserver/api';
import { createMetricsRegistry } from '../../metrics/metrics-registry.js';
import { createFlowController } from '../../flowcontrol/flow-controller.js';
import { flowcontrolMetrics } from '../../flowcontrol/flowcontrol-metrics.js';
import { testRegistry } from '../../testing/test-registry.js';
import { eventually } from '../../e2e/http.js';
import { createObject } from '../../registry/operations/create-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import { startApfConfiguration } from './apf-configuration.js';

const group = 'flowcontrol.apiserver.svc.io';

test('APF configuration: mandatory specs restored, suggested ones kept unless auto-updated, dangling FlowSchemas marked, stale auto-updated objects removed', async (t) => {
  const { registry, names } = await testRegistry([]);
  const controller = createFlowController({ serverConcurrencyLimit: 600, waitLimitMs: 1000, metrics: flowcontrolMetrics(createMetricsRegistry()) });
  const apf = startApfConfiguration(registry, names, controller, { ensureIntervalMs: 60_000, retryMs: 20 });
  t.after(() => apf.stop());
  const fsDef = registry.lookup(group, 'v1beta3', 'flowschemas')!;
  const plDef = registry.lookup(group, 'v1beta3', 'prioritylevelconfigurations')!;
  const get = async (def: typeof fsDef, name: string): Promise<any> => {
    const got = await registry.store.get(def, '', name);
    return got.ok ? got.value : undefined;
  };
  assert.ok(await eventually(async () => (await apf.checks[0]!.check()) === undefined, 10_000, 20), 'the producer finished');
  assert.equal(controller.levels().find((l) => l.name === 'global-default')?.nominalLimit, 49, 'the stored configuration reached the controller');

  // An administrator changes a mandatory level, opts a suggested one out of updates and changes it, and edits another.
  const put = async (def: typeof fsDef, object: any) => {
    const current = await get(def, object.metadata.name);
    const r = await updateObject(registry, def, '', { ...current, ...object, metadata: { ...current.metadata, ...object.metadata } } as KubeObject, current, { user: { username: 'admin', groups: ['system:masters'] }, dryRun: false });
    assert.ok(r.ok, JSON.stringify(r));
  };
  await put(plDef, { metadata: { name: 'catch-all' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 500, lendablePercent: 0, limitResponse: { type: 'Reject' } } } });
  await put(plDef, { metadata: { name: 'workload-low', annotations: { 'apf.svc.io/autoupdate-spec': 'false' } }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 7, lendablePercent: 0, limitResponse: { type: 'Reject' } } } });
  await put(plDef, { metadata: { name: 'system' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 3, lendablePercent: 0, limitResponse: { type: 'Reject' } } } });
  const admin = { user: { username: 'admin', groups: ['system:masters'] }, dryRun: false };
  const orphan = await createObject(registry, fsDef, {
    apiVersion: `${group}/v1beta3`, kind: 'FlowSchema', metadata: { name: 'orphan' },
    spec: { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 50, rules: [] },
  } as unknown as KubeObject, admin);
  assert.ok(orphan.ok, JSON.stringify(orphan));
  const stale = await createObject(registry, plDef, {
    apiVersion: `${group}/v1beta3`, kind: 'PriorityLevelConfiguration', metadata: { name: 'retired', annotations: { 'apf.svc.io/autoupdate-spec': 'true' } },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } },
  } as unknown as KubeObject, admin);
  assert.ok(stale.ok, JSON.stringify(stale));

  assert.equal(await apf.ensure(), undefined);
  assert.equal((await get(plDef, 'catch-all')).spec.limited.nominalConcurrencyShares, 5, 'mandatory: restored');
  assert.equal((await get(plDef, 'workload-low')).spec.limited.nominalConcurrencyShares, 7, 'opted out: kept');
  assert.equal((await get(plDef, 'system')).spec.limited.nominalConcurrencyShares, 30, 'auto-updated: restored');
  assert.equal(await get(plDef, 'retired'), undefined, 'an auto-updated object the configuration no longer has is removed');
  assert.ok(await get(fsDef, 'orphan'), 'objects of the administrator stay');
  assert.ok(await eventually(async () => {
    const c = (await get(fsDef, 'orphan'))?.status?.conditions?.find((x: { type: string }) => x.type === 'Dangling');
    return c?.status === 'True' && c.reason === 'NotFound' && /named "nowhere" but there is no such object/.test(c.message);
  }, 5000, 20), 'Dangling=True on a FlowSchema whose level is missing');
  assert.ok(await eventually(async () => controller.levels().find((l) => l.name === 'workload-low')?.nominalLimit === Math.ceil((600 * 7) / (5 + 30 + 40 + 10 + 40 + 7 + 20)), 5000, 20), 'the controller follows the stored shares');
});
