import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fail, ok, type Result } from './result.js';
import { notFound } from './status.js';

test('ok carries the value, fail the error, and `ok` tells them apart', () => {
  const parse = (text: string): Result<number, string> => (/^\d+$/.test(text) ? ok(Number(text)) : fail(`not a number: ${text}`));
  assert.deepEqual(parse('42'), { ok: true, value: 42 });
  assert.deepEqual(parse('x'), { ok: false, error: 'not a number: x' });
  const got = parse('7');
  assert.equal(got.ok ? got.value + 1 : got.error, 8);
});

test('the error is a Status unless said otherwise', () => {
  const missing: Result<string> = fail(notFound({ group: '', resource: 'configmaps' }, 'x'));
  assert.equal(missing.ok ? undefined : missing.error.code, 404);
  assert.deepEqual(ok(), { ok: true, value: undefined });
});
