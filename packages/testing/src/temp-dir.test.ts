import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

test('a temp dir is fresh and is removed with its contents when its owner ends', () => {
  const ends: (() => void)[] = [];
  const owner = { after: (fn: () => void) => ends.push(fn) };
  const a = tempDir(owner, 'svc-temp-dir-');
  const b = tempDir(owner, 'svc-temp-dir-');
  assert.notEqual(a, b);
  writeFileSync(join(a, 'file'), 'x');
  assert.ok(existsSync(join(a, 'file')));
  for (const end of ends) end();
  assert.ok(!existsSync(a) && !existsSync(b));
});

test('a test context removes the dir when the test ends', async (t) => {
  let dir = '';
  await t.test('owner', (inner) => {
    dir = tempDir(inner, 'svc-temp-dir-');
    assert.ok(existsSync(dir));
  });
  assert.ok(!existsSync(dir));
});
