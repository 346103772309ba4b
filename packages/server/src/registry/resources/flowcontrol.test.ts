import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';

const group = 'flowcontrol.apiserver.svc.io';

test('FlowSchema (v1beta3): matchingPrecedence defaults to 1000; priority level and subjects validated', async () => {
  const { call } = await testRegistry([]);
  const create = (name: string, spec: unknown) => call({ verb: 'create', group, version: 'v1beta3', resource: 'flowschemas', body: { metadata: { name }, spec } });
  const ok = await create('fs', { priorityLevelConfiguration: { name: 'pl' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] });
  assert.equal(ok.code, 201, JSON.stringify(ok.body));
  assert.equal((ok.body as { spec: { matchingPrecedence: number } }).spec.matchingPrecedence, 1000);
  assert.equal((await create('nolevel', {})).code, 422);
  const precedence = await create('prec', { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: 20000 });
  assert.match((precedence.body as Status).message ?? '', /spec.matchingPrecedence: Invalid value: 20000: must not be greater than 10000/);
  const subject = await create('subj', { priorityLevelConfiguration: { name: 'pl' }, rules: [{ subjects: [{ kind: 'User' }] }] });
  assert.match((subject.body as Status).message ?? '', /spec.rules\[0\].subjects\[0\].user: Required value/);
});

test('PriorityLevelConfiguration (v1beta3): limited defaults and type checks; v1beta2 defaults its own field', async () => {
  const { call } = await testRegistry([]);
  const create = (version: string, name: string, spec: unknown) => call({ verb: 'create', group, version, resource: 'prioritylevelconfigurations', body: { metadata: { name }, spec } });
  const ok = await create('v1beta3', 'pl', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } });
  assert.equal(ok.code, 201, JSON.stringify(ok.body));
  const limited = (ok.body as { spec: { limited: Record<string, any> } }).spec.limited;
  assert.equal(limited['nominalConcurrencyShares'], 30);
  assert.equal(limited['lendablePercent'], 0);
  assert.deepEqual(limited['limitResponse']['queuing'], { queues: 64, handSize: 8, queueLengthLimit: 50 });
  assert.equal((await create('v1beta3', 'none', { type: 'Limited' })).code, 422);
  const exempt = await create('v1beta3', 'notexempt', { type: 'Exempt' });
  assert.match((exempt.body as Status).message ?? '', /type must be 'Exempt' if and only if name is 'exempt'/);
  const hand = await create('v1beta3', 'hand', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 3, queueLengthLimit: 5 } } } });
  assert.match((hand.body as Status).message ?? '', /should not be greater than queues \(2\)/);
  const old = await create('v1beta2', 'old', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } });
  assert.equal(old.code, 201, JSON.stringify(old.body));
  assert.equal((old.body as { spec: { limited: Record<string, unknown> } }).spec.limited['assuredConcurrencyShares'], 30);
});
