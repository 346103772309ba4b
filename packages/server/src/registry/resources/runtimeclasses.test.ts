import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';

const group = 'node.svc.io';

test('RuntimeClass: handler required, a DNS label, immutable', async () => {
  const { call } = await testRegistry([]);
  const r = await call({ verb: 'create', group, resource: 'runtimeclasses', body: { metadata: { name: 'gvisor' }, handler: 'runsc' } });
  assert.equal(r.code, 201, JSON.stringify(r.body));
  const missing = await call({ verb: 'create', group, resource: 'runtimeclasses', body: { metadata: { name: 'x' } } });
  assert.equal(missing.code, 422);
  const bad = await call({ verb: 'create', group, resource: 'runtimeclasses', body: { metadata: { name: 'y' }, handler: 'Not_A_Label' } });
  assert.equal(bad.code, 422);
  const changed = await call({ verb: 'update', group, resource: 'runtimeclasses', name: 'gvisor', body: { ...(r.body as object), handler: 'runc' } });
  assert.equal(changed.code, 422);
  assert.match((changed.body as Status).message ?? '', /handler: Invalid value: "runc": field is immutable/);
});
