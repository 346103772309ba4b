/**
 * Crash consistency on SQLite: 64 clients write concurrently (create, update, merge/JSON/strategic patch, apply,
 * delete, with and without resourceVersion preconditions) while the server process is killed with SIGKILL at random
 * moments — sometimes again during its restart. After every restart, before any client writes again, every
 * acknowledged write is there with its acknowledged resourceVersion and every acknowledged delete is absent; the
 * whole history is linearizable per object; watchers reconnecting across the crashes see every change once, in
 * order; the SQLite file passes its integrity check. `SVC_SOAK=1` runs it at full scale.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkSqliteStore } from './crash-store-check.js';
import { crashMix } from './history-mixes.js';
import { runRounds } from './history-run.js';
import { scaled } from './history-scale.js';
import { startProcessReplica } from './history-servers.js';

test('SIGKILL at random moments under 64-way mixed writes on SQLite loses no acknowledged write', { timeout: scaled(120_000, 7_200_000) }, async (t) => {
  const replica = await startProcessReplica({ name: 'sqlite' });
  try {
    const seed = Date.now() % 1_000_000;
    const reports = await runRounds((line) => t.diagnostic(line), scaled(1, 10), (round) => ({
      label: `crash-sqlite-${round}`, replicas: [replica], storeOwnedByServer: true, compaction: false,
      namespace: `crash-sqlite-${round}`, objects: 128, clients: 64, mix: crashMix, preconditionRate: 0.5,
      watchers: [{ replica: 0, slow: false }, { replica: 0, slow: true }], watchTimeoutSeconds: [5, 20],
      probeIntervalMs: 0, endProbes: scaled(10, 30), durationMs: scaled(10_000, 60_000), minimumCrashes: scaled(4, 10), seed: seed + round,
      async faults(ctx) {
        while (!ctx.stopping()) {
          await ctx.sleep(300 + ctx.random() * 1700);
          if (ctx.stopping()) break;
          await ctx.crash(replica, 'server SIGKILLs', ctx.random() < 0.25 ? 100 + ctx.random() * 1200 : undefined);
        }
      },
      storeCheck: (highest) => checkSqliteStore(join(replica.dataDir, 'state.db'), highest),
    }));
    assert.deepEqual(reports.flatMap((r) => r.violations), []);
    const kills = reports.reduce((n, r) => n + (r.faults['server SIGKILLs'] ?? 0), 0);
    assert.ok(kills >= scaled(4, 100), `the server was killed ${kills} times: too few to mean something`);
  } finally {
    await replica.stop();
    replica.dispose();
  }
});
