/**
 * Two API server replicas on one 3-member etcd cluster (kube's HA control plane): writes alternate between the
 * replicas while a watcher on each replica checks it sees every event once and in order; an etcd member is killed
 * and restarted mid-run; consistent reads on one replica see writes made through the other; the replica holding the
 * controller Lease is killed and the other takes the Lease over and runs the controllers (a namespace deletion
 * completes). Skips when etcd is not installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { findEtcdBinary, startEtcdCluster, type EtcdTestCluster } from '@svc-apiserver/testing/etcd-test-cluster';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const binary = findEtcdBinary();
const leaseArgs = ['--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=500ms'];
const leasePath = '/apis/coordination.svc.io/v1/namespaces/svc-system/leases/svc-controller-manager';

/** Retries a write the way a client does on 5xx/transport failures (the only errors allowed under faults). */
async function retried(run: () => Promise<{ status: number; text: string }>, want: number): Promise<void> {
  let last = '';
  for (let i = 0; i < 40; i++) {
    try {
      const r = await run();
      if (r.status === want) return;
      // A retried create whose first attempt committed answers AlreadyExists: the write happened once.
      if (want === 201 && r.status === 409) return;
      last = `${r.status} ${r.text}`;
      if (r.status < 500) break;
    } catch (e) {
      last = String(e);
    }
    await new Promise((res) => setTimeout(res, 250));
  }
  assert.fail(`write did not succeed: ${last}`);
}

if (binary === undefined) {
  describe('etcd HA', () => {
    test('needs an etcd binary', (t) => t.skip('etcd not installed (no etcd on PATH or in /usr/bin): the etcd HA test did not run'));
  });
} else {
  describe('two replicas on a 3-member etcd', { timeout: 60_000 }, () => {
    let cluster: EtcdTestCluster;
    let a: ServerProcess;
    let b: ServerProcess;
    before(async () => {
      cluster = await startEtcdCluster({ binary, members: 3 });
      // The root CA ConfigMap would be one more object in the namespace whose events are counted.
      const args = [`--etcd-servers=${cluster.endpoints.join(',')}`, ...leaseArgs, '--controllers=*,-root-ca-cert-publisher'];
      [a, b] = await Promise.all([startServerProcess({ extraArgs: args }), startServerProcess({ extraArgs: args })]);
    });
    after(async () => {
      await Promise.allSettled([a?.stop(), b?.stop()]);
      await cluster?.close();
    });

    test('watchers on both replicas see every alternating write once, in order, through an etcd member restart', async () => {
      const ns = 'ha';
      await createNamespace(a.client, ns);
      const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: ns };
      // Both caches must have the namespace's configmaps before the watches start at "now".
      const startRv = (await call(b.client, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).body.metadata.resourceVersion as string;
      const seen: string[][] = [[], []];
      const watches = [a, b].map((s, i) => {
        const w = s.client.watch(ref, { resourceVersion: startRv, maxRetries: 50 });
        void (async () => {
          for await (const e of w) {
            if (e.type === 'ADDED') seen[i]!.push((e.object as KubeObject).metadata?.name ?? '');
          }
        })();
        return w;
      });
      // The watches are closed however the test ends: a retrying watch would keep the test process alive.
      const total = 40;
      try {
        const names: string[] = [];
        for (let i = 0; i < total; i++) {
          if (i === 10) await cluster.members[1]!.kill();
          if (i === 25) await cluster.members[1]!.restart();
          const name = `cm-${String(i).padStart(3, '0')}`;
          names.push(name);
          const via = i % 2 === 0 ? a : b;
          await retried(() => call(via.client, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } }), 201);
          // A consistent read on the other replica sees the write at once.
          const other = via === a ? b : a;
          const got = await call(other.client, 'GET', `/api/v1/namespaces/${ns}/configmaps/${name}`);
          assert.equal(got.status, 200, `replica did not see ${name}: ${got.text}`);
        }
        assert.ok(await eventually(async () => seen[0]!.length >= total && seen[1]!.length >= total, 15_000), `watchers saw ${seen[0]!.length} and ${seen[1]!.length} of ${total}`);
        assert.deepEqual(seen[0], names, 'replica A watcher: every event once, in order');
        assert.deepEqual(seen[1], names, 'replica B watcher: every event once, in order');
      } finally {
        for (const w of watches) w.close();
      }
      const list = await call(b.client, 'GET', `/api/v1/namespaces/${ns}/configmaps`);
      assert.equal(list.body.items.length, total);
    });

    test('the controller Lease moves to the other replica when its holder dies, and controllers keep working', async () => {
      let holder = '';
      assert.ok(await eventually(async () => {
        const r = await call(a.client, 'GET', leasePath);
        holder = r.status === 200 ? (r.body.spec.holderIdentity as string) : '';
        return holder !== '';
      }, 10_000), 'a replica holds the controller lease');
      // Which replica leads: its pid is not in the identity, so kill A and B in turn is avoided; ask each log.
      const leaderIsA = a.output().includes(`${holder} became the leader`);
      const [dead, survivor] = leaderIsA ? [a, b] : [b, a];
      assert.ok(dead.output().includes(`${holder} became the leader`), 'the holder logged its leadership');
      await dead.kill();
      assert.ok(await eventually(async () => {
        const r = await call(survivor.client, 'GET', leasePath);
        return r.status === 200 && r.body.spec.holderIdentity !== holder && r.body.spec.holderIdentity !== '';
      }, 15_000), 'the surviving replica took the lease');
      assert.ok((await call(survivor.client, 'GET', leasePath)).body.spec.leaseTransitions >= 1);
      // The namespace controller now runs on the survivor: a deletion completes.
      await createNamespace(survivor.client, 'ha-gone');
      await call(survivor.client, 'POST', '/api/v1/namespaces/ha-gone/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
      assert.equal((await call(survivor.client, 'DELETE', '/api/v1/namespaces/ha-gone')).status, 200);
      assert.ok(await eventually(async () => (await call(survivor.client, 'GET', '/api/v1/namespaces/ha-gone')).status === 404, 15_000), 'the namespace deletion completed');
    });
  });
}
