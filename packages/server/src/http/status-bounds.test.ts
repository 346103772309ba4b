import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failure, invalid } from '@svc-apiserver/api';
import { boundStatus, maxCauseTextChars, maxStatusCauses, maxStatusMessageChars, truncateText } from './status-bounds.js';

test('a Status within the bounds is returned as it is', () => {
  const s = failure('BadRequest', 'short');
  assert.equal(boundStatus(s), s);
});

test('a huge invalid Status is cut: message, cause count and cause texts', () => {
  const errors = Array.from({ length: 5000 }, (_, i) => ({
    type: 'FieldValueInvalid' as const, field: `data.k${i}`, detail: 'x'.repeat(5000),
  }));
  const s = invalid('ConfigMap', { group: '', resource: 'configmaps' }, 'big', errors);
  assert.ok(JSON.stringify(s).length > 10_000_000);
  const b = boundStatus(s);
  assert.ok(JSON.stringify(b).length < 200_000, `${JSON.stringify(b).length}`);
  assert.equal(b.message!.length, maxStatusMessageChars);
  assert.match(b.message!, /\.\.\. \(truncated\)$/);
  assert.equal(b.details!.causes!.length, maxStatusCauses);
  assert.ok(b.details!.causes!.every((c) => (c.message ?? '').length <= maxCauseTextChars));
  assert.equal(b.details!.name, 'big');
  assert.equal(b.code, 422);
});

test('truncation never splits a surrogate pair', () => {
  const t = truncateText('😀'.repeat(100), 50);
  assert.equal(t.length <= 50, true);
  assert.doesNotMatch(t, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
});
