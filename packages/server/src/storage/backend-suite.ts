/**
 * The Backend conformance suite: every implementation (memory, sqlite, etcd) registers it with its own opener and
 * must pass it unchanged. It checks the etcd semantics kube-apiserver's storage layer relies on: compare-and-swap on
 * mod revision, snapshot reads at a revision (paginated lists), watch from a revision with no gap and no duplicate,
 * and compaction.
 *
 * Tests use their own key prefix and never assume an empty store or a starting revision, so a backend whose opener
 * hands out one shared server (etcd) can run them too.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Result } from '@svc-apiserver/api';
import type { Backend, BackendEvent, KeyValue } from './backend.js';

/** What the suite gets from a backend's opener for each test. */
export interface BackendFixture {
  readonly backend: Backend;
  /** Closes the store and opens it again from its durable state; durable backends only. */
  readonly reopen?: () => Promise<Backend>;
  /** Releases what the opener made (files, servers); called after the backend is closed. */
  readonly cleanup?: () => Promise<void>;
}

/** Opens a fresh (or freshly usable) store for one test. */
export type BackendOpener = () => Promise<BackendFixture>;

let prefixCounter = 0;
/** A key prefix no other test (or earlier run against a shared store) uses. */
function freshPrefix(): string {
  prefixCounter += 1;
  return `/registry/suite/${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}-${prefixCounter}/`;
}

/** Unwraps a result a test expects to succeed (fails the test otherwise). */
export function ok<T>(result: Result<T, unknown>): T {
  if (!result.ok) assert.fail(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

/** Unwraps a result a test expects to fail, returning its error (fails the test otherwise). */
export function err<E>(result: Result<unknown, E>): E {
  if (result.ok) assert.fail(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

/** A watch that records what it is told. */
interface Recorder {
  readonly events: BackendEvent[];
  readonly errors: unknown[];
  /** Resolves once `n` events arrived (rejects after `ms`). */
  waitForEvents(n: number, ms?: number): Promise<void>;
  waitForError(ms?: number): Promise<void>;
  cancel(): void;
}

function record(backend: Backend, prefix: string, afterRevision: number): Recorder {
  const events: BackendEvent[] = [];
  const errors: unknown[] = [];
  let wake: (() => void) | undefined;
  const handle = backend.watch(prefix, afterRevision, {
    onEvents(batch) {
      events.push(...batch);
      wake?.();
    },
    onError(error) {
      errors.push(error);
      wake?.();
    },
  });
  const until = async (done: () => boolean, what: string, ms: number): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 20);
      });
    }
  };
  return {
    events,
    errors,
    waitForEvents: (n, ms = 5000) => until(() => events.length >= n || errors.length > 0, `${n} events`, ms),
    waitForError: (ms = 5000) => until(() => errors.length > 0, 'an error', ms),
    cancel: () => handle.cancel(),
  };
}

const settle = (ms = 50): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the conformance tests for one backend under `describe(name)`. */
export function runBackendSuite(name: string, open: BackendOpener): void {
  /** Runs `body` against a fresh fixture and always closes it. */
  const withBackend = async (body: (b: Backend, fixture: BackendFixture) => Promise<Backend | void>): Promise<void> => {
    const fixture = await open();
    let backend = fixture.backend;
    try {
      const replaced = await body(backend, fixture);
      if (replaced !== undefined) backend = replaced;
    } finally {
      await backend.close();
      await fixture.cleanup?.();
    }
  };

  describe(`Backend conformance: ${name}`, () => {
    test('create then get returns the stored value with create and mod revision', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const before = await b.currentRevision();
        const kv = ok(await b.create(`${p}a`, 'one'));
        assert.equal(kv.key, `${p}a`);
        assert.equal(kv.value, 'one');
        assert.ok(kv.modRevision > before);
        assert.equal(kv.createRevision, kv.modRevision);
        assert.equal(await b.currentRevision(), kv.modRevision);
        const got = ok(await b.get(`${p}a`));
        assert.deepEqual(got.kv, kv);
        assert.equal(got.revision, kv.modRevision);
        const missing = ok(await b.get(`${p}nope`));
        assert.equal(missing.kv, undefined);
      }));

    test('create of an existing key fails with KeyExists and the current value', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const kv = ok(await b.create(`${p}a`, 'one'));
        const e = err(await b.create(`${p}a`, 'two'));
        assert.equal(e.code, 'KeyExists');
        assert.deepEqual(e.current, kv);
        assert.equal(ok(await b.get(`${p}a`)).kv?.value, 'one');
        assert.equal(await b.currentRevision(), kv.modRevision, 'a failed write takes no revision');
      }));

    test('update is a compare-and-swap on the mod revision', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const v1 = ok(await b.create(`${p}a`, 'one'));
        const v2 = ok(await b.update(`${p}a`, 'two', v1.modRevision));
        assert.equal(v2.value, 'two');
        assert.equal(v2.createRevision, v1.createRevision);
        assert.ok(v2.modRevision > v1.modRevision);
        const stale = err(await b.update(`${p}a`, 'three', v1.modRevision));
        assert.equal(stale.code, 'Conflict');
        assert.ok(stale.code === 'Conflict');
        assert.deepEqual(stale.current, v2);
        assert.equal(ok(await b.get(`${p}a`)).kv?.value, 'two');
        assert.deepEqual(err(await b.update(`${p}missing`, 'x', 1)), { code: 'NotFound' });
      }));

    test('delete is a compare-and-swap and returns the deleted value at the delete revision', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const v1 = ok(await b.create(`${p}a`, 'one'));
        const v2 = ok(await b.update(`${p}a`, 'two', v1.modRevision));
        const stale = err(await b.delete(`${p}a`, v1.modRevision));
        assert.ok(stale.code === 'Conflict');
        assert.deepEqual(stale.current, v2);
        const deleted = ok(await b.delete(`${p}a`, v2.modRevision));
        assert.equal(deleted.value, 'two');
        assert.equal(deleted.createRevision, v1.createRevision);
        assert.ok(deleted.modRevision > v2.modRevision);
        assert.equal(await b.currentRevision(), deleted.modRevision);
        assert.equal(ok(await b.get(`${p}a`)).kv, undefined);
        assert.deepEqual(err(await b.delete(`${p}a`)), { code: 'NotFound' });
        assert.deepEqual(err(await b.update(`${p}a`, 'x', deleted.modRevision)), { code: 'NotFound' });
        // Unconditional delete, and a key created again starts a new life.
        const again = ok(await b.create(`${p}a`, 'three'));
        assert.ok(again.createRevision > deleted.modRevision);
        ok(await b.delete(`${p}a`));
        assert.equal(ok(await b.get(`${p}a`)).kv, undefined);
      }));

    test('revisions increase strictly across keys', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        let last = await b.currentRevision();
        for (let i = 0; i < 10; i++) {
          const kv = ok(await b.create(`${p}k${i % 3}-${i}`, `${i}`));
          assert.ok(kv.modRevision > last, `revision ${kv.modRevision} after ${last}`);
          last = kv.modRevision;
          const up = ok(await b.update(kv.key, `${i}b`, kv.modRevision));
          assert.ok(up.modRevision > last);
          last = up.modRevision;
        }
      }));

    test('get at an old revision sees the value of that time; a future revision fails', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const before = await b.currentRevision();
        const v1 = ok(await b.create(`${p}a`, 'one'));
        const v2 = ok(await b.update(`${p}a`, 'two', v1.modRevision));
        const del = ok(await b.delete(`${p}a`));
        assert.deepEqual(ok(await b.get(`${p}a`, { revision: v1.modRevision })).kv, v1);
        assert.deepEqual(ok(await b.get(`${p}a`, { revision: v2.modRevision })).kv, v2);
        assert.equal(ok(await b.get(`${p}a`, { revision: del.modRevision })).kv, undefined);
        if (before > 0) assert.equal(ok(await b.get(`${p}a`, { revision: before })).kv, undefined);
        const atOld = ok(await b.get(`${p}a`, { revision: v1.modRevision }));
        assert.equal(atOld.revision, v1.modRevision);
        const current = await b.currentRevision();
        assert.deepEqual(err(await b.get(`${p}a`, { revision: current + 1000 })), {
          code: 'FutureRevision',
          currentRevision: current,
        });
        assert.equal(err(await b.list(p, { revision: current + 1 })).code, 'FutureRevision');
      }));

    test('list returns keys under the prefix in order, with limit, startKey and more', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const names = ['c', 'a', 'e', 'b', 'd'];
        for (const n of names) ok(await b.create(`${p}ns/${n}`, n));
        ok(await b.create(`${p}ns2/x`, 'outside'));
        ok(await b.create(`${p}n`, 'outside too'));
        const all = ok(await b.list(`${p}ns/`));
        assert.deepEqual(all.kvs.map((kv) => kv.value), ['a', 'b', 'c', 'd', 'e']);
        assert.equal(all.more, false);
        assert.equal(all.revision, await b.currentRevision());
        const first = ok(await b.list(`${p}ns/`, { limit: 2 }));
        assert.deepEqual(first.kvs.map((kv) => kv.value), ['a', 'b']);
        assert.equal(first.more, true);
        const rest = ok(await b.list(`${p}ns/`, { limit: 3, startKey: `${p}ns/c`, revision: first.revision }));
        assert.deepEqual(rest.kvs.map((kv) => kv.value), ['c', 'd', 'e']);
        assert.equal(rest.more, false, 'no more keys after an exactly full page');
        const exact = ok(await b.list(`${p}ns/`, { limit: 5 }));
        assert.equal(exact.more, false);
        assert.equal(exact.kvs.length, 5);
        const wide = ok(await b.list(p));
        assert.equal(wide.kvs.length, 7);
        assert.deepEqual(ok(await b.list(`${p}none/`)).kvs, []);
      }));

    test('pages read at one revision are one snapshot, whatever is written between them', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const created: KeyValue[] = [];
        for (let i = 0; i < 6; i++) created.push(ok(await b.create(`${p}k${i}`, `v${i}`)));
        const page1 = ok(await b.list(p, { limit: 3 }));
        assert.deepEqual(page1.kvs.map((kv) => kv.key), [`${p}k0`, `${p}k1`, `${p}k2`]);
        // Writes after the first page: a new key, an update, a delete, all in the range of the next page.
        ok(await b.create(`${p}k3a`, 'new'));
        ok(await b.update(`${p}k4`, 'changed', created[4]!.modRevision));
        ok(await b.delete(`${p}k5`));
        const next = `${page1.kvs[2]!.key}\u0000`;
        const page2 = ok(await b.list(p, { limit: 3, startKey: next, revision: page1.revision }));
        assert.equal(page2.revision, page1.revision);
        assert.deepEqual(page2.kvs, created.slice(3));
        assert.equal(page2.more, false);
        const now = ok(await b.list(p, { startKey: next }));
        assert.deepEqual(now.kvs.map((kv) => kv.value), ['v3', 'new', 'changed']);
      }));

    test('list at an old revision shows keys deleted since and hides keys created since', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        ok(await b.create(`${p}a`, 'a'));
        const bkv = ok(await b.create(`${p}b`, 'b'));
        ok(await b.delete(`${p}a`));
        ok(await b.create(`${p}c`, 'c'));
        const old = ok(await b.list(p, { revision: bkv.modRevision }));
        assert.deepEqual(old.kvs.map((kv) => kv.value), ['a', 'b']);
        const now = ok(await b.list(p));
        assert.deepEqual(now.kvs.map((kv) => kv.value), ['b', 'c']);
      }));

    test('count counts live keys under the prefix', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        for (let i = 0; i < 5; i++) ok(await b.create(`${p}x/${i}`, 'v'));
        ok(await b.create(`${p}y/0`, 'v'));
        ok(await b.delete(`${p}x/2`));
        const c = await b.count(`${p}x/`);
        assert.equal(c.count, 4);
        assert.equal(c.revision, await b.currentRevision());
        assert.equal((await b.count(p)).count, 5);
        assert.equal((await b.count(`${p}z/`)).count, 0);
      }));

    test('watch delivers puts and deletes in order with prevKv, filtered by prefix', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        ok(await b.create(`${p}before`, 'old'));
        const w = record(b, `${p}in/`, await b.currentRevision());
        try {
          const c = ok(await b.create(`${p}in/a`, 'one'));
          ok(await b.create(`${p}out/a`, 'elsewhere'));
          const u = ok(await b.update(`${p}in/a`, 'two', c.modRevision));
          const d = ok(await b.delete(`${p}in/a`, u.modRevision));
          await w.waitForEvents(3);
          await settle();
          assert.deepEqual(w.errors, []);
          assert.equal(w.events.length, 3, 'only events under the prefix, each once');
          const [e1, e2, e3] = w.events;
          assert.equal(e1!.type, 'put');
          assert.deepEqual(e1!.kv, c);
          assert.equal(e1!.prevKv, undefined, 'a create has no prevKv');
          assert.equal(e2!.type, 'put');
          assert.deepEqual(e2!.kv, u);
          assert.deepEqual(e2!.prevKv, c);
          assert.equal(e3!.type, 'delete');
          assert.deepEqual(e3!.kv, d);
          assert.equal(e3!.kv.modRevision, d.modRevision);
          assert.equal(e3!.kv.value, 'two');
          assert.deepEqual(e3!.prevKv, u);
        } finally {
          w.cancel();
        }
      }));

    test('watch from an old revision replays history, then continues live without gap or duplicate', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const start = await b.currentRevision();
        const acked: number[] = [];
        for (let i = 0; i < 20; i++) acked.push(ok(await b.create(`${p}h${i}`, `${i}`)).modRevision);
        // History also holds an update and a delete, whose replayed events carry prevKv.
        const h0 = ok(await b.update(`${p}h0`, 'h0b', acked[0]!));
        acked.push(h0.modRevision);
        acked.push(ok(await b.delete(`${p}h0`)).modRevision);
        const later = record(b, p, acked[4]!);
        const fromStart = record(b, p, start);
        try {
          // Writers keep going while the watches replay.
          const writes: Promise<void>[] = [];
          for (let i = 0; i < 40; i++) {
            writes.push(
              (async () => {
                const kv = ok(await b.create(`${p}l${i}`, `${i}`));
                acked.push(kv.modRevision);
                acked.push(ok(await b.update(kv.key, 'u', kv.modRevision)).modRevision);
              })(),
            );
          }
          await Promise.all(writes);
          await fromStart.waitForEvents(acked.length);
          await later.waitForEvents(acked.length - 5);
          await settle();
          const sorted = [...acked].sort((x, y) => x - y);
          assert.deepEqual(w2revs(fromStart.events), sorted);
          assert.deepEqual(w2revs(later.events), sorted.slice(5));
          assert.deepEqual(fromStart.errors, []);
          const replayedUpdate = fromStart.events[20]!;
          assert.equal(replayedUpdate.type, 'put');
          assert.equal(replayedUpdate.prevKv?.modRevision, acked[0]);
          assert.equal(replayedUpdate.prevKv?.value, '0');
          const replayedDelete = fromStart.events[21]!;
          assert.equal(replayedDelete.type, 'delete');
          assert.deepEqual(replayedDelete.prevKv, h0);
          assert.equal(replayedDelete.kv.value, 'h0b');
          for (const e of fromStart.events) {
            if (e.type === 'put' && e.kv.value === 'u') assert.equal(e.prevKv?.value, e.kv.key.slice(p.length + 1));
            if (e.type === 'put' && e.kv.value !== 'u' && e.kv.value !== 'h0b') assert.equal(e.prevKv, undefined);
          }
        } finally {
          later.cancel();
          fromStart.cancel();
        }
      }));

    test('watch from the future waits for that revision', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const now = await b.currentRevision();
        const w = record(b, p, now + 2);
        try {
          ok(await b.create(`${p}1`, 'x'));
          ok(await b.create(`${p}2`, 'x'));
          const third = ok(await b.create(`${p}3`, 'x'));
          await w.waitForEvents(1);
          await settle();
          assert.deepEqual(w2revs(w.events), [third.modRevision]);
        } finally {
          w.cancel();
        }
      }));

    test('cancel stops delivery', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const w = record(b, p, await b.currentRevision());
        ok(await b.create(`${p}a`, 'x'));
        await w.waitForEvents(1);
        w.cancel();
        ok(await b.create(`${p}b`, 'x'));
        const kv = ok(await b.create(`${p}c`, 'x'));
        ok(await b.update(kv.key, 'y', kv.modRevision));
        await settle(100);
        assert.equal(w.events.length, 1);
        // Cancel in the same tick as a write: nothing of it arrives.
        const w2 = record(b, p, await b.currentRevision());
        const pending = b.create(`${p}d`, 'x');
        w2.cancel();
        ok(await pending);
        await settle(100);
        assert.equal(w2.events.length, 0);
      }));

    test('compaction: older reads and watches fail with Compacted, current values stay', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const a1 = ok(await b.create(`${p}a`, 'a1'));
        const a2 = ok(await b.update(`${p}a`, 'a2', a1.modRevision));
        const gone = ok(await b.create(`${p}gone`, 'g'));
        ok(await b.delete(`${p}gone`, gone.modRevision));
        const bkv = ok(await b.create(`${p}b`, 'b1'));
        const a3 = ok(await b.update(`${p}a`, 'a3', a2.modRevision));
        const target = bkv.modRevision;
        await b.compact(target);
        assert.ok((await b.compactRevision()) >= target);
        const compacted = await b.compactRevision();
        const e = err(await b.get(`${p}a`, { revision: a1.modRevision }));
        assert.deepEqual(e, { code: 'Compacted', compactRevision: compacted });
        assert.equal(err(await b.list(p, { revision: a2.modRevision })).code, 'Compacted');
        // The compacted revision itself is still readable, and so is everything after it.
        assert.deepEqual(ok(await b.get(`${p}a`, { revision: target })).kv, a2);
        const atTarget = ok(await b.list(p, { revision: target }));
        assert.deepEqual(atTarget.kvs.map((kv) => kv.value), ['a2', 'b1']);
        const now = ok(await b.list(p));
        assert.deepEqual(now.kvs, [a3, bkv]);
        assert.equal((await b.count(p)).count, 2);
        // A watch that needs compacted history ends with Compacted; one from just below the target does not.
        const old = record(b, p, a1.modRevision);
        const fresh = record(b, p, target - 1);
        try {
          await old.waitForError();
          assert.deepEqual(old.errors, [{ code: 'Compacted', compactRevision: compacted }]);
          assert.equal(old.events.length, 0);
          await fresh.waitForEvents(2);
          await settle();
          assert.deepEqual(w2revs(fresh.events), [bkv.modRevision, a3.modRevision]);
          assert.deepEqual(fresh.events[1]!.prevKv, a2);
          assert.deepEqual(fresh.errors, []);
        } finally {
          old.cancel();
          fresh.cancel();
        }
        // Writes go on after a compaction; a deleted key can be created again.
        ok(await b.create(`${p}gone`, 'again'));
        ok(await b.update(`${p}a`, 'a4', a3.modRevision));
        assert.equal(ok(await b.get(`${p}gone`)).kv?.value, 'again');
        await b.compact(await b.currentRevision());
        assert.deepEqual(ok(await b.list(p)).kvs.map((kv) => kv.value), ['a4', 'b1', 'again']);
      }));

    test('200 concurrent writes are all acknowledged with distinct revisions', () =>
      withBackend(async (b) => {
        const p = freshPrefix();
        const before = await b.currentRevision();
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => b.create(`${p}${String(i).padStart(3, '0')}`, `${i}`)),
        );
        const revs = results.map((r) => ok(r).modRevision);
        assert.equal(new Set(revs).size, 200);
        assert.ok(revs.every((r) => r > before));
        const listed = ok(await b.list(p));
        assert.equal(listed.kvs.length, 200);
        assert.deepEqual(
          listed.kvs.map((kv) => kv.modRevision),
          revs,
          'each key holds the revision its write was acknowledged with',
        );
        // Concurrent compare-and-swaps on one key: exactly one wins, the rest see Conflict with the winner.
        const base = ok(await b.create(`${p}cas`, '0'));
        const attempts = await Promise.all(
          Array.from({ length: 20 }, (_, i) => b.update(`${p}cas`, `${i}`, base.modRevision)),
        );
        const winners = attempts.filter((r) => r.ok);
        assert.equal(winners.length, 1);
        for (const r of attempts) {
          if (!r.ok) {
            assert.ok(r.error.code === 'Conflict');
            assert.deepEqual(r.error.current, ok(winners[0]!));
          }
        }
      }));

    test('reopen keeps data, history and the revision counter', async (t) => {
      const fixture = await open();
      if (fixture.reopen === undefined) {
        await fixture.backend.close();
        await fixture.cleanup?.();
        t.skip('not a durable backend');
        return;
      }
      let b = fixture.backend;
      try {
        const p = freshPrefix();
        const v1 = ok(await b.create(`${p}a`, 'one'));
        const v2 = ok(await b.update(`${p}a`, 'two', v1.modRevision));
        const gone = ok(await b.create(`${p}gone`, 'x'));
        const del = ok(await b.delete(`${p}gone`, gone.modRevision));
        b = await fixture.reopen();
        assert.equal(await b.currentRevision(), del.modRevision, 'even when the newest write is a delete');
        assert.deepEqual(ok(await b.get(`${p}a`)).kv, v2);
        assert.deepEqual(ok(await b.get(`${p}a`, { revision: v1.modRevision })).kv, v1);
        assert.equal(ok(await b.get(`${p}gone`)).kv, undefined);
        const next = ok(await b.create(`${p}b`, 'three'));
        assert.equal(next.modRevision, del.modRevision + 1);
        await b.compact(next.modRevision);
        const compacted = await b.compactRevision();
        b = await fixture.reopen();
        assert.equal(await b.compactRevision(), compacted, 'the compacted revision survives a reopen');
        assert.equal(await b.currentRevision(), next.modRevision);
        assert.deepEqual(ok(await b.list(p)).kvs, [v2, next]);
      } finally {
        await b.close();
        await fixture.cleanup?.();
      }
    });
  });
}

/** The revisions of a watch's events, in delivery order. */
function w2revs(events: readonly BackendEvent[]): number[] {
  return events.map((e) => e.kv.modRevision);
}
