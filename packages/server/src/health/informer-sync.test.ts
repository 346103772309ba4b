import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Backend, WatchListener } from '../storage/backend.js';
import { openMemoryBackend } from '../storage/memory/memory-backend.js';
import { createCacheSet } from '../storage/watch-cache/cache-set.js';
import { informerSyncCheck } from './informer-sync.js';

test('informer-sync: not ready before the controllers start, ready once the cache feed runs and has caught up', async () => {
  const backend = openMemoryBackend();
  const caches = createCacheSet(backend);
  let started = false;
  const check = informerSyncCheck(backend, caches, { controllersStarted: () => started, waitMs: 50 });
  assert.equal(check.name, 'informer-sync');
  assert.equal(await check.check(), 'controllers have not started');
  started = true;
  await backend.create('/registry/core/namespaces/a', '{}');
  // The probe starts the feed; the feed has every change up to storage's revision.
  assert.equal(await check.check(), undefined);
  assert.equal(caches.running(), true);
  caches.close();
  assert.equal(await check.check(), 'the watch cache feed is not running');
});

test('informer-sync: a feed behind storage or ended by a failure is not ready until it is back', async () => {
  const inner = openMemoryBackend();
  let ahead = 0;
  const listeners: WatchListener[] = [];
  const backend: Backend = {
    ...inner,
    currentRevision: async () => (await inner.currentRevision()) + ahead,
    watch(prefix, after, listener) {
      listeners.push(listener);
      return inner.watch(prefix, after, listener);
    },
  };
  const caches = createCacheSet(backend, { restartDelayMs: 60_000 });
  const check = informerSyncCheck(backend, caches, { controllersStarted: () => true, waitMs: 30 });
  assert.equal(await check.check(), undefined);
  // Storage reports a revision the feed has not delivered.
  ahead = 5;
  assert.match((await check.check()) ?? '', /^the watch cache has not synced with storage \(at revision \d+ of \d+\)$/);
  ahead = 0;
  assert.equal(await check.check(), undefined);
  // The feed fails; the probe restarts it (rather than waiting for the restart delay) and is ready again.
  listeners.at(-1)!.onError({ code: 'Unavailable', message: 'lost' });
  assert.equal(caches.running(), false);
  assert.equal(await check.check(), undefined);
  assert.equal(listeners.length, 2);
  caches.close();
});
