import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flameGraph, summarizeProfile } from './cpu-profile-summary.js';

/** A profile of main › outer › inner (with a wrapper `wrap` between outer and inner), an idle node and a sibling. */
function writeProfile(dir: string): string {
  const frame = (functionName: string, lineNumber = 0) => ({ functionName, url: functionName.startsWith('(') ? '' : `file://${dir}/x.js`, lineNumber });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 6] },
      { id: 2, callFrame: frame('main', 0), children: [3, 7] },
      { id: 3, callFrame: frame('outer', 10), children: [4] },
      { id: 4, callFrame: frame('wrap', 20), children: [5] },
      { id: 5, callFrame: frame('inner', 30) },
      { id: 6, callFrame: frame('(idle)') },
      { id: 7, callFrame: frame('sibling', 40) },
    ],
    startTime: 1000,
    // Ten samples 10 µs apart: six in inner, two in sibling, one idle, one in main itself; the last lies outside the window.
    samples: [5, 5, 5, 5, 5, 5, 7, 7, 6, 2],
    timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10, 10, 1000],
  };
  const path = join(dir, 'x.cpuprofile');
  writeFileSync(path, JSON.stringify(profile));
  return path;
}

test('the flame graph is top-down with total and self shares, wrappers joined, the window and threshold applied', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-profile-'));
  try {
    const path = writeProfile(dir);
    const window = { fromMicros: 1000, toMicros: 1100 };
    const lines = flameGraph(path, window, dir, 20);
    assert.match(lines[0]!, /8 busy samples/);
    const rows = lines.slice(1).map((l) => l.trim().replace(/\s+/g, ' '));
    // main: 8 samples in the window minus the idle one and the one past it; outer › wrap › inner on one line.
    assert.deepEqual(rows, [
      '100.0% 0.0% main x.js:1',
      '75.0% 75.0% outer x.js:11 › wrap x.js:21 › inner x.js:31',
      '25.0% 25.0% sibling x.js:41',
    ]);
    // Below the threshold, a callee is left out (its time stays in its caller's total).
    assert.deepEqual(flameGraph(path, window, dir, 30).slice(1).map((l) => l.trim().replace(/\s+/g, ' ')), [
      '100.0% 0.0% main x.js:1',
      '75.0% 75.0% outer x.js:11 › wrap x.js:21 › inner x.js:31',
    ]);
    const summary = summarizeProfile(path, window, dir);
    assert.match(summary[0]!, /8 busy samples, 1 idle/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
