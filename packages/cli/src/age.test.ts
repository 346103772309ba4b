import { test } from 'node:test';
import assert from 'node:assert/strict';
import { age, humanDuration } from './age.js';

test('ages as apimachinery\'s HumanDuration, coarser as they grow', () => {
  const s = 1000;
  const cases: Array<[number, string]> = [
    [-1500, '0s'], [-3 * s, '<invalid>'], [0, '0s'], [119 * s, '119s'], [120 * s, '2m'], [150 * s, '2m30s'], [600 * s, '10m'], [179 * 60 * s, '179m'],
    [3 * 3600 * s, '3h'], [(3 * 3600 + 60) * s, '3h1m'], [8 * 3600 * s, '8h'], [47 * 3600 * s, '47h'], [49 * 3600 * s, '2d1h'], [8 * 86400 * s, '8d'],
    [730 * 86400 * s, '2y'], [(730 + 5) * 86400 * s, '2y5d'], [9 * 365 * 86400 * s, '9y'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, String(ms));
  assert.equal(age(undefined), '<unknown>');
  assert.equal(age('2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:01:05Z')), '65s');
});
