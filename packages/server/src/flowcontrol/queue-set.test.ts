import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createQueueSet, type Admission } from './queue-set.js';
import { dealHand, flowHash } from './shuffle-sharding.js';

test('shuffle sharding: hands of distinct queues, stable per flow, spread over the deck', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const hand = dealHand(flowHash('global-default', `user-${i}`), 128, 6);
    assert.equal(hand.length, 6);
    assert.equal(new Set(hand).size, 6, 'distinct queues');
    assert.ok(hand.every((q) => q >= 0 && q < 128));
    seen.add(hand.join(','));
  }
  assert.equal(seen.size, 200, 'different flows get different hands');
  assert.deepEqual(dealHand(flowHash('fs', 'alice'), 64, 8), dealHand(flowHash('fs', 'alice'), 64, 8));
  assert.notDeepEqual(dealHand(flowHash('fs', 'alice'), 64, 8), dealHand(flowHash('other', 'alice'), 64, 8));
});

const executes = (a: Admission): a is Extract<Admission, { kind: 'execute' }> => a.kind === 'execute';

test('queue set: seats, then queues up to their length limit, then queue-full', async () => {
  const qs = createQueueSet({ concurrencyLimit: 2, queues: 4, handSize: 1, queueLengthLimit: 3, waitLimitMs: 60_000 });
  const h = flowHash('fs', 'heavy');
  const running = [qs.admit(h), qs.admit(h)] as Admission[];
  assert.ok(running.every(executes));
  const queued = [qs.admit(h), qs.admit(h), qs.admit(h)];
  assert.ok(queued.every((q) => q instanceof Promise));
  assert.deepEqual(qs.admit(h), { kind: 'reject', reason: 'queue-full', waitedMs: 0 });
  assert.equal(qs.waiting, 3);
  for (const r of running) if (executes(r)) r.release();
  const [a, b] = await Promise.all([queued[0]!, queued[1]!]);
  assert.ok(executes(a!) && executes(b!) && a.queued);
  assert.equal(qs.executing, 2);
  assert.equal(qs.waiting, 1);
});

test('queue set: fair dispatch serves a light flow before the rest of a heavy flow\'s backlog', async () => {
  const qs = createQueueSet({ concurrencyLimit: 1, queues: 64, handSize: 1, queueLengthLimit: 100, waitLimitMs: 60_000 });
  assert.notDeepEqual(dealHand(flowHash('fs', 'heavy'), 64, 1), dealHand(flowHash('fs', 'light'), 64, 1), 'the flows have queues of their own');
  const order: string[] = [];
  const holders: Admission[] = [];
  const enqueue = (flow: string, label: string): void => {
    void Promise.resolve(qs.admit(flowHash('fs', flow))).then((a) => {
      order.push(label);
      holders.push(a);
    });
  };
  const seat = qs.admit(flowHash('fs', 'heavy')) as Admission;
  for (let i = 0; i < 10; i++) enqueue('heavy', `heavy-${i}`);
  enqueue('light', 'light');
  assert.equal(qs.waiting, 11);
  // One seat: each release lets exactly the next request in.
  let holder = seat;
  for (let i = 0; i < 11; i++) {
    if (executes(holder)) holder.release();
    while (order.length < i + 1) await new Promise((r) => setImmediate(r));
    holder = holders[i]!;
  }
  assert.ok(order.indexOf('light') <= 1, `the light flow went ${order.indexOf('light') + 1}th: ${order.join(' ')}`);
  assert.deepEqual(order.filter((o) => o !== 'light'), Array.from({ length: 10 }, (_, i) => `heavy-${i}`), 'a flow is served in its order');
});

test('queue set: a request that waits too long, or whose client goes away, leaves its queue', async () => {
  const qs = createQueueSet({ concurrencyLimit: 1, queues: 8, handSize: 2, queueLengthLimit: 10, waitLimitMs: 30 });
  const seat = qs.admit(flowHash('fs', 'a'));
  assert.ok(executes(seat as Admission));
  const timedOut = await qs.admit(flowHash('fs', 'b'));
  assert.equal(timedOut.kind === 'reject' && timedOut.reason, 'time-out');
  assert.ok(timedOut.waitedMs >= 25);
  const controller = new AbortController();
  const cancelled = qs.admit(flowHash('fs', 'c'), () => controller.signal);
  controller.abort();
  const got = await cancelled;
  assert.equal(got.kind === 'reject' && got.reason, 'cancelled');
  assert.equal(qs.waiting, 0);
});
