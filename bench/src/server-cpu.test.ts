import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundRatios, roundsFor, spreadOf } from './server-cpu.js';

test('a spread has the median, quartiles and extremes of the finite values', () => {
  const s = spreadOf([0.9, NaN, 0.7, 1.1, 0.8, 1.0, Infinity]);
  assert.deepEqual(s, { median: 0.9, low: 0.7, q1: 0.8, q3: 1.0, high: 1.1 });
  assert.ok(Number.isNaN(spreadOf([NaN]).median));
});

test('round ratios pair each round with the baseline round of the same index', () => {
  const baseline = { rounds: [{ perSecond: 100, serverMicrosPerRequest: 200 }, { perSecond: 50, serverMicrosPerRequest: 400 }, { perSecond: 80, serverMicrosPerRequest: 250 }] };
  const other = { rounds: [{ perSecond: 90, serverMicrosPerRequest: 250 }, { perSecond: 40, serverMicrosPerRequest: 500 }] };
  const { rate, cpu } = roundRatios(other, baseline);
  // A slow second round touched both servers: its ratio (0.8) is near the first's (0.9), not 40/100.
  assert.deepEqual([rate.low, rate.high], [0.8, 0.9]);
  assert.deepEqual([cpu.low, cpu.high], [0.8, 0.8]);
});

test('phases are split into rounds of about half a second, at least four, unless asked', () => {
  assert.equal(roundsFor(1), 4);
  assert.equal(roundsFor(6), 12);
  assert.equal(roundsFor(6, 3), 3);
});
