import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { createMetricsRegistry } from '../../metrics/metrics-registry.js';
import { mandatoryConfiguration, suggestedConfiguration } from '../../flowcontrol/bootstrap-configuration.js';
import { createFlowController, type FlowController, type LevelState } from '../../flowcontrol/flow-controller.js';
import { flowcontrolMetrics } from '../../flowcontrol/flowcontrol-metrics.js';
import { fakeContext } from '../../testing/fake-context.js';
import { parseRequestInfo } from '../parse-request-info.js';
import { startWatch, writeStatus } from '../response-writer.js';
import { priorityAndFairness } from './priority-and-fairness.js';
import type { UserInfo } from '../../request/user-info.js';
import type { RequestContext } from '../context.js';

const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };
const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

function controller(serverConcurrencyLimit = 600): FlowController {
  const c = createFlowController({ serverConcurrencyLimit, waitLimitMs: 60_000, metrics: flowcontrolMetrics(createMetricsRegistry()) });
  const m = mandatoryConfiguration();
  const s = suggestedConfiguration(namesFor('svc'));
  c.configure([...m.flowSchemas, ...s.flowSchemas], [...m.priorityLevels, ...s.priorityLevels]);
  return c;
}

function context(method: string, uri: string, user: UserInfo = jane, signal?: AbortSignal) {
  const url = new URL(uri, 'https://server');
  const info = parseRequestInfo(method, url.pathname, url.searchParams);
  assert.ok(info.ok);
  const query = Object.fromEntries(url.searchParams);
  return fakeContext({ verb: info.value.verb, resource: info.value.resource, info: info.value, user, query, ...(signal === undefined ? {} : { signal }) });
}

const level = (c: FlowController, name: string): LevelState => c.levels().find((l) => l.name === name)!;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A handler the test steps through: it starts, then waits for `go` before each step. */
function stepped() {
  const steps: (() => void)[] = [];
  let started = false;
  return {
    next: (body: (step: () => Promise<void>) => Promise<void>) => async () => {
      started = true;
      await body(() => new Promise<void>((r) => steps.push(r)));
    },
    get started() {
      return started;
    },
    go() {
      steps.shift()?.();
    },
  };
}

const createsIn = (c: FlowController, namespace: string): number => {
  const info = parseRequestInfo('POST', `/api/v1/namespaces/${namespace}/configmaps`, new URLSearchParams());
  assert.ok(info.ok);
  return c.watches.interestedWatchCount(info.value);
};

test('priority and fairness: a watch holds its seat until it is initialized, and counts among the watches while it lives', async () => {
  const c = controller();
  const filter = priorityAndFairness(c);
  const { ctx, response } = context('GET', '/api/v1/namespaces/ns/configmaps?watch=1');
  const handler = stepped();
  const served = filter(ctx, handler.next(async (step) => {
    await step();
    const stream = startWatch(ctx);
    await step();
    stream.end();
  }));
  while (!handler.started) await turn();
  assert.equal(level(c, 'global-default').seatsInUse, 1, 'the seat is held while the watch is made');
  assert.equal(level(c, 'global-default').executing, 1);
  assert.equal(createsIn(c, 'ns'), 1);
  handler.go();
  await turn();
  assert.equal(response.code, 200);
  assert.equal(level(c, 'global-default').seatsInUse, 0, 'initialized: the seat is given back');
  assert.equal(createsIn(c, 'ns'), 1, 'the watch lives on, counted');
  assert.equal(createsIn(c, 'other'), 0);
  handler.go();
  await served;
  assert.equal(createsIn(c, 'ns'), 0, 'forgotten when it ends');
  assert.ok(response.headers?.['X-Kubernetes-PF-FlowSchema-UID'] !== undefined);
});

test('priority and fairness: a watch that fails, or whose handler ends without answering, gives its seat back', async () => {
  const c = controller();
  const filter = priorityAndFairness(c);
  // Answered with an error (a bad resourceVersion): the response starts, the seat goes.
  const failing = context('GET', '/api/v1/namespaces/ns/configmaps?watch=1&resourceVersion=x');
  await filter(failing.ctx, async () => writeStatus(failing.ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 400, reason: 'BadRequest', message: 'bad' }));
  assert.equal(failing.response.code, 400);
  assert.equal(level(c, 'global-default').seatsInUse, 0);
  assert.equal(createsIn(c, 'ns'), 0);
  // The handler throws before answering.
  const throwing = context('GET', '/api/v1/namespaces/ns/configmaps?watch=1');
  await assert.rejects(filter(throwing.ctx, async () => {
    throw new Error('boom');
  }), /boom/);
  assert.equal(level(c, 'global-default').seatsInUse, 0);
  assert.equal(level(c, 'global-default').executing, 0);
  assert.equal(createsIn(c, 'ns'), 0);
  // The client leaves while the watch is being made: the handler ends without a response.
  const leaving = new AbortController();
  const abandoned = context('GET', '/api/v1/namespaces/ns/configmaps?watch=1', jane, leaving.signal);
  const handler = stepped();
  const served = filter(abandoned.ctx, handler.next(async (step) => step()));
  while (!handler.started) await turn();
  assert.equal(level(c, 'global-default').seatsInUse, 1);
  leaving.abort();
  handler.go();
  await served;
  assert.equal(abandoned.response.code, undefined);
  assert.equal(level(c, 'global-default').seatsInUse, 0);
  assert.equal(createsIn(c, 'ns'), 0);
});

test('priority and fairness: watches of exempt users are counted too; exec and other long-running requests pass untouched', async () => {
  const c = controller();
  const filter = priorityAndFairness(c);
  const watch = context('GET', '/api/v1/configmaps?watch=1', admin);
  const handler = stepped();
  const served = filter(watch.ctx, handler.next(async (step) => {
    startWatch(watch.ctx);
    await step();
  }));
  while (!handler.started) await turn();
  assert.equal(createsIn(c, 'any'), 1, 'a watch of every namespace');
  handler.go();
  await served;
  const exec = context('POST', '/api/v1/namespaces/ns/pods/p/exec');
  let ran = false;
  await filter(exec.ctx, async () => {
    ran = true;
  });
  assert.ok(ran);
  assert.equal(exec.ctx.record.responseHeaders['X-Kubernetes-PF-FlowSchema-UID'], undefined, 'not classified');
});

test('priority and fairness: a list occupies the seats its estimate gives, a write the final seats of its watchers', async () => {
  const c = controller();
  const filter = priorityAndFairness(c);
  c.objectCounts.set('configmaps', 450);
  const seen: number[] = [];
  const during = (ctx: RequestContext) => async (): Promise<void> => {
    seen.push(level(c, 'global-default').seatsInUse);
    ctx.transport.end();
  };
  const list = context('GET', '/api/v1/namespaces/ns/configmaps');
  await filter(list.ctx, during(list.ctx));
  const cached = context('GET', '/api/v1/namespaces/ns/configmaps?resourceVersion=0');
  await filter(cached.ctx, during(cached.ctx));
  const invalid = context('GET', '/api/v1/namespaces/ns/configmaps?limit=x');
  await filter(invalid.ctx, during(invalid.ctx));
  assert.deepEqual(seen, [8, 5, 8], '900 objects from storage: 9 seats, capped at the level\'s 8; 450 from the cache: 5; bad options: the cap');
  // 25 watches of the namespace: a create keeps 3 seats for 5 ms after it finished.
  const watches = Array.from({ length: 25 }, () => {
    const { ctx } = context('GET', '/api/v1/namespaces/ns/configmaps?watch=1');
    return c.watches.register(ctx.info, ctx.query);
  });
  const create = context('POST', '/api/v1/namespaces/ns/configmaps');
  await filter(create.ctx, during(create.ctx));
  assert.equal(seen[3], 3);
  assert.equal(level(c, 'global-default').seatsInUse, 3, 'held after the write');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(level(c, 'global-default').seatsInUse, 0);
  for (const forget of watches) forget();
});
