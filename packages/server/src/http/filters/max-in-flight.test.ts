import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';
import { parseRequestInfo } from '../parse-request-info.js';
import { fakeContext, type FakeResponse } from '../../testing/fake-context.js';
import { maxInFlight } from './max-in-flight.js';

/** Lets the requests admitted in this turn of the event loop start. */
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

const user: UserInfo = { username: 'u', groups: ['system:authenticated'] };
const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

/** The Status a request was answered with, if any. */
const written = (response: FakeResponse): Status[] => (response.code === undefined ? [] : [response.body as Status]);

/** A request through the filter whose handler runs until `release` is called. */
function request(filter: ReturnType<typeof maxInFlight>['filter'], method: string, target: string, who: UserInfo = user) {
  const url = new URL(target, 'https://x');
  const parsed = parseRequestInfo(method, url.pathname, url.searchParams);
  assert.ok(parsed.ok);
  const { ctx, response } = fakeContext({ verb: parsed.value.verb, resource: parsed.value.resource, info: parsed.value, user: who });
  let release: () => void = () => {};
  let served = false;
  const done = filter(ctx, () => {
    served = true;
    return new Promise<void>((r) => (release = r));
  });
  return { get written() { return written(response); }, done, get served() { return served; }, release: () => release() };
}

test('max in flight: a full pool answers 429 TooManyRequests with Retry-After 1; a finished request frees its slot', async () => {
  const limiter = maxInFlight({ maxRequestsInFlight: 2, maxMutatingRequestsInFlight: 1 });
  const a = request(limiter.filter, 'GET', '/api/v1/namespaces/d/configmaps');
  const b = request(limiter.filter, 'GET', '/api/v1/namespaces/d/configmaps/x');
  const c = request(limiter.filter, 'GET', '/healthz');
  await nextTurn();
  assert.deepEqual([a.served, b.served, c.served], [true, true, false]);
  assert.deepEqual(c.written, [{
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Too many requests, please try again later.',
    reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429,
  }]);
  await c.done;
  // The mutating pool is separate: a create is served while reads are full, a second one is not.
  const create = request(limiter.filter, 'POST', '/api/v1/namespaces/d/configmaps');
  const patch = request(limiter.filter, 'PATCH', '/api/v1/namespaces/d/configmaps/x');
  await nextTurn();
  assert.equal(create.served, true);
  assert.equal(patch.written[0]?.code, 429);
  assert.deepEqual(limiter.inFlight(), { readOnly: 2, mutating: 1 });
  a.release();
  await a.done;
  const d = request(limiter.filter, 'GET', '/api/v1/namespaces/d/configmaps');
  await nextTurn();
  assert.equal(d.served, true, 'the released slot is taken again');
  for (const r of [b, d, create]) r.release();
  await Promise.all([b.done, d.done, create.done]);
  assert.deepEqual(limiter.inFlight(), { readOnly: 0, mutating: 0 });
});

test('max in flight: a handler that throws frees its slot', async () => {
  const limiter = maxInFlight({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 });
  const url = new URL('https://x/api/v1/namespaces');
  const parsed = parseRequestInfo('GET', url.pathname, url.searchParams);
  assert.ok(parsed.ok);
  const { ctx, response } = fakeContext({ verb: parsed.value.verb, resource: parsed.value.resource, info: parsed.value, user });
  await assert.rejects(limiter.filter(ctx, async () => {
    throw new Error('handler bug');
  }));
  assert.equal(response.code, undefined, 'no 429 expected');
  assert.deepEqual(limiter.inFlight(), { readOnly: 0, mutating: 0 });
});

test('max in flight: long-running requests are not counted; system:masters is served beyond the limit; 0 disables a pool', async () => {
  const limiter = maxInFlight({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 0 });
  const held = request(limiter.filter, 'GET', '/api/v1/pods');
  await nextTurn();
  const longRunning = [
    request(limiter.filter, 'GET', '/api/v1/pods?watch=1'),
    request(limiter.filter, 'GET', '/api/v1/watch/namespaces/d/pods/p'),
    request(limiter.filter, 'GET', '/api/v1/namespaces/d/pods/p/log'),
    request(limiter.filter, 'POST', '/api/v1/namespaces/d/pods/p/exec'),
    request(limiter.filter, 'GET', '/api/v1/namespaces/d/services/s/proxy/x'),
    request(limiter.filter, 'GET', '/debug/pprof/profile'),
  ];
  assert.deepEqual(longRunning.map((r) => r.served), [true, true, true, true, true, true]);
  assert.deepEqual(limiter.inFlight(), { readOnly: 1, mutating: 0 });
  const probe = request(limiter.filter, 'GET', '/livez', admin);
  assert.equal(probe.served, true, 'kube serves system:masters when the pool is full');
  assert.equal(request(limiter.filter, 'GET', '/livez').written[0]?.code, 429, 'others get 429, health checks too');
  const writes = Array.from({ length: 5 }, () => request(limiter.filter, 'DELETE', '/api/v1/namespaces/d/pods/p'));
  await nextTurn();
  assert.ok(writes.every((w) => w.served), 'a 0 limit never refuses');
  for (const r of [held, probe, ...longRunning, ...writes]) r.release();
});

test('max in flight: requests arriving in one turn of the event loop count together, even when each finishes at once', async () => {
  const limiter = maxInFlight({ maxRequestsInFlight: 3, maxMutatingRequestsInFlight: 3 });
  const url = new URL('https://x/api/v1/namespaces/d/configmaps');
  const parsed = parseRequestInfo('GET', url.pathname, url.searchParams);
  assert.ok(parsed.ok);
  let served = 0;
  // Ten requests read from ten connections in one poll phase; each handler would answer synchronously.
  const requests = Array.from({ length: 10 }, () => fakeContext({ verb: parsed.value.verb, resource: parsed.value.resource, info: parsed.value, user }));
  const burst = requests.map(({ ctx }) => limiter.filter(ctx, async () => {
    served++;
  }));
  await Promise.all(burst);
  const refused = requests.flatMap(({ response }) => written(response));
  assert.equal(served, 3);
  assert.equal(refused.length, 7);
  assert.ok(refused.every((s) => s.code === 429));
  assert.deepEqual(limiter.inFlight(), { readOnly: 0, mutating: 0 });
});
