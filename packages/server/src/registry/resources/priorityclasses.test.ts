import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';

const group = 'scheduling.svc.io';

test('PriorityClass: preemptionPolicy default, reserved system- names, user value limit, immutable value', async () => {
  const { call } = await testRegistry([]);
  const r = await call({ verb: 'create', group, resource: 'priorityclasses', body: { metadata: { name: 'high' }, value: 1000 } });
  assert.equal(r.code, 201, JSON.stringify(r.body));
  assert.equal((r.body as Record<string, unknown>)['preemptionPolicy'], 'PreemptLowerPriority');
  const reserved = await call({ verb: 'create', group, resource: 'priorityclasses', body: { metadata: { name: 'system-mine' }, value: 1 } });
  assert.equal(reserved.code, 422);
  assert.match((reserved.body as Status).message ?? '', /'system-' prefix are reserved/);
  const tooHigh = await call({ verb: 'create', group, resource: 'priorityclasses', body: { metadata: { name: 'huge' }, value: 1_000_000_001 } });
  assert.equal(tooHigh.code, 422);
  const changed = await call({ verb: 'update', group, resource: 'priorityclasses', name: 'high', body: { ...(r.body as object), value: 5 } });
  assert.equal(changed.code, 422);
  assert.match((changed.body as Status).message ?? '', /value: Forbidden: may not be changed in an update/);
});

test('PriorityClass: the system classes cannot be deleted, others can', async () => {
  const { call } = await testRegistry([]);
  for (const [name, value] of [['system-node-critical', 2_000_001_000], ['system-cluster-critical', 2_000_000_000]] as const) {
    assert.equal((await call({ verb: 'create', group, resource: 'priorityclasses', body: { metadata: { name }, value } })).code, 201);
    const refused = await call({ verb: 'delete', group, resource: 'priorityclasses', name });
    assert.equal(refused.code, 403);
    assert.equal((refused.body as Status).message, `priorityclasses.${group} "${name}" is forbidden: this is a system priority class and cannot be deleted`);
    assert.equal((await call({ verb: 'get', group, resource: 'priorityclasses', name })).code, 200);
  }
  assert.equal((await call({ verb: 'create', group, resource: 'priorityclasses', body: { metadata: { name: 'batch' }, value: 10 } })).code, 201);
  assert.equal((await call({ verb: 'delete', group, resource: 'priorityclasses', name: 'batch' })).code, 200);
});
