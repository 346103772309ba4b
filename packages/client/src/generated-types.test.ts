/**
 * The generated types stay as the script writes them (nobody edits them by hand, and a changed schema or script is
 * regenerated), and the generated code names groups only by their neutral keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const generatedDir = join(packageDir, 'src', 'generated');

test('src/generated is what the script writes', () => {
  const run = spawnSync(process.execPath, [join(packageDir, 'scripts', 'generate-types.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
});

test('generated code spells no served group: only comments quote upstream text', () => {
  for (const file of readdirSync(generatedDir)) {
    const code = readFileSync(join(generatedDir, file), 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/^\/\/.*$/gm, '');
    assert.doesNotMatch(code, /\.(k8s|svc)\.io\b/, file);
  }
});
