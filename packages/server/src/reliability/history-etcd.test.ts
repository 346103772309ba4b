/**
 * History checking on etcd with two server replicas (kube's HA control plane): 16 clients race reads and writes on
 * 8 ConfigMaps through either replica, watchers on both follow them (one reading slowly), probes resume watches on
 * either replica from resourceVersions the chains delivered, etcd is compacted every 2 s through kube's shared
 * compaction key, and at random moments a replica is killed with SIGKILL or an etcd member is. Every operation and
 * event is checked: linearizability per object across replicas, one global never-receding revision, every watch
 * chain ordered, gap-free, duplicate-free and continuous across restarts and replicas; at the end every etcd member
 * holds the same history. Skips when etcd is not installed. `SVC_SOAK=1` runs it at full scale.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findEtcdBinary, startEtcdCluster } from '@svc-apiserver/testing/etcd-test-cluster';
import { checkEtcdMembers } from './crash-store-check.js';
import { historyMix } from './history-mixes.js';
import { runRounds } from './history-run.js';
import { scaled } from './history-scale.js';
import { startProcessReplica, type ControlledReplica } from './history-servers.js';

const binary = findEtcdBinary();

test('reads, writes and watches through two replicas on etcd stay linearizable and gap-free under compaction and crashes', { skip: binary === undefined ? 'etcd not installed' : false, timeout: scaled(180_000, 7_200_000) }, async (t) => {
  const cluster = await startEtcdCluster({ binary: binary!, members: 3 });
  const replicas: ControlledReplica[] = [];
  try {
    const args = [`--etcd-servers=${cluster.endpoints.join(',')}`, '--etcd-compaction-interval=2s'];
    replicas.push(...(await Promise.all(['replica-a', 'replica-b'].map((name) => startProcessReplica({ name, extraArgs: args })))));
    const seed = Date.now() % 1_000_000;
    const reports = await runRounds((line) => t.diagnostic(line), scaled(1, 8), (round) => ({
      label: `history-etcd-${round}`, replicas, storeOwnedByServer: false, compaction: true,
      namespace: `history-etcd-${round}`, objects: 8, clients: 16, mix: historyMix, preconditionRate: 0.6,
      watchers: [{ replica: 0, slow: false }, { replica: 0, slow: true }, { replica: 1, slow: false }], watchTimeoutSeconds: [2, 10],
      probeIntervalMs: 300, endProbes: scaled(20, 60), durationMs: scaled(12_000, 60_000), minimumCrashes: scaled(1, 5), seed: seed + round,
      async faults(ctx) {
        while (!ctx.stopping()) {
          await ctx.sleep(1500 + ctx.random() * 1500);
          if (ctx.stopping()) break;
          if (ctx.random() < 0.5) {
            await ctx.crash(replicas[Math.floor(ctx.random() * replicas.length)]!, 'replica SIGKILLs');
          } else {
            const member = cluster.members[Math.floor(ctx.random() * cluster.members.length)]!;
            await member.kill();
            ctx.count('etcd member SIGKILLs');
            await ctx.sleep(500 + ctx.random() * 1000);
            await member.restart();
          }
        }
      },
      storeCheck: () => checkEtcdMembers(cluster.endpoints),
    }));
    assert.deepEqual(reports.flatMap((r) => r.violations), []);
    assert.ok(reports.every((r) => (r.faults['replica SIGKILLs'] ?? 0) >= scaled(1, 5)), 'a replica was killed during every run');
  } finally {
    for (const r of replicas) {
      await r.stop();
      r.dispose();
    }
    await cluster.close();
  }
});
