import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundRatios, roundsFor, spreadOf } from './server-cpu.js';

test('a spread has the median, quartiles and extremes of the finite values', () => {
  const s = spreadOf([0.9, NaN, 0.7, 1.1, 0.8, 1.0, Infinity]);
  assert.deepEqual(s, { median: 0.9, low: 0.7, q1: 0.8, q3: 1.0, high: 1.1 });
  assert.ok(Number.isNaN(spreadOf([NaN]).median));
});

test('round ratios set each round beside the baseline rounds just before and after it', () => {
  const round = (perSecond: number, serverMicrosPerRequest: number, sequence: number) => ({ perSecond, serverMicrosPerRequest, sequence });
  // Baseline and other alternate: b0 o1 b2 o3 b4 o5.
  const baseline = { rounds: [round(100, 200, 0), round(25, 400, 2), round(100, 200, 4)] };
  const other = { rounds: [round(45, 400, 1), round(45, 400, 3), round(90, 250, 5)] };
  const { rate, cpu } = roundRatios(other, baseline);
  // Rounds 1 and 3 ran beside a slow spell (the geometric mean of 100 and 25 is 50): 0.9, as the last round's
  // ratio to the one baseline round before it.
  assert.deepEqual([rate.low, rate.median, rate.high], [0.9, 0.9, 0.9]);
  const slow = Math.sqrt(200 * 400) / 400;
  assert.ok(Math.abs(cpu.low - slow) < 1e-9 && Math.abs(cpu.median - slow) < 1e-9);
  assert.equal(cpu.high, 0.8);
});

test('phases are split into rounds of about half a second, at least four, unless asked', () => {
  assert.equal(roundsFor(1), 4);
  assert.equal(roundsFor(6), 12);
  assert.equal(roundsFor(6, 3), 3);
});
