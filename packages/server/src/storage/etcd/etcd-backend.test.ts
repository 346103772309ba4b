import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import type { Backend, WatchListener } from '../backend.js';
import { err, ok, runBackendSuite } from '../backend-suite.js';
import { openEtcdBackend } from './etcd-backend.js';
import { findEtcdBinary, startEtcdCluster, type EtcdTestCluster } from '@svc-apiserver/testing/etcd-test-cluster';

const binary = findEtcdBinary();

if (binary === undefined) {
  describe('etcd backend', () => {
    test('needs an etcd binary', (t) => {
      t.skip('etcd not installed (no etcd on PATH or in /usr/bin): the etcd backend tests did not run');
    });
  });
} else {
  let cluster: EtcdTestCluster | undefined;
  before(async () => {
    cluster = await startEtcdCluster({ binary });
  });
  after(async () => {
    await cluster?.close();
  });
  const endpoints = (): string[] => {
    assert.ok(cluster !== undefined, 'the test etcd is running');
    return [...cluster.endpoints];
  };

  // Every suite run shares the one server; the suite gives each test its own key prefix. A server prefix on top
  // checks that keys are mapped in and out of it everywhere.
  runBackendSuite('etcd', async () => {
    let current = openEtcdBackend({ endpoints: endpoints(), prefix: '/suite' });
    return {
      backend: current,
      async reopen() {
        await current.close();
        current = openEtcdBackend({ endpoints: endpoints(), prefix: '/suite' });
        return current;
      },
    };
  });

  /** Collects a watch's events and errors. */
  const collect = (b: Backend, prefix: string, afterRevision: number) => {
    const events: Parameters<WatchListener['onEvents']>[0][number][] = [];
    const errors: Parameters<WatchListener['onError']>[0][] = [];
    const handle = b.watch(prefix, afterRevision, {
      onEvents: (batch) => events.push(...batch),
      onError: (e) => errors.push(e),
    });
    return { events, errors, cancel: () => handle.cancel() };
  };
  const until = async (done: () => boolean, what: string, ms = 5000): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  describe('etcd backend', () => {
    test('keys live under the configured prefix inside etcd', async () => {
      const b = openEtcdBackend({ endpoints: endpoints(), prefix: '/tenant-a' });
      const other = openEtcdBackend({ endpoints: endpoints(), prefix: '/tenant-b' });
      const raw = new Etcd3({ hosts: endpoints() });
      try {
        const kv = ok(await b.create('/registry/core/configmaps/ns/x', '{"a":1}'));
        assert.equal(kv.key, '/registry/core/configmaps/ns/x');
        assert.equal(await raw.get('/tenant-a/registry/core/configmaps/ns/x').string(), '{"a":1}');
        assert.equal(await raw.get('/registry/core/configmaps/ns/x').string(), null);
        assert.deepEqual(ok(await other.list('/registry/')).kvs, []);
        assert.deepEqual(ok(await b.list('/registry/')).kvs, [kv]);
        assert.equal((await other.count('')).count, 0);
        // Revisions are etcd's own.
        const header = await raw.get('/tenant-a/registry/core/configmaps/ns/x').exec();
        assert.equal(Number(header.kvs[0]!.mod_revision), kv.modRevision);
      } finally {
        raw.close();
        await b.close();
        await other.close();
      }
    });

    test('backends sharing the KV thread keep their own clients: closing one leaves the other serving', async () => {
      const first = openEtcdBackend({ endpoints: endpoints(), prefix: '/shared-thread' });
      const second = openEtcdBackend({ endpoints: endpoints(), prefix: '/shared-thread' });
      try {
        // Writes issued in one turn of the event loop travel together; each answer reaches its own caller.
        const [a, b] = await Promise.all([first.create('/registry/x/a', 'a'), second.create('/registry/x/b', 'b')]);
        assert.notEqual(ok(a).modRevision, ok(b).modRevision);
        await first.close();
        await assert.rejects(first.get('/registry/x/a'), (e: { code?: string }) => e.code === 'Unavailable');
        const got = ok(await second.get('/registry/x/a'));
        assert.equal(got.kv?.value, 'a');
        assert.equal(got.kv?.modRevision, ok(a).modRevision);
        // Text keys and values cross the thread as UTF-8, unchanged.
        const text = 'ünïcødé ✓ \u{1f600}';
        ok(await second.create('/registry/x/ü', text));
        assert.deepEqual(ok(await second.list('/registry/x/')).kvs.map((kv) => [kv.key, kv.value]), [
          ['/registry/x/a', 'a'],
          ['/registry/x/b', 'b'],
          ['/registry/x/ü', text],
        ]);
      } finally {
        await first.close();
        await second.close();
      }
    });

    test('a compaction made by another server is reported with etcd compacted revision', async () => {
      const b = openEtcdBackend({ endpoints: endpoints(), prefix: '/compact-elsewhere' });
      const other = openEtcdBackend({ endpoints: endpoints(), prefix: '/compact-elsewhere' });
      try {
        const v1 = ok(await b.create('/registry/x/a', '1'));
        const v2 = ok(await b.update('/registry/x/a', '2', v1.modRevision));
        const v3 = ok(await b.update('/registry/x/a', '3', v2.modRevision));
        // `b` has never compacted, so it learns the revision only from etcd.
        await other.compact(v3.modRevision);
        const w = collect(b, '/registry/x/', v1.modRevision);
        await until(() => w.errors.length > 0, 'the Compacted error');
        assert.deepEqual(w.errors, [{ code: 'Compacted', compactRevision: v3.modRevision }]);
        assert.deepEqual(w.events, []);
        const fresh = openEtcdBackend({ endpoints: endpoints(), prefix: '/compact-elsewhere' });
        try {
          assert.equal(await fresh.compactRevision(), v3.modRevision);
          assert.deepEqual(err(await fresh.get('/registry/x/a', { revision: v2.modRevision })), {
            code: 'Compacted',
            compactRevision: v3.modRevision,
          });
          assert.deepEqual(ok(await fresh.get('/registry/x/a', { revision: v3.modRevision })).kv, v3);
        } finally {
          await fresh.close();
        }
        // Compacting to an older revision than etcd's is a no-op, not an error.
        await b.compact(v2.modRevision);
        assert.equal(await b.compactRevision(), v3.modRevision);
      } finally {
        await b.close();
        await other.close();
      }
    });

    test('close ends watches with Unavailable and later calls reject', async () => {
      const b = openEtcdBackend({ endpoints: endpoints(), prefix: '/closing' });
      const w = collect(b, '/registry/', await b.currentRevision());
      ok(await b.create('/registry/a', 'x'));
      await until(() => w.events.length === 1, 'the first event');
      await b.close();
      await until(() => w.errors.length > 0, 'the watch to end');
      assert.equal(w.errors[0]!.code, 'Unavailable');
      await assert.rejects(b.get('/registry/a'), { code: 'Unavailable' });
      await assert.rejects(b.create('/registry/b', 'x'), { code: 'Unavailable' });
    });
  });

  describe('etcd backend when etcd is lost', () => {
    let own: EtcdTestCluster | undefined;
    before(async () => {
      own = await startEtcdCluster({ binary });
    });
    after(async () => {
      await own?.close();
    });

    test('requests reject with Unavailable and watches end with Unavailable; service resumes when etcd returns', async () => {
      assert.ok(own !== undefined);
      const member = own.members[0]!;
      const b = openEtcdBackend({ endpoints: [...own.endpoints], requestTimeoutMs: 3000 });
      try {
        const kv = ok(await b.create('/registry/core/configmaps/ns/a', 'v1'));
        const w = collect(b, '/registry/', kv.modRevision);
        // A write reaches the watch, so its stream is surely established before etcd goes.
        const kv2 = ok(await b.update(kv.key, 'v2', kv.modRevision));
        await until(() => w.events.length === 1, 'the update event');
        await member.kill();
        await until(() => w.errors.length > 0, 'the watch to end');
        assert.equal(w.errors.length, 1);
        assert.equal(w.errors[0]!.code, 'Unavailable');
        const started = Date.now();
        await assert.rejects(b.get(kv.key), { code: 'Unavailable' });
        await assert.rejects(b.create('/registry/core/configmaps/ns/b', 'x'), { code: 'Unavailable' });
        await assert.rejects(b.update(kv.key, 'v3', kv2.modRevision), { code: 'Unavailable' });
        await assert.rejects(b.list('/registry/'), { code: 'Unavailable' });
        await assert.rejects(b.currentRevision(), { code: 'Unavailable' });
        assert.ok(Date.now() - started < 5000, 'requests fail promptly, not after retrying for long');

        await member.restart();
        let value: string | undefined;
        const deadline = Date.now() + 10_000;
        while (value === undefined && Date.now() < deadline) {
          try {
            value = ok(await b.get(kv.key)).kv?.value;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        assert.equal(value, 'v2', 'the data survived and the same backend serves again');
        const w2 = collect(b, '/registry/', kv2.modRevision);
        try {
          const kv3 = ok(await b.update(kv.key, 'v3', kv2.modRevision));
          await until(() => w2.events.length === 1, 'a new watch to see the write');
          assert.equal(w2.events[0]!.kv.modRevision, kv3.modRevision);
        } finally {
          w2.cancel();
        }
      } finally {
        await b.close();
      }
    });
  });
}
