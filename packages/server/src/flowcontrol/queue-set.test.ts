import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createQueueSet, type Admission } from './queue-set.js';
import { createDealer, dealHand, flowHash } from './shuffle-sharding.js';
import { manualClock } from '../testing/manual-clock.js';
import type { WorkEstimate } from './work-estimate.js';

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

/** FNV-1a 64 as its definition states it, over BigInt: what the limb arithmetic of flowHash must equal. */
function fnv1a64(bytes: Iterable<number>): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

test('shuffle sharding: the flow hash is 64-bit FNV-1a of the parts, each followed by a zero byte; dealers remember hands', () => {
  assert.equal(flowHash(), 0xcbf29ce484222325n);
  // The published FNV-1a 64 value of "a" is 0xaf63dc4c8601ec8c; the zero byte follows it here.
  assert.equal(fnv1a64(Buffer.from('a')), 0xaf63dc4c8601ec8cn);
  assert.equal(flowHash('a'), fnv1a64([...Buffer.from('a'), 0]));
  for (const parts of [['global-default', 'system:serviceaccount:kube-system:default'], ['fs', ''], ['ψ', 'ü€😀'], ['x'.repeat(300), 'y']]) {
    assert.equal(flowHash(...parts), fnv1a64(parts.flatMap((p) => [...Buffer.from(p, 'utf8'), 0])), parts.join('|'));
  }
  for (let i = 0; i < 500; i++) {
    const parts = [`fs-${i}`, String.fromCharCode(...Array.from({ length: i % 40 }, (_, k) => 32 + ((i * 31 + k * 17) % 2000)))];
    assert.equal(flowHash(...parts), fnv1a64(parts.flatMap((p) => [...Buffer.from(p, 'utf8'), 0])));
  }
  const deal = createDealer(128, 6, 2);
  const hashes = ['a', 'b', 'c', 'a'].map((u) => flowHash('fs', u));
  for (const h of hashes) assert.deepEqual(deal(h), dealHand(h, 128, 6), 'the same hands as dealt afresh, past the limit too');
});

type Execution = Extract<Admission, { kind: 'execute' }>;
const executes = (a: Admission | Promise<Admission>): a is Execution => !(a instanceof Promise) && a.kind === 'execute';
const work = (initialSeats: number, finalSeats = 0, additionalLatencyMs = 0): WorkEstimate => ({ initialSeats, finalSeats, additionalLatencyMs });

test('queue set: seats, then queues up to their length limit, then queue-full', async () => {
  const qs = createQueueSet({ concurrencyLimit: 2, queues: 4, handSize: 1, queueLengthLimit: 3, waitLimitMs: 60_000 });
  const h = { flowHash: flowHash('fs', 'heavy') };
  const running = [qs.admit(h), qs.admit(h)];
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
    void Promise.resolve(qs.admit({ flowHash: flowHash('fs', flow) })).then((a) => {
      order.push(label);
      holders.push(a);
    });
  };
  const seat = qs.admit({ flowHash: flowHash('fs', 'heavy') }) as Admission;
  for (let i = 0; i < 10; i++) enqueue('heavy', `heavy-${i}`);
  enqueue('light', 'light');
  assert.equal(qs.waiting, 11);
  // One seat: each release lets exactly the next request in.
  let holder = seat;
  for (let i = 0; i < 11; i++) {
    if (holder.kind === 'execute') holder.release();
    while (order.length < i + 1) await new Promise((r) => setImmediate(r));
    holder = holders[i]!;
  }
  assert.ok(order.indexOf('light') <= 1, `the light flow went ${order.indexOf('light') + 1}th: ${order.join(' ')}`);
  assert.deepEqual(order.filter((o) => o !== 'light'), Array.from({ length: 10 }, (_, i) => `heavy-${i}`), 'a flow is served in its order');
});

test('queue set: a request that waits too long, or whose client goes away, leaves its queue', async () => {
  const qs = createQueueSet({ concurrencyLimit: 1, queues: 8, handSize: 2, queueLengthLimit: 10, waitLimitMs: 30 });
  const seat = qs.admit({ flowHash: flowHash('fs', 'a') });
  assert.ok(executes(seat));
  const timedOut = await qs.admit({ flowHash: flowHash('fs', 'b') });
  assert.equal(timedOut.kind === 'reject' && timedOut.reason, 'time-out');
  assert.ok(timedOut.waitedMs >= 25);
  const controller = new AbortController();
  const cancelled = qs.admit({ flowHash: flowHash('fs', 'c'), signal: () => controller.signal });
  controller.abort();
  const got = await cancelled;
  assert.equal(got.kind === 'reject' && got.reason, 'cancelled');
  assert.equal(qs.waiting, 0);
});

test('queue set: a request occupies the seats of its estimate; one wider than the limit runs alone', async () => {
  const clock = manualClock();
  const qs = createQueueSet({ concurrencyLimit: 10, queues: 16, handSize: 4, queueLengthLimit: 50, waitLimitMs: 60_000 }, clock);
  const f = flowHash('fs', 'lister');
  const four = qs.admit({ flowHash: f, estimate: work(4) });
  assert.ok(executes(four) && four.seats === 4);
  const seven = qs.admit({ flowHash: f, estimate: work(7) });
  assert.ok(seven instanceof Promise, '4 + 7 seats do not fit in 10');
  let noAccommodation = 0;
  const one = qs.admit({ flowHash: flowHash('fs', 'getter'), estimate: work(1), notAccommodated: () => noAccommodation++ });
  assert.ok(executes(one), 'a narrow request of another flow fits beside');
  assert.equal(qs.seatsInUse, 5);
  four.release();
  const sevenGot = await seven;
  assert.ok(sevenGot.kind === 'execute' && sevenGot.seats === 7 && sevenGot.queued);
  assert.equal(qs.seatsInUse, 8);
  // Twelve seats of ten: it waits until nothing executes, then runs alone over the limit.
  const wide = qs.admit({ flowHash: f, estimate: work(12), notAccommodated: () => noAccommodation++ });
  assert.ok(wide instanceof Promise);
  assert.ok(noAccommodation >= 1, 'dispatching stopped at the wide request');
  sevenGot.release();
  assert.equal(qs.waiting, 1, 'still one executing');
  one.release();
  const wideGot = await wide;
  assert.ok(wideGot.kind === 'execute' && wideGot.seats === 12);
  assert.equal(qs.seatsInUse, 12);
  const after = qs.admit({ flowHash: flowHash('fs', 'getter') });
  assert.ok(after instanceof Promise, 'nothing else runs beside it');
  wideGot.release();
  assert.ok(executes(await after));
});

test('queue set: final seats stay taken for their additional latency after the request finished', async () => {
  const clock = manualClock();
  const qs = createQueueSet({ concurrencyLimit: 3, queues: 8, handSize: 2, queueLengthLimit: 50, waitLimitMs: 60_000 }, clock);
  let freed = 0;
  const write = qs.admit({ flowHash: flowHash('fs', 'writer'), estimate: work(1, 3, 5), seatsFreed: () => freed++ });
  assert.ok(executes(write) && write.seats === 3, 'the most seats of its phases');
  const read = qs.admit({ flowHash: flowHash('fs', 'reader') });
  assert.ok(read instanceof Promise);
  clock.advance(2);
  write.release();
  assert.equal(qs.executing, 0);
  assert.equal(qs.seatsInUse, 3, 'the final seats are still held');
  assert.equal(qs.waiting, 1);
  clock.advance(4);
  assert.equal(freed, 0);
  clock.advance(1);
  assert.equal(freed, 1, 'freed 5 ms after the end');
  const readGot = await read;
  assert.ok(readGot.kind === 'execute');
  assert.equal(qs.seatsInUse, 1);
  // Final seats beyond the whole limit are narrowed to it, their time stretched: 12 seats × 5 ms = 3 seats × 20 ms.
  readGot.release();
  const wideWrite = qs.admit({ flowHash: flowHash('fs', 'writer'), estimate: work(1, 12, 5) });
  assert.ok(executes(wideWrite) && wideWrite.seats === 3);
  const waiting = qs.admit({ flowHash: flowHash('fs', 'reader') });
  assert.ok(waiting instanceof Promise);
  wideWrite.release();
  clock.advance(19);
  assert.equal(qs.seatsInUse, 3, 'held 20 ms');
  clock.advance(1);
  assert.ok(executes(await waiting));
});

test('queue set: a Reject level runs what fits and refuses the rest at once', () => {
  const qs = createQueueSet({ concurrencyLimit: 2, queues: 0, handSize: 8, queueLengthLimit: 50, waitLimitMs: 60_000 });
  const f = { flowHash: flowHash('catch-all', 'x') };
  const [a, b] = [qs.admit(f), qs.admit(f)];
  assert.ok(executes(a) && executes(b));
  assert.deepEqual(qs.admit(f), { kind: 'reject', reason: 'concurrency-limit', waitedMs: 0 });
  a.release();
  assert.ok(executes(qs.admit(f)));
});

test('queue set: the seats occupied or waited for are integrated into the seat demand', async () => {
  const clock = manualClock();
  const qs = createQueueSet({ concurrencyLimit: 2, queues: 8, handSize: 2, queueLengthLimit: 50, waitLimitMs: 60_000 }, clock);
  qs.seatDemand.reset();
  const f = { flowHash: flowHash('fs', 'u') };
  const held = [qs.admit(f), qs.admit(f)];
  const queued = [qs.admit(f), qs.admit(f)];
  clock.advance(1000);
  for (const h of held) if (executes(h)) h.release();
  for (const q of await Promise.all(queued)) if (q.kind === 'execute') q.release();
  clock.advance(1000);
  const period = qs.seatDemand.reset();
  assert.equal(period.durationMs, 2000);
  assert.equal(period.max, 4, '2 executing + 2 waiting');
  assert.equal(period.average, 2, '4 seats for 1 s, none for 1 s');
  assert.equal(period.deviation, 2);
  // Raising the limit lets the waiting in at once.
  const more = [qs.admit(f), qs.admit(f), qs.admit(f)];
  assert.ok(more[2] instanceof Promise);
  qs.configure({ ...qs.config, concurrencyLimit: 3 });
  assert.ok(executes(await more[2]!));
});
