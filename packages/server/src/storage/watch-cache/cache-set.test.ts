import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Backend, BackendWatch, WatchListener } from '../backend.js';
import { openMemoryBackend } from '../memory/memory-backend.js';
import { createCacheSet, resourcePrefixOf } from './cache-set.js';
import { objectCodec } from './stored-object.js';

const prefix = '/registry/core/configmaps/';
const codec = objectCodec('v1', 'ConfigMap');
const value = (name: string, v = '') => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } });

/** A memory backend whose feed can be failed and whose lists can be held, to drive the cache set's edges. */
function controllableBackend() {
  const inner = openMemoryBackend();
  const listeners: WatchListener[] = [];
  const handles: BackendWatch[] = [];
  let listGate: Promise<void> | undefined;
  const backend: Backend = {
    ...inner,
    async list(p, options) {
      const res = await inner.list(p, options);
      if (listGate !== undefined) await listGate;
      return res;
    },
    watch(p, after, listener) {
      listeners.push(listener);
      const handle = inner.watch(p, after, listener);
      handles.push(handle);
      return handle;
    },
  };
  return {
    backend,
    inner,
    /** Ends the current feed as a lost store would. */
    failFeed: () => {
      handles.at(-1)!.cancel();
      listeners.at(-1)!.onError({ code: 'Unavailable', message: 'store lost' });
    },
    feeds: () => listeners.length,
    holdLists(): () => void {
      let release!: () => void;
      listGate = new Promise((r) => { release = r; });
      return () => { listGate = undefined; release(); };
    },
  };
}

test('resourcePrefixOf: the group/resource part of a key', () => {
  assert.equal(resourcePrefixOf('/registry/core/configmaps/ns/a'), '/registry/core/configmaps/');
  assert.equal(resourcePrefixOf('/registry/core/namespaces/a'), '/registry/core/namespaces/');
  assert.equal(resourcePrefixOf('/registry/core'), undefined);
});

test('cache set: a cache is built on first use, follows writes, and consistent reads wait until the feed passed a revision', async () => {
  const { backend, inner } = controllableBackend();
  const caches = createCacheSet(backend, { restartDelayMs: 10 });
  await inner.create(`${prefix}ns/a`, value('a'));
  const cache = await caches.cache(prefix, codec);
  assert.ok(cache);
  assert.equal(caches.running(), true);
  assert.deepEqual(cache.list(prefix).map((o) => o.key), [`${prefix}ns/a`]);
  const b = await inner.create(`${prefix}ns/b`, value('b'));
  assert.ok(b.ok);
  // The write is committed; the cache has it once the feed passed its revision (the consistent-read wait).
  assert.equal(await caches.waitFresh(b.value.modRevision, 1000), true);
  assert.equal(cache.get(`${prefix}ns/b`)?.revision, b.value.modRevision);
  assert.ok(caches.revision() >= b.value.modRevision);
  // A revision storage has not reached: the wait gives up after its timeout.
  const t0 = performance.now();
  assert.equal(await caches.waitFresh(b.value.modRevision + 5, 50), false);
  assert.ok(performance.now() - t0 >= 45);
  // The same cache is handed out again.
  assert.equal(await caches.cache(prefix, codec), cache);
  caches.close();
});

test('cache set: events that arrive while a cache is being listed are applied after the list', async () => {
  const { backend, inner, holdLists } = controllableBackend();
  const caches = createCacheSet(backend, { restartDelayMs: 10 });
  assert.equal(await caches.start(), true);
  const a = await inner.create(`${prefix}ns/a`, value('a'));
  assert.ok(a.ok);
  const release = holdLists();
  const pending = caches.cache(prefix, codec);
  await new Promise((r) => setTimeout(r, 10));
  const upd = await inner.update(`${prefix}ns/a`, value('a', 'changed'), a.value.modRevision);
  const created = await inner.create(`${prefix}ns/c`, value('c'));
  assert.ok(upd.ok && created.ok);
  assert.equal(await caches.waitFresh(created.value.modRevision, 1000), true);
  release();
  const cache = await pending;
  assert.ok(cache);
  assert.deepEqual(cache.list(prefix).map((o) => `${o.key.slice(prefix.length)}@${o.revision}`), [`ns/a@${upd.value.modRevision}`, `ns/c@${created.value.modRevision}`]);
  assert.equal(JSON.parse(cache.get(`${prefix}ns/a`)!.itemJson()).data.v, 'changed');
  caches.close();
});

test('cache set: a feed that cannot resume in time ends every cache watch, the caches are rebuilt, and the feed restarts', async () => {
  const { backend, inner, failFeed, feeds } = controllableBackend();
  const logs: string[] = [];
  const caches = createCacheSet(backend, { restartDelayMs: 10, resumeWindowMs: 0, log: (m) => void logs.push(m) });
  await inner.create(`${prefix}ns/a`, value('a'));
  const cache = (await caches.cache(prefix, codec))!;
  let closed = 0;
  cache.watch(prefix, { kind: 'state' }, { event: () => {}, closed: () => void closed++ });
  failFeed();
  assert.equal(closed, 1);
  assert.equal(caches.running(), false);
  assert.match(logs.join('\n'), /watch cache feed ended \(store lost\)/);
  // Writes while the feed is down are not lost: the next cache is listed afresh.
  await inner.create(`${prefix}ns/b`, value('b'));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(caches.running(), true);
  assert.equal(feeds(), 2);
  const rebuilt = (await caches.cache(prefix, codec))!;
  assert.notEqual(rebuilt, cache);
  assert.deepEqual(rebuilt.list(prefix).map((o) => o.key.slice(prefix.length)), ['ns/a', 'ns/b']);
  caches.close();
  assert.equal(await caches.cache(prefix, codec), undefined);
  assert.equal(await caches.waitFresh(1_000_000, 1000), false);
});

test('cache set: a feed lost to unavailable storage resumes from its last revision, keeping caches and watches', async () => {
  const { backend, inner, failFeed, feeds } = controllableBackend();
  const caches = createCacheSet(backend, { restartDelayMs: 10, resumeWindowMs: 5_000 });
  await inner.create(`${prefix}ns/a`, value('a'));
  const cache = (await caches.cache(prefix, codec))!;
  const events: string[] = [];
  let closed = 0;
  cache.watch(prefix, { kind: 'state' }, { event: (e) => void events.push(String((e as { type?: unknown }).type ?? 'event')), closed: () => void closed++ });
  const before = events.length;
  failFeed();
  // Written while the feed is down: the resumed feed replays it from the revision it had seen.
  await inner.create(`${prefix}ns/b`, value('b'));
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(closed, 0, 'the watch stays open');
  assert.equal(feeds(), 2);
  assert.equal(caches.running(), true);
  assert.equal(await caches.cache(prefix, codec), cache, 'the same cache serves on');
  assert.deepEqual(cache.list(prefix).map((o) => o.key.slice(prefix.length)), ['ns/a', 'ns/b']);
  assert.equal(events.length, before + 1, 'the write made during the gap arrives once');
  caches.close();
});
