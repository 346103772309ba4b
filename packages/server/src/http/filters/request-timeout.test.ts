import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '@svc-apiserver/api';
import { fakeContext } from '../../testing/fake-context.js';
import { requestTimeout } from './request-timeout.js';

/** Lets the turn of the event loop end, and the immediates queued in it run. */
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

const get = () => fakeContext({ verb: 'get', resource: 'configmaps', namespace: 'd', name: 'x' });

test('request timeout: a request answered within the turn it started in arms no deadline timer', async (t) => {
  // Under a flood most requests are refused at once: a timer made and cleared for each was pure cost.
  const timers = t.mock.method(globalThis, 'setTimeout');
  const filter = requestTimeout(60_000, () => {});
  const requests = Array.from({ length: 50 }, () => filter(get().ctx, async () => {}));
  await Promise.all(requests);
  await nextTurn();
  await nextTurn();
  assert.equal(timers.mock.callCount(), 0);
});

test('request timeout: a request still running after its turn expires at its deadline, counted from its start', async (t) => {
  const timers = t.mock.method(globalThis, 'setTimeout');
  const expired: number[] = [];
  const filter = requestTimeout(200, () => {}, (_ctx, code) => expired.push(code));
  const { ctx, response } = get();
  const done = filter(ctx, () => new Promise<void>(() => {}));
  // 50 ms of the deadline pass before the timer is armed (in the next turn): it is armed for what is left.
  const end = performance.now() + 50;
  while (performance.now() < end);
  await done;
  const delays = timers.mock.calls.map((c) => c.arguments[1] as number);
  assert.equal(delays.length, 1);
  assert.ok(delays[0]! <= 150, `armed for ${delays[0]} ms`);
  assert.deepEqual(expired, [504]);
  assert.equal(response.code, 504);
  assert.equal((response.body as Status).reason, 'Timeout');
});

test('request timeout: a request that finishes after its turn clears its timer and is not answered again', async () => {
  const expired: number[] = [];
  const filter = requestTimeout(60_000, () => {}, (_ctx, code) => expired.push(code));
  const { ctx } = get();
  let finish: () => void = () => {};
  const done = filter(ctx, () => new Promise<void>((r) => (finish = r)));
  await nextTurn();
  await nextTurn();
  finish();
  await done;
  assert.deepEqual(expired, []);
});
