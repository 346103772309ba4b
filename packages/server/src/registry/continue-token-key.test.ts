import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { continueTokenKeyFile, loadContinueTokenKey } from './continue-token-key.js';
import { continueTokens } from './continue-token.js';

test('the continue-token key is made once, owner-only, and read back the same after a restart', async (t) => {
  const dir = tempDir(t, 'continue-key-');
  const first = await loadContinueTokenKey(dir);
  assert.equal(first.length, 32);
  assert.equal(statSync(join(dir, continueTokenKeyFile)).mode & 0o777, 0o600);
  const second = await loadContinueTokenKey(dir);
  assert.deepEqual(Buffer.from(second), Buffer.from(first));
  // A token issued before the restart is accepted after it; one from another data dir is not.
  const token = continueTokens(first).encode({ revision: 7, start: 'b' });
  assert.deepEqual(continueTokens(second).decode(token), { ok: true, value: { revision: 7, start: 'b' } });
  const other = tempDir(t, 'continue-key-');
  const decoded = continueTokens(await loadContinueTokenKey(other)).decode(token);
  assert.equal(decoded.ok, false);
});

test('a damaged key file is refused, not replaced', async (t) => {
  const dir = tempDir(t, 'continue-key-');
  writeFileSync(join(dir, continueTokenKeyFile), 'not a key\n', { mode: 0o600 });
  await assert.rejects(loadContinueTokenKey(dir), /does not hold a continue-token key/);
  assert.equal(readFileSync(join(dir, continueTokenKeyFile), 'utf8'), 'not a key\n');
});
