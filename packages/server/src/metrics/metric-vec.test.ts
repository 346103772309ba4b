import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import { CounterVec, GaugeVec, HistogramVec } from './metric-vec.js';

/** prom-client's registry serving `metrics`. */
async function exposition(metrics: readonly unknown[]): Promise<string> {
  const registry = new Registry();
  for (const m of metrics) registry.registerMetric(m as Metric);
  return registry.metrics();
}

test('the vectors are served in the same text as prom-client\'s own counters, gauges and histograms', async () => {
  const buckets = [0.005, 0.025, 0.1, 1];
  const theirs = {
    requests: new Counter({ name: 'requests_total', help: 'h1', labelNames: ['verb', 'code'], registers: [] }),
    plain: new Counter({ name: 'plain_total', help: 'h2', registers: [] }),
    inFlight: new Gauge({ name: 'in_flight', help: 'h3', labelNames: ['kind'], registers: [] }),
    idle: new Gauge({ name: 'idle', help: 'h4', registers: [] }),
    latency: new Histogram({ name: 'latency_seconds', help: 'h5', labelNames: ['verb', 'resource'], buckets, registers: [] }),
    empty: new Histogram({ name: 'empty_seconds', help: 'h6', buckets, registers: [] }),
  };
  const ours = {
    requests: new CounterVec('requests_total', 'h1', ['verb', 'code']),
    plain: new CounterVec('plain_total', 'h2', []),
    inFlight: new GaugeVec('in_flight', 'h3', ['kind']),
    idle: new GaugeVec('idle', 'h4', []),
    latency: new HistogramVec('latency_seconds', 'h5', ['verb', 'resource'], buckets),
    empty: new HistogramVec('empty_seconds', 'h6', [], buckets),
  };
  for (const [verb, code, n] of [['GET', '200', 3], ['POST', '201', 1], ['GET', '404', 2]] as const) {
    theirs.requests.inc({ verb, code }, n);
    ours.requests.with({ verb, code }).inc(n);
  }
  theirs.plain.inc(2);
  ours.plain.with({}).inc(2);
  theirs.inFlight.set({ kind: 'readOnly' }, 4);
  theirs.inFlight.dec({ kind: 'readOnly' });
  theirs.inFlight.inc({ kind: 'mutating' }, 2);
  ours.inFlight.with({ kind: 'readOnly' }).set(4);
  ours.inFlight.with({ kind: 'readOnly' }).inc(-1);
  ours.inFlight.with({ kind: 'mutating' }).inc(2);
  for (const [verb, resource, seconds] of [['GET', 'pods', 0.001], ['GET', 'pods', 0.03], ['LIST', 'pods', 7], ['GET', 'pods', 0.1], ['GET', 'pods\n"x"', 0.5]] as const) {
    theirs.latency.observe({ verb, resource }, seconds);
    ours.latency.with({ verb, resource }).observe(seconds);
  }
  assert.equal(await exposition(Object.values(ours)), await exposition(Object.values(theirs)));
});

test('a series held is the one served; labels outside the declared set and values that are no numbers are refused', async () => {
  const vec = new CounterVec('c_total', 'help', ['a', 'b']);
  const held = vec.with({ a: 'x', b: 'y' });
  held.inc();
  // Labels in another order name the same series.
  vec.with({ b: 'y', a: 'x' }).inc(2);
  assert.equal(held.value, 3);
  // A missing label and an empty one are different series, as in prom-client.
  vec.with({ a: 'x' }).inc();
  vec.with({ a: 'x', b: '' }).inc(5);
  assert.deepEqual((await vec.get()).values.map((v) => v.value), [3, 1, 5]);
  // A value holding the key separator cannot be taken for another combination.
  vec.with({ a: 'x\u0000', b: 'y' }).inc(7);
  vec.with({ a: 'x', b: '\u0000y' }).inc(11);
  assert.deepEqual((await vec.get()).values.map((v) => v.value), [3, 1, 5, 7, 11]);
  assert.throws(() => vec.with({ a: 'x', c: 'z' }), /Added label "c" is not included in initial labelset/);
  // A value given as a number is the same series as its text (a status code), as in the exposition.
  const codes = new CounterVec('codes_total', 'help', ['code']);
  codes.with({ code: '200' }).inc();
  codes.with({ code: 200 as unknown as string }).inc();
  assert.deepEqual((await codes.get()).values, [{ value: 2, labels: { code: '200' } }]);
  // A metric without labels has its one series and refuses any label.
  const plain = new CounterVec('plain_total', 'help', []);
  plain.with({}).inc();
  assert.equal((await plain.get()).values[0]?.value, 1);
  assert.throws(() => plain.with({ a: 'x' }), /Added label "a" is not included in initial labelset/);
  assert.throws(() => held.inc(-1), /not possible to decrease a counter/);
  assert.throws(() => held.inc(Infinity), /Value is not a valid number/);
  assert.throws(() => new HistogramVec('h', 'help', [], [1]).with({}).observe(Infinity), /Value is not a valid number/);
});

test('a gauge with a collector is set afresh at each scrape: combinations not set again are gone', async () => {
  let round = 0;
  const gauge = new GaugeVec('g', 'help', ['k'], (vec) => {
    round++;
    vec.with({ k: `r${round}` }).set(round);
  });
  assert.deepEqual((await gauge.get()).values, [{ value: 1, labels: { k: 'r1' } }]);
  assert.deepEqual((await gauge.get()).values, [{ value: 2, labels: { k: 'r2' } }]);
});
