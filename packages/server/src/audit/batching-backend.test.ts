import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditEvent } from './event.js';
import { auditMetrics } from './audit-metrics.js';
import { batchingBackend } from './batching-backend.js';
import { legacyEventLine } from './log-backend.js';
import { testEvent } from '../testing/audit-events.js';

test('batching backend: batches of at most maxBatchSize, all flushed at shutdown, in order', async () => {
  const batches: string[][] = [];
  const backend = batchingBackend('t-order', async (events) => {
    batches.push(events.map((e) => e.auditID));
    await new Promise((r) => setTimeout(r, 5));
    return undefined;
  }, { bufferSize: 100, maxBatchSize: 4, maxBatchWaitMs: 60_000 }, () => {});
  for (let i = 0; i < 10; i++) backend.processEvents([testEvent(i)]);
  await backend.shutdown();
  assert.deepEqual(batches.flat(), Array.from({ length: 10 }, (_, i) => `id-${i}`));
  assert.ok(batches.every((b) => b.length <= 4), JSON.stringify(batches));
});

test('batching backend: a full buffer drops events, never waits, and counts and logs what it dropped', async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const sent: AuditEvent[] = [];
  const logs: string[] = [];
  const errorsBefore = await auditMetrics().errors.value({ plugin: 't-full' });
  const backend = batchingBackend('t-full', async (events) => {
    await gate;
    sent.push(...events);
    return undefined;
  }, { bufferSize: 5, maxBatchSize: 1, maxBatchWaitMs: 0 }, (m) => logs.push(m));
  // Taking events is synchronous: with the sink held, the overflow is counted and the caller goes on at once.
  for (let i = 0; i < 20; i++) assert.equal(backend.processEvents([testEvent(i)]), undefined, 'nothing to wait on');
  const droppedAtOnce = (await auditMetrics().errors.value({ plugin: 't-full' })) - errorsBefore;
  assert.equal(sent.length, 0, 'the sink is still held');
  assert.ok(droppedAtOnce >= 14, `dropped while the sink was held: ${droppedAtOnce}`);
  await new Promise((r) => setTimeout(r, 10));
  release();
  await backend.shutdown();
  const dropped = (await auditMetrics().errors.value({ plugin: 't-full' })) - errorsBefore;
  assert.equal(sent.length + dropped, 20, 'every event is either written or counted');
  assert.ok(dropped >= 14, `dropped ${dropped}`);
  assert.match(logs[0] ?? '', /audit t-full backend dropped \d+ event\(s\): the buffer of 5 events is full/);
});

test('batching backend: a failed write is counted and logged, and later batches still go', async () => {
  const logs: string[] = [];
  let calls = 0;
  const errorsBefore = await auditMetrics().errors.value({ plugin: 't-fail' });
  const backend = batchingBackend('t-fail', async () => (++calls === 1 ? 'disk full' : undefined), { bufferSize: 10, maxBatchSize: 2, maxBatchWaitMs: 0 }, (m) => logs.push(m));
  backend.processEvents([testEvent(1), testEvent(2)]);
  await new Promise((r) => setTimeout(r, 10));
  backend.processEvents([testEvent(3)]);
  await backend.shutdown();
  assert.equal(calls, 2);
  assert.equal((await auditMetrics().errors.value({ plugin: 't-fail' })) - errorsBefore, 2);
  assert.match(logs.join('\n'), /dropped 2 event\(s\): disk full/);
});

test('legacy log line: kube\'s one-line form', () => {
  const line = legacyEventLine({ ...testEvent(7), impersonatedUser: { username: 'bob', groups: ['g1', 'g2'] } });
  assert.equal(line, '2024-05-01T10:00:00.000000Z AUDIT: id="id-7" stage="ResponseComplete" ip="127.0.0.1" method="get" user="alice" '
    + 'groups="\\"system:authenticated\\"" as="bob" asgroups="\\"g1\\",\\"g2\\"" user-agent="test" namespace=ns '
    + 'uri="/api/v1/namespaces/ns/configmaps/c7" response="200"');
});
