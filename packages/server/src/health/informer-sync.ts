/**
 * readyz `informer-sync`: kube-apiserver is ready once its shared informers have synced. Here the reads every
 * client and controller depends on come from the watch cache, so the check asks the real thing: the controllers
 * started, the cache feed is running, and it has seen every change up to storage's current revision (a feed that
 * failed, or lags behind storage, makes the server not ready until it has caught up again).
 */
import type { Backend } from '../storage/backend.js';
import type { CacheSet } from '../storage/watch-cache/cache-set.js';
import type { HealthCheck } from './health-check.js';

/** Options of {@link informerSyncCheck}. */
export interface InformerSyncOptions {
  /** True once the controllers (the in-process informers) have started. */
  readonly controllersStarted: () => boolean;
  /** How long the check waits for the feed to catch up before failing (default 1 s). */
  readonly waitMs?: number;
}

/** The `informer-sync` readiness check over the store's watch caches. */
export function informerSyncCheck(backend: Backend, caches: CacheSet, options: InformerSyncOptions): HealthCheck {
  const waitMs = options.waitMs ?? 1000;
  return {
    name: 'informer-sync',
    async check() {
      if (!options.controllersStarted()) return 'controllers have not started';
      // The feed starts on first use; a readiness probe is a use (and restarts it sooner after a failure).
      if (!caches.running() && !(await caches.start())) return 'the watch cache feed is not running';
      let current: number;
      try {
        current = await backend.currentRevision();
      } catch (e) {
        return `storage read failed: ${(e as Error).message}`;
      }
      if (await caches.waitFresh(current, waitMs, { orStorage: true })) return undefined;
      // A store that cannot report its watch's progress (an old etcd) cannot show the feed current beyond its last
      // event: a running feed is all there is to check, as kube's informer-sync asks only that informers synced.
      if (backend.reportsProgress?.() === false) return undefined;
      return `the watch cache has not synced with storage (at revision ${caches.revision()} of ${current})`;
    },
  };
}
