import { test } from 'node:test';
import assert from 'node:assert/strict';
import { managerFromUserAgent } from './request-options.js';
import { ok } from '@svc-apiserver/api';

test('the default field manager is the user agent up to its first slash, whichever agent came before', () => {
  assert.equal(managerFromUserAgent('kubectl/v1.27.0 (linux/amd64)'), 'kubectl');
  assert.equal(managerFromUserAgent('kubectl/v1.27.0 (linux/amd64)'), 'kubectl');
  assert.equal(managerFromUserAgent('svcctl/1.0'), 'svcctl');
  assert.equal(managerFromUserAgent(undefined), '');
  assert.equal(managerFromUserAgent('a\u0001b/x'), 'ab', 'unprintable characters dropped');
  assert.equal(managerFromUserAgent('x'.repeat(200)), 'x'.repeat(128), 'cut to 128 bytes');
  assert.equal(managerFromUserAgent(''), '');
  assert.equal(managerFromUserAgent('svcctl/1.0'), 'svcctl');
});

test('booleans convert as apimachinery does: false only for 0 or false in any case, true otherwise', async () => {
  const { boolParameter, parseWriteOptions } = await import('./request-options.js');
  const q = (s: string) => new URLSearchParams(s);
  assert.equal(boolParameter(q(''), 'force'), undefined);
  for (const v of ['true', 'True', 'TRUE', '1', '', 'yes', 'on', 't']) assert.equal(boolParameter(q(`force=${v}`), 'force'), true, v);
  for (const v of ['false', 'False', 'FALSE', 'fAlSe', '0']) assert.equal(boolParameter(q(`force=${v}`), 'force'), false, v);
  assert.equal(boolParameter(q('watch'), 'watch'), true, 'a bare parameter is true');
  assert.equal(boolParameter(q('watch=0&watch=1'), 'watch'), false, 'the first value counts');
  const applied = parseWriteOptions(q('fieldManager=x&force=True'), undefined, 'PatchOptions', undefined, true);
  assert.ok(applied.ok);
  assert.equal(applied.value.force, true);
  const notForced = parseWriteOptions(q('fieldManager=x&force=False'), undefined, 'PatchOptions', undefined, true);
  assert.ok(notForced.ok);
  assert.equal(notForced.value.force, false);
  const merge = parseWriteOptions(q('force=false'), undefined, 'PatchOptions', undefined, false);
  assert.ok(!merge.ok, 'force, even false, is forbidden on a non-apply patch');
  assert.equal(merge.error.code, 422);
});

test('integers convert with strconv.ParseInt: a sign allowed, Go\'s error text in a 400 otherwise', async () => {
  const { int64Parameter, parseListQuery } = await import('./request-options.js');
  const q = (s: string) => new URLSearchParams(s);
  assert.deepEqual(int64Parameter(q('limit=%2B5'), 'limit'), ok(5));
  assert.deepEqual(int64Parameter(q('limit=-3'), 'limit'), ok(-3));
  assert.deepEqual(int64Parameter(q(''), 'limit'), ok(undefined));
  for (const [text, why] of [['abc', 'invalid syntax'], ['', 'invalid syntax'], ['1.5', 'invalid syntax'], [' 1', 'invalid syntax'], ['9223372036854775808', 'value out of range']]) {
    const r = int64Parameter(q(`limit=${encodeURIComponent(text!)}`), 'limit');
    assert.ok(!r.ok, text);
    assert.equal(r.error.code, 400);
    assert.equal(r.error.reason, 'BadRequest');
    assert.equal(r.error.message, `strconv.ParseInt: parsing ${JSON.stringify(text)}: ${why}`);
  }
  const list = parseListQuery(q('watch=True&allowWatchBookmarks=1&sendInitialEvents=FALSE&timeoutSeconds=30&limit=2&unknown=x'));
  assert.deepEqual(list, ok({ watch: true, allowWatchBookmarks: true, sendInitialEvents: false, limit: 2, timeoutSeconds: 30 }));
  assert.deepEqual(parseListQuery(q('')), ok({ watch: false, allowWatchBookmarks: false, limit: 0 }));
});
