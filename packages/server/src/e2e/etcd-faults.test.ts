/**
 * The server on etcd under faults, and several servers sharing one etcd: etcd down at start (readyz fails, livez
 * holds within the grace period, service begins when etcd comes), etcd lost while serving (503/504 Statuses, watches
 * end, nothing lost, service resumes), `--etcd-prefix` isolation, and compaction by two replicas through the shared
 * compaction key. Skips when etcd is not installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { findEtcdBinary, startEtcdCluster, type EtcdTestCluster } from '@svc-apiserver/testing/etcd-test-cluster';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const binary = findEtcdBinary();
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });

if (binary === undefined) {
  describe('etcd faults and sharing', () => {
    test('needs an etcd binary', (t) => t.skip('etcd not installed (no etcd on PATH or in /usr/bin): the etcd fault tests did not run'));
  });
} else {
  describe('etcd lost and found', { timeout: 60_000 }, () => {
    let cluster: EtcdTestCluster;
    let server: ServerProcess;
    before(async () => {
      cluster = await startEtcdCluster({ binary });
    });
    after(async () => {
      if (server !== undefined && server.child.exitCode !== null) process.stderr.write(`server exited; its output:\n${server.output()}\n`);
      await server?.stop();
      await cluster?.close();
    });

    test('etcd unavailable at start: readyz fails, livez holds, the server serves once etcd is up', async () => {
      const member = cluster.members[0]!;
      await member.stop();
      // The root CA ConfigMap would be one more object in the namespace whose content is checked.
      server = await startServerProcess({ extraArgs: [`--etcd-servers=${cluster.endpoints.join(',')}`, '--livez-grace-period=60s', '--controllers=*,-root-ca-cert-publisher'], waitFor: 'serving' });
      const ready = await call(server.client, 'GET', '/readyz?verbose');
      assert.notEqual(ready.status, 200);
      assert.match(ready.text, /\[-\]etcd failed/);
      assert.equal((await call(server.client, 'GET', '/livez')).status, 200);
      await member.restart();
      assert.ok(await eventually(async () => (await call(server.client, 'GET', '/readyz')).status === 200, 20_000), 'ready once etcd is up');
      assert.ok(await eventually(async () => /^svc-apiserver: ready in \d+ms$/m.test(server.output()), 5_000), 'the ready line follows');
      await createNamespace(server.client, 'faults');
      assert.equal((await call(server.client, 'POST', '/api/v1/namespaces/faults/configmaps', cm('before'))).status, 201);
    });

    test('etcd lost while serving: 503/504 Statuses, watches end, nothing lost, service resumes', async () => {
      const member = cluster.members[0]!;
      const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: 'faults' };
      const watch = server.client.watch(ref, { reconnect: false });
      let ended = false;
      void (async () => {
        for await (const e of watch) if (e.type === 'ERROR') break;
        ended = true;
      })();
      await new Promise((r) => setTimeout(r, 300));
      await member.stop();
      const read = await call(server.client, 'GET', '/api/v1/namespaces/faults/configmaps/before');
      assert.ok(read.status === 503 || read.status === 504, `a read without etcd: ${read.status} ${read.text}`);
      assert.equal(read.body?.kind, 'Status');
      const write = await call(server.client, 'POST', '/api/v1/namespaces/faults/configmaps', cm('during'));
      assert.ok(write.status === 503 || write.status === 504, `a write without etcd: ${write.status} ${write.text}`);
      assert.ok(await eventually(async () => ended, 15_000), 'the watch ended so its client re-lists');
      assert.notEqual((await call(server.client, 'GET', '/readyz')).status, 200);
      watch.close();
      await member.restart();
      assert.ok(await eventually(async () => (await call(server.client, 'GET', '/api/v1/namespaces/faults/configmaps/before')).status === 200, 20_000), 'service resumed');
      assert.equal((await call(server.client, 'POST', '/api/v1/namespaces/faults/configmaps', cm('after'))).status, 201);
      const list = await call(server.client, 'GET', '/api/v1/namespaces/faults/configmaps');
      assert.deepEqual(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['after', 'before']);
      assert.ok(await eventually(async () => (await call(server.client, 'GET', '/readyz')).status === 200, 10_000));
    });
  });

  describe('servers sharing one etcd', { timeout: 60_000 }, () => {
    let cluster: EtcdTestCluster;
    let a1: ServerProcess;
    let a2: ServerProcess;
    let other: ServerProcess;
    before(async () => {
      cluster = await startEtcdCluster({ binary });
      const etcd = `--etcd-servers=${cluster.endpoints.join(',')}`;
      [a1, a2, other] = await Promise.all([
        startServerProcess({ extraArgs: [etcd, '--etcd-compaction-interval=1s'] }),
        startServerProcess({ extraArgs: [etcd, '--etcd-compaction-interval=1s'] }),
        startServerProcess({ extraArgs: [etcd, '--etcd-prefix=/other', '--etcd-compaction-interval=0'] }),
      ]);
    });
    after(async () => {
      await Promise.allSettled([a1?.stop(), a2?.stop(), other?.stop()]);
      await cluster?.close();
    });

    test('--etcd-prefix isolates two clusters on one etcd', async () => {
      await createNamespace(a1.client, 'shared');
      assert.equal((await call(a1.client, 'POST', '/api/v1/namespaces/shared/configmaps', cm('mine'))).status, 201);
      assert.equal((await call(a2.client, 'GET', '/api/v1/namespaces/shared/configmaps/mine')).status, 200, 'a replica with the same prefix sees it');
      assert.equal((await call(other.client, 'GET', '/api/v1/namespaces/shared')).status, 404, 'the other prefix does not');
      assert.equal((await call(other.client, 'GET', '/api/v1/namespaces/shared/configmaps/mine')).status, 404);
      // Writes of one cluster do not slow consistent reads of the other (progress notifications keep its cache current).
      const t0 = Date.now();
      for (let i = 0; i < 5; i++) {
        await call(a1.client, 'POST', '/api/v1/namespaces/shared/configmaps', cm(`n${i}`));
        assert.equal((await call(other.client, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
      }
      assert.ok(Date.now() - t0 < 4000, `consistent reads on the other prefix took ${Date.now() - t0}ms`);
      const client = new Etcd3({ hosts: [...cluster.endpoints] });
      try {
        const keys = await client.getAll().prefix('/').keys();
        assert.ok(keys.includes('/registry/core/configmaps/shared/mine') || keys.some((k) => k.startsWith('/registry/') && k.endsWith('/shared/mine')), 'default prefix is /registry');
        assert.ok(keys.some((k) => k.startsWith('/other/')), 'the other cluster lives under /other');
        assert.ok(!keys.some((k) => k.startsWith('/other/registry/')), '--etcd-prefix replaces /registry');
      } finally {
        client.close();
      }
    });

    test('two replicas compact etcd through the shared key, one per interval', async () => {
      const old = await call(a1.client, 'GET', '/api/v1/namespaces/shared/configmaps');
      const oldRv = old.body.metadata.resourceVersion as string;
      for (let i = 0; i < 3; i++) await call(a2.client, 'POST', '/api/v1/namespaces/shared/configmaps', cm(`c${i}`));
      const client = new Etcd3({ hosts: [...cluster.endpoints] });
      try {
        // Compacted past oldRv: a read at it is refused by etcd.
        assert.ok(await eventually(async () => {
          try {
            await client.get('x').revision(Number(oldRv)).string();
            return false;
          } catch (e) {
            return String(e).includes('compacted');
          }
        }, 15_000, 250), 'etcd was compacted');
        // Each winning round bumps the key's version: over 3 s of 1 s intervals two unguarded replicas would win ~6.
        const version = async (): Promise<number> => Number((await client.getAll().prefix('compact_rev_key').exec()).kvs[0]?.version ?? 0);
        const v0 = await version();
        await new Promise((r) => setTimeout(r, 3000));
        const rounds = (await version()) - v0;
        assert.ok(rounds >= 2 && rounds <= 4, `compaction rounds in 3 s: ${rounds} (one winner per interval)`);
      } finally {
        client.close();
      }
      // The server reports the compacted history as Expired to a watch from before it.
      const w = await call(a1.client, 'GET', `/api/v1/namespaces/shared/configmaps?resourceVersion=${oldRv}&resourceVersionMatch=Exact&limit=1`);
      assert.equal(w.status, 410, w.text);
    });
  });
}
