import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roundRatios, roundsFor, spreadOf, verdict } from './server-cpu.js';

test('a spread has the median, its confidence interval and the extremes of the finite values', () => {
  const s = spreadOf([0.9, NaN, 0.7, 1.1, 0.8, 1.0, Infinity]);
  // Five values are too few for an interval narrower than their range.
  assert.deepEqual(s, { count: 5, median: 0.9, low: 0.7, ciLow: 0.7, ciHigh: 1.1, high: 1.1 });
  assert.ok(Number.isNaN(spreadOf([NaN]).median));
  // Sixteen values: the 4th and 13th.
  const sixteen = spreadOf(Array.from({ length: 16 }, (_, i) => i + 1));
  assert.deepEqual([sixteen.ciLow, sixteen.median, sixteen.ciHigh], [4, 9, 13]);
});

test('a goal is decided only when the whole confidence interval is on one side of it', () => {
  const s = spreadOf(Array.from({ length: 16 }, (_, i) => 0.8 + i / 100));
  assert.equal(verdict(s, 0.8), 'met');
  assert.equal(verdict(s, 0.85), 'undecided');
  assert.equal(verdict(s, 0.95), 'not met');
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
