/**
 * Crash consistency on etcd: 64 clients write concurrently through a server on a 3-member etcd cluster while, at
 * random moments, the server is killed with SIGKILL, one etcd member is killed, or two are (the cluster loses its
 * quorum until they return). After every server restart, before any client writes again, every acknowledged write
 * is there with its acknowledged resourceVersion; the history is linearizable per object; watchers see every change
 * once, in order; at the end every etcd member holds the same history. Skips when etcd is not installed.
 * `SVC_SOAK=1` runs it at full scale.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findEtcdBinary, startEtcdCluster, type EtcdTestMember } from '@svc-apiserver/testing/etcd-test-cluster';
import { crashMix } from './history-mixes.js';
import { checkEtcdMembers } from './crash-store-check.js';
import { runRounds, type FaultContext } from './history-run.js';
import { scaled } from './history-scale.js';
import { startProcessReplica, type ControlledReplica } from './history-servers.js';

const binary = findEtcdBinary();

/** Kills `members` etcd members, waits, and starts them again; counts what it did. */
async function outage(ctx: FaultContext, members: readonly EtcdTestMember[]): Promise<void> {
  for (const m of members) await m.kill();
  ctx.count(members.length === 1 ? 'etcd member SIGKILLs' : 'etcd quorum losses (2 of 3 members killed)');
  await ctx.sleep(300 + ctx.random() * 1200);
  for (const m of members) await m.restart();
}

test('SIGKILL of the server and of etcd members under 64-way mixed writes loses no acknowledged write', { skip: binary === undefined ? 'etcd not installed' : false, timeout: scaled(180_000, 7_200_000) }, async (t) => {
  const cluster = await startEtcdCluster({ binary: binary!, members: 3 });
  let replica: ControlledReplica | undefined;
  try {
    replica = await startProcessReplica({ name: 'etcd-server', extraArgs: [`--etcd-servers=${cluster.endpoints.join(',')}`] });
    const server = replica;
    const seed = Date.now() % 1_000_000;
    const reports = await runRounds((line) => t.diagnostic(line), scaled(1, 10), (round) => ({
      label: `crash-etcd-${round}`, replicas: [server], storeOwnedByServer: false, compaction: false,
      namespace: `crash-etcd-${round}`, objects: 128, clients: 64, mix: crashMix, preconditionRate: 0.5,
      watchers: [{ replica: 0, slow: false }, { replica: 0, slow: true }], watchTimeoutSeconds: [5, 20],
      probeIntervalMs: 0, endProbes: scaled(10, 30), durationMs: scaled(10_000, 60_000), minimumCrashes: scaled(2, 5), seed: seed + round,
      async faults(ctx) {
        let outages: Promise<void> = Promise.resolve();
        while (!ctx.stopping()) {
          await ctx.sleep(400 + ctx.random() * 1600);
          if (ctx.stopping()) break;
          const pick = ctx.random();
          const running = cluster.members.filter((m) => m.running());
          if (pick < 0.45 || running.length < 3) {
            await ctx.crash(server, 'server SIGKILLs');
          } else {
            // The outage runs on while the loop goes on, so a server crash may fall inside it.
            const victims = pick < 0.85 ? [running[Math.floor(ctx.random() * 3)]!] : running.slice(0, 2);
            outages = outages.then(() => outage(ctx, victims));
          }
        }
        await outages;
      },
      storeCheck: () => checkEtcdMembers(cluster.endpoints),
    }));
    assert.deepEqual(reports.flatMap((r) => r.violations), []);
    const kills = reports.reduce((n, r) => n + (r.faults['server SIGKILLs'] ?? 0), 0);
    assert.ok(kills >= scaled(2, 50), `the server was killed ${kills} times: too few to mean something`);
  } finally {
    await replica?.stop();
    replica?.dispose();
    await cluster.close();
  }
});
