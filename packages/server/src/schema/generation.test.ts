/**
 * The generated data stays what `npm run generate` makes from the upstream copies: nobody edits it by hand, and a
 * change to a generation script or to what it reads (the naming table's group keys) is regenerated with it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('generated/ is what the generation scripts make of the upstream copies', () => {
  const run = spawnSync(process.execPath, [join(serverDir, 'scripts', 'generate-schemas.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
});
