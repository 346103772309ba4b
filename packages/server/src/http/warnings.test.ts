import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headerSafe, warningHeader, warningItemRunes, warningRecorder, warningTotalRunes } from './warnings.js';

test('warnings: quoted as kube does, duplicates dropped, empty and non-UTF-8 texts ignored', () => {
  const r = warningRecorder();
  r.add('unknown field "spec.x"');
  r.add('unknown field "spec.x"');
  r.add('');
  r.add('lone \uD800 surrogate');
  r.add('back\\slash');
  assert.deepEqual(r.headers(), ['299 - "unknown field \\"spec.x\\""', '299 - "back\\\\slash"']);
});

test('warnings: control characters become spaces and other text leaves as UTF-8 bytes, so Node can write it', () => {
  assert.equal(warningHeader('a\u0000b\r\nc\u007fd\te'), '299 - "a b  c d\te"');
  const header = warningHeader('unknown field "ключ"');
  assert.match(header, /^[\t\x20-\x7e\x80-\xff]*$/);
  assert.equal(Buffer.from(header, 'latin1').toString('utf8'), '299 - "unknown field \\"ключ\\""');
  assert.equal(headerSafe('plain'), 'plain');
});

test('warnings: past 4096 runes in all, every text is cut to 256 runes and nothing more is added past the total', () => {
  const r = warningRecorder();
  const long = (i: number) => `${i}:${'x'.repeat(20_000)}`;
  r.add(long(0));
  let headers = r.headers();
  assert.equal(headers.length, 1);
  assert.equal(headers[0]!.length, '299 - ""'.length + warningItemRunes, 'one 20 KB text alone is cut already');
  for (let i = 1; i < 100; i++) r.add(long(i));
  headers = r.headers();
  const total = headers.reduce((n, h) => n + h.length - '299 - ""'.length, 0);
  assert.ok(total <= warningTotalRunes + warningItemRunes, `total ${total}`);
  assert.equal(headers.length, Math.ceil(warningTotalRunes / warningItemRunes));
  for (const h of headers) assert.ok(h.length <= warningItemRunes + 8);
});

test('warnings: small texts are kept whole until the total is reached', () => {
  const r = warningRecorder();
  for (let i = 0; i < 10; i++) r.add(`warning ${i} ${'y'.repeat(300)}`);
  assert.equal(r.headers().length, 10);
  assert.ok(r.headers().every((h) => h.length > warningItemRunes));
});
