import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RateLimiter } from './rate-limiter.js';
import { createWorkQueue } from './work-queue.js';

/** Whether `promise` has settled after the pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await sleep(0);
  return done;
}

/** A limiter answering fixed delays and recording what it was asked. */
function scriptedLimiter(delays: number[]): RateLimiter & { asked: string[]; forgotten: string[] } {
  const asked: string[] = [];
  const forgotten: string[] = [];
  return {
    asked,
    forgotten,
    when: (key) => (asked.push(key), delays.shift() ?? 0),
    forget: (key) => void forgotten.push(key),
    numRequeues: (key) => asked.filter((k) => k === key).length,
  };
}

test('keys are deduplicated while queued and handed out in order', async () => {
  const q = createWorkQueue();
  q.add('a');
  q.add('b');
  q.add('a');
  q.add('c');
  q.add('b');
  assert.equal(q.len(), 3);
  assert.deepEqual([await q.get(), await q.get(), await q.get()], ['a', 'b', 'c']);
  assert.equal(q.len(), 0);
  for (const k of ['a', 'b', 'c']) q.done(k);
  assert.ok(q.isIdle());
});

test('one worker per key: a key added while processed waits for done, then comes once more', async () => {
  const q = createWorkQueue();
  q.add('a');
  const first = await q.get();
  assert.equal(first, 'a');
  q.add('a');
  q.add('a');
  assert.equal(q.len(), 0, 'not queued while being processed');
  q.add('b');
  // A second worker gets b, never a second copy of a.
  assert.equal(await q.get(), 'b');
  const third = q.get();
  assert.equal(await settled(third), false, 'nothing else is ready');
  q.done('a');
  assert.equal(await third, 'a', 'a is queued again once its first processing is done');
  q.done('a');
  q.done('b');
  assert.equal(q.len(), 0);
  assert.ok(q.isIdle());
});

test('a waiting worker is handed a key as soon as it is added', async () => {
  const q = createWorkQueue();
  const waiting = q.get();
  assert.equal(await settled(waiting), false);
  q.add('x');
  assert.equal(await waiting, 'x');
  assert.equal(q.isIdle(), false, 'x is being processed');
  q.done('x');
  assert.ok(q.isIdle());
});

test('addRateLimited waits as the limiter says; forget resets the key', async () => {
  const limiter = scriptedLimiter([40, 0]);
  const q = createWorkQueue({ rateLimiter: limiter });
  const started = Date.now();
  q.addRateLimited('a');
  assert.equal(q.len(), 0);
  assert.equal(q.isIdle(), false, 'a delayed key keeps the queue busy');
  assert.equal(await q.get(), 'a');
  assert.ok(Date.now() - started >= 35, `waited ${Date.now() - started}ms`);
  q.addRateLimited('a');
  q.done('a');
  assert.equal(await q.get(), 'a', 'a zero delay queues at once');
  assert.equal(q.numRequeues('a'), 2);
  q.forget('a');
  q.done('a');
  assert.deepEqual(limiter.asked, ['a', 'a']);
  assert.deepEqual(limiter.forgotten, ['a']);
});

test('addAfter: a key is queued after its delay; the earliest pending delay wins; a later add does not wait', async () => {
  const q = createWorkQueue();
  const started = Date.now();
  q.addAfter('slow', 10_000);
  q.addAfter('slow', 30);
  q.addAfter('slow', 5_000);
  assert.equal(await q.get(), 'slow');
  const waited = Date.now() - started;
  assert.ok(waited >= 25 && waited < 2_000, `waited ${waited}ms`);
  q.done('slow');
  assert.ok(q.isIdle(), 'the longer delays were dropped');

  q.addAfter('now', 0);
  assert.equal(q.len(), 1, 'no delay: queued at once');
  assert.equal(await q.get(), 'now');
  q.done('now');

  q.addAfter('both', 10_000);
  q.add('both');
  assert.equal(q.len(), 1, 'add does not wait for a pending delay');
  await q.shutDown();
});

test('shutdown drains: it waits for the keys being processed and drops queued and delayed ones', async () => {
  const q = createWorkQueue();
  q.add('running');
  assert.equal(await q.get(), 'running');
  q.add('queued');
  q.addAfter('delayed', 10_000);
  const drained = q.shutDown();
  assert.ok(q.isShuttingDown());
  assert.equal(await settled(drained), false, 'running is still being processed');
  assert.equal(await q.get(), undefined, 'workers are told to end');
  q.add('late');
  assert.equal(q.len(), 0, 'adds are ignored once shut down');
  q.done('running');
  await drained;
  assert.ok(q.isIdle(), 'queued and delayed keys are gone with their timers');
});

test('shutdown ends workers waiting for a key, and an idle queue shuts down at once', async () => {
  const q = createWorkQueue();
  const waiting = [q.get(), q.get()];
  await q.shutDown();
  assert.deepEqual(await Promise.all(waiting), [undefined, undefined]);
});

test('idle resolves once nothing is queued, processed or delayed', async () => {
  const q = createWorkQueue({ rateLimiter: scriptedLimiter([20]) });
  await q.idle();
  q.add('a');
  const idle = q.idle();
  assert.equal(await settled(idle), false, 'a is queued');
  assert.equal(await q.get(), 'a');
  q.addRateLimited('a');
  q.done('a');
  assert.equal(await settled(idle), false, 'a waits for its retry');
  assert.equal(await q.get(), 'a');
  assert.equal(await settled(idle), false, 'a is being processed');
  q.done('a');
  await idle;
});

test('idle resolves when the queue shuts down', async () => {
  const q = createWorkQueue();
  q.add('a');
  const idle = q.idle();
  void q.shutDown();
  await idle;
});
