/**
 * The structure-aware fuzzer against a real server (SQLite, admin and unprivileged token users, HTTP/1.1 and
 * HTTP/2): 20,000 seeded cases in `npm test`, 200,000 with SVC_SOAK=1 (`npm run soak`). SVC_FUZZ_CASES and
 * SVC_FUZZ_SEED override the count and the seed (a failing case is replayed by its seed and index).
 *
 * It asserts: the process never dies, no request goes unanswered past its deadline, no 5xx but kube's by-design
 * ones, every error answer a Status (bar kube's plain 404 of unknown non-API paths), no JavaScript internals in
 * messages, the server's RSS bounded, and the 200 objects seeded before the run unchanged after it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../e2e/http.js';
import { categories } from './fuzz-cases.js';
import { runFuzz, seededObjects, snapshotSeed, startFuzzTarget } from './fuzz-harness.js';

const soak = process.env['SVC_SOAK'] === '1';
const cases = Number(process.env['SVC_FUZZ_CASES'] ?? (soak ? 200_000 : 20_000));
const seed = Number(process.env['SVC_FUZZ_SEED'] ?? 1);
/** The server's resident memory may not pass this at any time during the run. */
const rssLimitMb = 1024;

test(`fuzz: ${cases} cases (seed ${seed}): no crash, no hang, no unexpected 5xx, every error a Status, seeded objects unchanged`, async (t) => {
  const target = await startFuzzTarget(t);
  try {
    const report = await runFuzz(target, {
      seed, cases, concurrency: 16,
      ...(soak ? { progress: (done: number) => console.log(`fuzz: ${done} cases`) } : {}),
    });
    const lines = [`fuzz: ${report.cases} cases in ${(report.durationMs / 1000).toFixed(1)} s, seed ${report.seed}; peak RSS ${report.peakRssMb} MiB, after ${report.finalRssMb} MiB; slowest answer ${report.slowestMs} ms`];
    for (const c of categories) {
      const k = report.perCategory[c];
      const statuses = Object.entries(k.statuses).sort(([a], [b]) => Number(a) - Number(b)).map(([s, n]) => `${s}:${n}`).join(' ');
      lines.push(`  ${c.padEnd(16)} ${String(k.cases).padStart(6)} cases, ${String(k.answered).padStart(6)} answered, ${String(k.unsendable).padStart(4)} unsendable, ${k.violations} violations  [${statuses}]`);
    }
    console.log(lines.join('\n'));
    for (const v of report.violations.slice(0, 30)) console.log(`  VIOLATION ${v.kind} #${v.index} (${v.category}): ${v.detail}`);
    assert.equal(report.crashed, false, 'the server process died');
    assert.deepEqual(report.violations.map((v) => `${v.kind} #${v.index} ${v.category}`), [], 'every case passes');
    assert.ok(report.peakRssMb < rssLimitMb, `peak RSS ${report.peakRssMb} MiB`);
    const live = await call(target.server.anonymous, 'GET', '/livez');
    assert.equal(live.status, 200, 'the server still serves');
    const after = await snapshotSeed(target.server, target.world);
    // Core and events.svc.io events share storage, so the seeded objects show in more lists than they number.
    assert.ok(target.seeded.size >= seededObjects, `${target.seeded.size} seeded objects read back`);
    assert.deepEqual(after, target.seeded, 'the seeded objects are unchanged');
  } finally {
    await target.server.stop();
  }
});
