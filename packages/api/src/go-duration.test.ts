import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGoDuration } from './go-duration.js';

test('Go durations: units, fractions, signs, sums and zero', () => {
  const ms = (t: string) => {
    const r = parseGoDuration(t);
    assert.ok(r.ok, t);
    return r.value;
  };
  assert.equal(ms('0'), 0);
  assert.equal(ms('1s'), 1000);
  assert.equal(ms('1m30s'), 90_000);
  assert.equal(ms('1.5h'), 5_400_000);
  assert.equal(ms('300ms'), 300);
  assert.equal(ms('2us'), 0.002);
  assert.equal(ms('2µs'), 0.002);
  assert.equal(ms('-1s'), -1000);
  assert.equal(ms('+.5s'), 500);
});

test('Go durations: the errors of time.ParseDuration', () => {
  const err = (t: string) => {
    const r = parseGoDuration(t);
    assert.ok(!r.ok, t);
    return r.error;
  };
  assert.equal(err('abc'), 'time: invalid duration "abc"');
  assert.equal(err(''), 'time: invalid duration ""');
  assert.equal(err('1'), 'time: missing unit in duration "1"');
  assert.equal(err('1x'), 'time: unknown unit "x" in duration "1x"');
  assert.equal(err('.s'), 'time: invalid duration ".s"');
  assert.equal(err('99999999999999999h'), 'time: invalid duration "99999999999999999h"');
});
