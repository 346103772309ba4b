import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';
import { mandatoryConfiguration, suggestedConfiguration } from './bootstrap-configuration.js';
import type { PriorityLevelConfiguration } from './configuration-objects.js';
import { createFlowController } from './flow-controller.js';
import { flowcontrolMetrics } from './flowcontrol-metrics.js';
import type { Admission } from './queue-set.js';
import { manualClock } from '../testing/manual-clock.js';
import { seededRandom } from '../testing/seeded-random.js';
import { userAndInfo } from '../testing/request-attributes.js';

/** Numbers a stored object may carry when validation let something through: odd, negative, huge, fractional. */
const oddNumbers = [0, 1, -1, 0.5, 99.5, 100, 101, 2 ** 31, 1e300, -1e300, Number.MAX_SAFE_INTEGER, 3];

test('flow control: any configuration of the levels gives finite limits that share out the nominal seats, and requests never get stuck', async () => {
  const random = seededRandom(1040);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const maybe = (): number | undefined => (random() < 0.2 ? undefined : pick(oddNumbers));
  const s = suggestedConfiguration(namesFor('svc'));
  const m = mandatoryConfiguration();
  for (let round = 0; round < 200; round++) {
    const clock = manualClock();
    const serverLimit = pick([1, 2, 20, 600]);
    const c = createFlowController({ serverConcurrencyLimit: serverLimit, waitLimitMs: 1000, metrics: flowcontrolMetrics(createMetricsRegistry()), clock });
    const levels: PriorityLevelConfiguration[] = [...m.priorityLevels, ...s.priorityLevels].map((pl) => {
      if (pl.spec.type !== 'Limited' || random() < 0.3) return pl;
      const reject = random() < 0.2;
      const limited = {
        ...(maybe() === undefined ? {} : { nominalConcurrencyShares: pick(oddNumbers) }),
        ...(maybe() === undefined ? {} : { lendablePercent: pick(oddNumbers) }),
        ...(maybe() === undefined ? {} : { borrowingLimitPercent: pick(oddNumbers) }),
        limitResponse: reject ? { type: 'Reject' as const } : { type: 'Queue' as const, queuing: { queues: maybe(), handSize: maybe(), queueLengthLimit: maybe() } as never },
      };
      return { ...pl, spec: { type: 'Limited', limited } };
    });
    c.configure([...m.flowSchemas, ...s.flowSchemas], levels);
    const [user, info] = userAndInfo({
      username: 'u', groups: ['system:authenticated'], verb: 'get', isResourceRequest: true, apiGroup: '', resource: 'pods',
      subresource: '', namespace: 'ns', name: 'p', path: '/api/v1/namespaces/ns/pods/p',
    });
    const classification = c.classify(user, info);
    const running: Admission[] = [];
    const waiting: Promise<Admission>[] = [];
    for (let i = 0; i < 30; i++) {
      const a = c.admit(classification, { estimate: { initialSeats: pick([1, 3, 10]), finalSeats: pick([0, 2, 50]), additionalLatencyMs: pick([0, 5]) } });
      if (a instanceof Promise) waiting.push(a);
      else running.push(a);
    }
    for (let period = 0; period < 3; period++) {
      clock.advance(10_000);
      c.adjustLimits();
      const limited = c.levels().filter((l) => !l.exempt);
      for (const l of limited) {
        for (const v of [l.nominalLimit, l.lowerLimit, l.upperLimit, l.currentLimit]) assert.ok(Number.isFinite(v) && v >= 0, `round ${round}: ${JSON.stringify(l)}`);
        assert.ok(l.lowerLimit <= l.nominalLimit && l.nominalLimit <= l.upperLimit, `round ${round}: ${JSON.stringify(l)}`);
      }
      const nominal = limited.reduce((sum, l) => sum + l.nominalLimit, 0);
      const current = limited.reduce((sum, l) => sum + l.currentLimit, 0);
      // Rounding each level's share moves the sum by at most half a seat per level.
      assert.ok(Math.abs(current - nominal) <= limited.length / 2, `round ${round}: ${current} of ${nominal}`);
    }
    // Whatever ran finishes, whatever waited runs or times out: nothing is left behind.
    for (const a of running) if (a.kind === 'execute') a.release();
    for (const p of waiting) void p.then((a) => a.kind === 'execute' && a.release());
    const busy = (): boolean => c.levels().some((l) => l.executing > 0 || l.waiting > 0 || l.seatsInUse > 0);
    for (let i = 0; i < 60 && busy(); i++) {
      clock.advance(1000);
      c.adjustLimits();
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(!busy(), `round ${round}: ${JSON.stringify(c.levels().filter((l) => l.executing > 0 || l.waiting > 0 || l.seatsInUse > 0))}`);
  }
});

test('flow control: a level no hand can be dealt from, or exempt under another name, is ignored and its FlowSchemas dangle', () => {
  const c = createFlowController({ serverConcurrencyLimit: 600, waitLimitMs: 1000, metrics: flowcontrolMetrics(createMetricsRegistry()) });
  const queued = (name: string, queues: number, handSize: number): PriorityLevelConfiguration => ({
    metadata: { name }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } },
  });
  const levels = [queued('ok', 128, 6), queued('hand-too-big', 4, 5), queued('no-queues', 0, 1), queued('too-many-bits', 1024, 7), queued('huge-deck', 2 ** 27, 1),
    { metadata: { name: 'fake-exempt' }, spec: { type: 'Exempt' } } as PriorityLevelConfiguration];
  const schemas = levels.map((pl) => ({ metadata: { name: pl.metadata.name }, spec: { priorityLevelConfiguration: { name: pl.metadata.name } } }));
  c.configure(schemas, levels);
  assert.deepEqual(c.levels().map((l) => l.name).sort(), ['catch-all', 'exempt', 'ok']);
  assert.deepEqual(schemas.filter((fs) => c.isDangling(fs)).map((fs) => fs.metadata.name), ['hand-too-big', 'no-queues', 'too-many-bits', 'huge-deck', 'fake-exempt']);
});
