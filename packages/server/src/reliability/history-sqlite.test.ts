/**
 * History checking on SQLite: 16 clients race reads and writes on 8 ConfigMaps while three watchers (one reading
 * slowly) follow them through list-then-watch chains, probes resume watches from resourceVersions the chains
 * delivered, history is compacted every second (a window of 1.5 s, so resuming an old resourceVersion meets 410),
 * bookmarks come every 400 ms, and the server restarts every few seconds. Every operation and event is recorded and
 * checked: linearizability per object, one global never-receding revision, every watch chain ordered, gap-free,
 * duplicate-free and continuous across restarts. The server runs in-process here, where the compaction window and
 * bookmark period can be set. `SVC_SOAK=1` runs it at full scale.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { historyMix } from './history-mixes.js';
import { runRounds } from './history-run.js';
import { scaled } from './history-scale.js';
import { startInProcessReplica } from './history-servers.js';

test('reads, writes and watches on SQLite stay linearizable and gap-free under compaction, restarts and slow watchers', { timeout: scaled(120_000, 7_200_000) }, async (t) => {
  const replica = await startInProcessReplica({ name: 'sqlite-in-process', server: { compactionWindowMs: 1500, bookmarkIntervalMs: 400 } });
  try {
    const seed = Date.now() % 1_000_000;
    const reports = await runRounds((line) => t.diagnostic(line), scaled(1, 8), (round) => ({
      label: `history-sqlite-${round}`, replicas: [replica], storeOwnedByServer: true, compaction: true,
      namespace: `history-sqlite-${round}`, objects: 8, clients: 16, mix: historyMix, preconditionRate: 0.6,
      watchers: [{ replica: 0, slow: false }, { replica: 0, slow: false }, { replica: 0, slow: true }], watchTimeoutSeconds: [1, 6],
      probeIntervalMs: 250, endProbes: scaled(20, 60), durationMs: scaled(10_000, 60_000), minimumCrashes: scaled(2, 8), seed: seed + round,
      async faults(ctx) {
        while (!ctx.stopping()) {
          await ctx.sleep(2500 + ctx.random() * 2500);
          if (ctx.stopping()) break;
          await ctx.crash(replica, 'server restarts');
        }
      },
    }));
    assert.deepEqual(reports.flatMap((r) => r.violations), []);
    assert.ok(reports.every((r) => (r.faults['server restarts'] ?? 0) >= scaled(2, 8)), 'the server restarted during every run');
    assert.ok(reports.every((r) => r.watch.bookmarks > 0), 'bookmarks were delivered and checked');
    assert.ok(reports.every((r) => r.watch.expired > 0), 'compaction expired some resourceVersions, and the 410s were checked');
  } finally {
    await replica.stop();
    replica.dispose();
  }
});
