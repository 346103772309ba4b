import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';

const event = {
  apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: 'e' }, eventTime: '2024-01-01T00:00:00.000000Z',
  reportingController: 'example.com/c', reportingInstance: 'i-1', action: 'Tested', reason: 'Because', type: 'Normal', note: 'n',
};

test('events/v1: type Normal or Warning; action, reason, reportingController, reportingInstance, eventTime required', async () => {
  const { call } = await testRegistry();
  const create = (body: unknown) => call({ verb: 'create', group: 'events.svc.io', resource: 'events', namespace: 'default', body });
  assert.equal((await create(event)).code, 201);
  const badType = await create({ ...event, metadata: { name: 'e2' }, type: 'Info' });
  assert.equal(badType.code, 422);
  assert.match((badType.body as Status).message ?? '', /type: Invalid value: "": has invalid value: Info/);
  const { action: _a, reason: _r, reportingController: _c, reportingInstance: _i, ...bare } = event;
  const missing = await create({ ...bare, metadata: { name: 'e3' } });
  assert.equal(missing.code, 422);
  const causes = ((missing.body as Status).details?.causes ?? []).map((c) => c.field).sort();
  // An empty reporting controller is Required and, being no qualified name, Invalid twice (an empty name part, and
  // one the pattern does not match), as IsQualifiedName answers.
  assert.deepEqual(causes, ['action', 'reason', 'reportingController', 'reportingController', 'reportingController', 'reportingInstance']);
  const long = await create({ ...event, metadata: { name: 'e4' }, note: 'x'.repeat(1025) });
  // kube validates the internal object, where the note is the message.
  assert.match((long.body as Status).message ?? '', /message: Invalid value: "": can have at most 1024 characters/);
  const series = await create({ ...event, metadata: { name: 'e5' }, series: { count: 1 } });
  assert.equal(series.code, 422);
});
