import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLabels, formatLabelSelector, goMap, goSlice, intOrString, rfc1123z, selectorString } from './go-format.js';

test('times in RFC 1123 with a numeric zone, in the local zone', () => {
  const zone = process.env.TZ;
  try {
    process.env.TZ = 'UTC';
    assert.equal(rfc1123z('2026-01-02T03:04:05Z'), 'Fri, 02 Jan 2026 03:04:05 +0000');
    process.env.TZ = 'Asia/Kolkata';
    assert.equal(rfc1123z('2026-01-02T03:04:05Z'), 'Fri, 02 Jan 2026 08:34:05 +0530');
    assert.equal(rfc1123z(undefined), 'Mon, 01 Jan 0001 00:00:00 +0000');
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
});

test('label selectors by key as labels.Selector prints them; maps, slices and int-or-strings as Go prints them', () => {
  const selector = { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['y', 'x'] }, { key: 'old', operator: 'DoesNotExist' }, { key: 'c', operator: 'Exists' }] };
  assert.equal(selectorString(selector), 'a=1,b=2,c,!old,tier in (x,y)');
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'x', operator: 'In' }] }), '<error>');
  assert.equal(selectorString(undefined), '');
  assert.equal(formatLabels({ b: 'x', a: 'y' }), 'a=y,b=x');
  assert.equal(formatLabels(undefined), '<none>');
  assert.equal(goSlice(['a', 'b']), '[a b]');
  assert.equal(goMap({ z: '1', a: '2' }), 'map[a:2 z:1]');
  assert.deepEqual([intOrString(25), intOrString('25%'), intOrString(undefined)], ['25', '25%', '<nil>']);
});
