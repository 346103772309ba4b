import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status, WatchEvent } from '@svc-apiserver/api';
import { inProcessDelivery } from './in-process-delivery.js';

const event = (n: number): WatchEvent => ({ type: 'MODIFIED', object: { metadata: { resourceVersion: String(n) } } });

function recorder() {
  const seen: string[] = [];
  return {
    seen,
    sink: {
      event: (e: WatchEvent) => void seen.push(`event ${String((e.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion)}`),
      error: (s: Status) => void seen.push(`error ${s.code}`),
      end: () => void seen.push('end'),
    },
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('in-process delivery: small events at once; a large one waits for a turn of its own and nothing overtakes it', async () => {
  const { seen, sink } = recorder();
  const d = inProcessDelivery(sink);
  d.event(() => event(1));
  assert.deepEqual(seen, ['event 1'], 'delivered at once');
  d.event(() => event(2), true);
  d.event(() => event(3));
  d.error({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'gone', reason: 'Expired', code: 410 });
  assert.deepEqual(seen, ['event 1'], 'the large event and everything after it wait');
  for (let i = 0; i < 10 && seen.length < 4; i++) await turn();
  assert.deepEqual(seen, ['event 1', 'event 2', 'event 3', 'error 410']);
});

test('in-process delivery: events arriving while earlier ones wait are delivered after them, in order; cancel drops the rest', async () => {
  const { seen, sink } = recorder();
  const d = inProcessDelivery(sink);
  d.event(() => event(1), true);
  await Promise.resolve();
  d.event(() => event(2));
  d.event(() => event(3), true);
  let sent = false;
  for (let i = 0; i < 10 && seen.length < 3; i++) {
    await turn();
    if (!sent && seen.length > 0 && seen.length < 3) {
      d.event(() => event(4));
      sent = true;
    }
  }
  assert.ok(sent, 'event 4 came while others waited');
  for (let i = 0; i < 10 && seen.length < 4; i++) await turn();
  assert.deepEqual(seen, ['event 1', 'event 2', 'event 3', 'event 4']);
  d.event(() => event(5), true);
  d.cancel();
  d.end();
  for (let i = 0; i < 5; i++) await turn();
  assert.deepEqual(seen, ['event 1', 'event 2', 'event 3', 'event 4'], 'nothing after cancel');
});

test('in-process delivery: a large event built across turns keeps its place; other work runs meanwhile; cancel drops it', async () => {
  const { seen, sink } = recorder();
  const d = inProcessDelivery(sink);
  let otherWork = 0;
  const build = async (n: number): Promise<WatchEvent> => {
    // Decoding in slices: several turns pass, and other work gets them.
    for (let i = 0; i < 3; i++) await turn();
    return event(n);
  };
  const tick = (): void => {
    otherWork++;
    if (seen.length < 3) setImmediate(tick);
  };
  setImmediate(tick);
  d.event(() => build(1), true);
  d.event(() => event(2));
  d.end();
  for (let i = 0; i < 20 && seen.length < 3; i++) await turn();
  assert.deepEqual(seen, ['event 1', 'event 2', 'end']);
  assert.ok(otherWork >= 3, `${otherWork} turns of other work while the large event was built`);
  const later = recorder();
  const cancelled = inProcessDelivery(later.sink);
  cancelled.event(() => build(3), true);
  await turn();
  await turn();
  cancelled.cancel();
  for (let i = 0; i < 10; i++) await turn();
  assert.deepEqual(later.seen, [], 'an event built after cancel is not delivered');
});
