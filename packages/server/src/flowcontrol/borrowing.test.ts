import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';
import type { FlowSchema, PriorityLevelConfiguration } from './configuration-objects.js';
import { createFlowController, type FlowController, type LevelState } from './flow-controller.js';
import { flowcontrolMetrics } from './flowcontrol-metrics.js';
import type { Admission } from './queue-set.js';
import { manualClock, type ManualClock } from '../testing/manual-clock.js';
import { nextSeatDemandStats, noSeatDemand } from './seat-demand.js';
import { userAndInfo } from '../testing/request-attributes.js';

function level(name: string, shares: number, lendablePercent: number, borrowingLimitPercent?: number): PriorityLevelConfiguration {
  return {
    metadata: { name, uid: `uid-${name}` },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares, lendablePercent, ...(borrowingLimitPercent === undefined ? {} : { borrowingLimitPercent }),
        limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 4, queueLengthLimit: 1000 } },
      },
    },
  };
}

function schemaFor(user: string, pl: string): FlowSchema {
  return {
    metadata: { name: user },
    spec: {
      priorityLevelConfiguration: { name: pl }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'User', user: { name: user } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }],
    },
  };
}

/** Admits `n` one-seat requests of `user`; the ones executing and the ones waiting. */
function flood(c: FlowController, user: string, n: number): { running: Admission[]; waiting: Promise<Admission>[] } {
  const [u, info] = userAndInfo({
    username: user, groups: ['system:authenticated'], verb: 'get', isResourceRequest: true, apiGroup: '', resource: 'configmaps',
    subresource: '', namespace: 'default', name: 'x', path: '/api/v1/namespaces/default/configmaps/x',
  });
  const classification = c.classify(u, info);
  const running: Admission[] = [];
  const waiting: Promise<Admission>[] = [];
  for (let i = 0; i < n; i++) {
    const a = c.admit(classification);
    if (a instanceof Promise) waiting.push(a);
    else running.push(a);
  }
  return { running, waiting };
}

const state = (c: FlowController, name: string): LevelState => c.levels().find((l) => l.name === name)!;
const limits = (c: FlowController, name: string): number[] => {
  const l = state(c, name);
  return [l.nominalLimit, l.lowerLimit, l.upperLimit, l.currentLimit];
};

function setUp(clock: ManualClock) {
  const registry = createMetricsRegistry();
  const c = createFlowController({ serverConcurrencyLimit: 100, waitLimitMs: 3_600_000, metrics: flowcontrolMetrics(registry), clock });
  // With the mandatory catch-all (5 shares): nominal ceil(100 × 50 / 105) = 48 each, 5 for catch-all, 101 in all.
  c.configure([schemaFor('lender-user', 'lender'), schemaFor('borrower-user', 'borrower')], [level('lender', 50, 50), level('borrower', 50, 0, 100)]);
  return { c, registry };
}

test('borrowing: limits between nominal less lendable and nominal plus borrowable; a new level starts with half its lendable seats lent', () => {
  const clock = manualClock();
  const { c } = setUp(clock);
  // lender: lends 24, may borrow without bound (the server's 100); borrower: lends nothing, borrows up to 100% of 48.
  assert.deepEqual(limits(c, 'lender').slice(0, 3), [48, 24, 148]);
  assert.deepEqual(limits(c, 'borrower').slice(0, 3), [48, 48, 96]);
  assert.deepEqual(limits(c, 'catch-all').slice(0, 3), [5, 5, 105]);
  assert.equal(state(c, 'global-default'), undefined);
  // Idle, every level's demand is nothing: each keeps its lower limit and the rest of the 101 seats follows the targets.
  const current = ['lender', 'borrower', 'catch-all'].map((n) => state(c, n).currentLimit);
  assert.equal(current.reduce((a, b) => a + b, 0), 101);
  assert.ok(current[0]! >= 24 && current[1]! >= 48 && current[2]! >= 5, current.join(' '));
  assert.equal(state(c, 'lender').maxSeats, 8, 'max(1, min(ceil(48 × 0.15), 48 / 4))');
});

test('borrowing: a flooded level borrows what an idle one lends, and gives it back once the lender gets busy', async () => {
  const clock = manualClock();
  const { c, registry } = setUp(clock);
  const metric = async (name: string, pl: string): Promise<number | undefined> => {
    const line = (await registry.exposition()).split('\n').find((l) => l.startsWith(`${name}{priority_level="${pl}"}`));
    return line === undefined ? undefined : Number(line.split(' ')[1]);
  };
  clock.advance(10_000);
  c.adjustLimits();
  // 150 requests at the borrower: as many run as its limit lets, the rest wait; 150 seats of demand all period.
  const borrowerLoad = flood(c, 'borrower-user', 150);
  assert.equal(borrowerLoad.running.length, state(c, 'borrower').currentLimit);
  clock.advance(10_000);
  c.adjustLimits();
  const borrower = state(c, 'borrower');
  assert.equal(borrower.demand.highWatermark, 150);
  assert.equal(borrower.demand.average, 150);
  assert.equal(borrower.demand.smoothed, 150);
  assert.equal(borrower.currentLimit, 72, 'its nominal 48 and the 24 the lender may lend');
  assert.equal(state(c, 'lender').currentLimit, 24, 'the idle lender keeps only what it may not lend');
  assert.equal(state(c, 'catch-all').currentLimit, 5);
  // The raised limit let waiting requests in at once.
  assert.equal(state(c, 'borrower').executing, 72);
  assert.equal(await metric('apiserver_flowcontrol_current_limit_seats', 'borrower'), 72);
  assert.equal(await metric('apiserver_flowcontrol_nominal_limit_seats', 'borrower'), 48);
  assert.equal(await metric('apiserver_flowcontrol_lower_limit_seats', 'lender'), 24);
  assert.equal(await metric('apiserver_flowcontrol_upper_limit_seats', 'borrower'), 96);
  assert.equal(await metric('apiserver_flowcontrol_demand_seats_high_watermark', 'borrower'), 150);
  assert.equal(await metric('apiserver_flowcontrol_demand_seats_average', 'borrower'), 150);
  assert.equal(await metric('apiserver_flowcontrol_demand_seats_stdev', 'borrower'), 0);
  assert.equal(await metric('apiserver_flowcontrol_demand_seats_smoothed', 'borrower'), 150);
  assert.equal(await metric('apiserver_flowcontrol_target_seats', 'borrower'), 150);

  // The lender gets busy: 60 requests, of which it runs its 24 at first.
  const lenderLoad = flood(c, 'lender-user', 60);
  assert.equal(lenderLoad.running.length, 24);
  clock.advance(10_000);
  c.adjustLimits();
  assert.equal(state(c, 'lender').currentLimit, 48, 'back to its nominal limit: what it used at its peak, up to nominal');
  assert.equal(state(c, 'borrower').currentLimit, 48, 'limited again to its nominal seats');
  assert.equal(state(c, 'lender').executing, 48);
  // The borrower's first requests finish; only 48 run from now on.
  for (const a of borrowerLoad.running) if (a.kind === 'execute') a.release();
  assert.equal(state(c, 'borrower').executing, 48);
  assert.equal(state(c, 'borrower').waiting, 150 - borrowerLoad.running.length - 48);
});

test('borrowing: the smoothed demand follows a rise at once and decays slowly', () => {
  let stats = noSeatDemand;
  stats = nextSeatDemandStats(stats, { durationMs: 10_000, average: 100, deviation: 20, min: 50, max: 150 });
  assert.deepEqual(stats, { average: 100, deviation: 20, highWatermark: 150, smoothed: 120 });
  stats = nextSeatDemandStats(stats, { durationMs: 10_000, average: 0, deviation: 0, min: 0, max: 0 });
  assert.equal(stats.highWatermark, 0);
  assert.ok(Math.abs(stats.smoothed - 120 * 0.977) < 1e-9);
  // Half-life of about 30 periods of 10 s.
  for (let i = 1; i < 30; i++) stats = nextSeatDemandStats(stats, { durationMs: 10_000, average: 0, deviation: 0, min: 0, max: 0 });
  assert.ok(stats.smoothed > 55 && stats.smoothed < 62, String(stats.smoothed));
});

test('borrowing: a removed level quiesces until its queues drain, its FlowSchemas dangling', async () => {
  const clock = manualClock();
  const { c } = setUp(clock);
  const load = flood(c, 'lender-user', state(c, 'lender').currentLimit + 3);
  const lenderFs = schemaFor('lender-user', 'lender');
  c.configure([lenderFs, schemaFor('borrower-user', 'borrower')], [level('borrower', 50, 0, 100)]);
  assert.equal(state(c, 'lender').quiescing, true);
  assert.equal(c.isDangling(lenderFs), true);
  assert.equal(state(c, 'borrower').nominalLimit, 48, 'the draining level still counts in the shares');
  for (const a of load.running) if (a.kind === 'execute') a.release();
  for (const a of await Promise.all(load.waiting)) if (a.kind === 'execute') a.release();
  assert.equal(state(c, 'lender'), undefined, 'gone once idle');
  assert.equal(state(c, 'borrower').nominalLimit, 91, 'ceil(100 × 50 / 55)');
});
