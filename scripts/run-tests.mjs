#!/usr/bin/env node
// Runs every compiled test file (`*.test.js` under packages/*/dist) with node's test runner.
// Node 20's runner takes files, not globs, so this finds them; extra arguments narrow the run by substring.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = ['packages', 'bench'];
const filters = process.argv.slice(2);
const files = [];
function walk(dir) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path);
    else if (entry.endsWith('.test.js') && path.includes(`${'dist'}`)) files.push(path);
  }
}
for (const root of roots) walk(root);
const selected = files.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (selected.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// --test-force-exit: a test file whose tests have all ended exits even if a leaked handle would keep it alive, so a
// leak shows as a failing test elsewhere instead of a run that never ends.
// --test-concurrency=2: two files at a time (node's default is one fewer than the cores, a single file on two cores);
// most files spend their time waiting on the servers, etcd members and clients they start, so two side by side
// halve the run on a two-core machine, and the timing-sensitive tests judge against the machine as it is.
const result = spawnSync(process.execPath, ['--test', '--test-force-exit', '--test-concurrency=2', ...selected], { stdio: 'inherit' });
process.exit(result.status ?? 1);
