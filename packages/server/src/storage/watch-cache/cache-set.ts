/**
 * The watch caches of every resource, fed by ONE watch of the Backend over the whole registry (kube runs a
 * reflector per resource; one feed here means every event tells every cache how far storage has come, which is
 * what lets a consistent read be served from a cache: read the store's current revision, wait until the feed has
 * passed it, answer from memory — kube's "consistent reads from cache").
 *
 * A resource's cache is built on first use: its prefix is listed at the current revision while the feed's events
 * for it are held back, then those above the list's revision are applied. When the feed fails (storage lost,
 * history compacted under it) every cache is dropped and every cache watch ends, so clients resume from their last
 * resourceVersion or list again; the feed restarts from the current revision. A feed that fails because storage
 * was briefly unreachable (an etcd member lost, the client moving to another) first resumes from the last revision
 * it saw, keeping the caches and their watches: only when it cannot resume within `resumeWindowMs` is it dropped.
 */
import type { Backend, BackendEvent, BackendWatch, WatchListener } from '../backend.js';
import { registryRoot } from '../key.js';
import { createResourceCache, type ResourceCache, type ResourceCacheControl } from './resource-cache.js';
import type { ObjectCodec } from './stored-object.js';

/** Options of {@link createCacheSet}. */
export interface CacheSetOptions {
  /** How long events stay in each cache's window (default 5 minutes, kube's default history). */
  readonly windowMs?: number;
  /** Most events a cache's window holds (default 100,000). */
  readonly maxEvents?: number;
  /** Period of the bookmark tick (default 1 minute, kube's bookmark frequency). */
  readonly bookmarkIntervalMs?: number;
  /** Delay before a failed feed is started again (default 1 s). */
  readonly restartDelayMs?: number;
  /** How long a feed lost to unavailable storage keeps trying to resume before the caches are dropped (default 5 s). */
  readonly resumeWindowMs?: number;
  /** Told about feed failures. */
  readonly log?: (message: string) => void;
  /** Told what the caches do (the watch cache metrics). */
  readonly observer?: CacheObserver;
}

/** What the caches report for metrics (kube's cacher metrics), by resource prefix. */
export interface CacheObserver {
  /** An event of the feed reached the cache of `prefix`. */
  received(prefix: string): void;
  /** An event was applied to the built cache of `prefix` and dispatched to its watchers. */
  dispatched(prefix: string): void;
  /** The cache of `prefix` was built: listed, then fed. */
  initialized(prefix: string): void;
}

/** Every resource's cache. */
export interface CacheSet {
  /** The cache of the resource under `prefix`, built on first use; undefined while the feed is down. */
  cache(prefix: string, codec: ObjectCodec): Promise<ResourceCache | undefined>;
  /** The cache of the resource under `prefix` if it is built and the feed runs, without waiting; else undefined. */
  built(prefix: string): ResourceCache | undefined;
  /** The revision every cache has seen all changes up to. */
  revision(): number;
  /** Starts the feed if it is not running; resolves whether it runs (false while storage cannot be watched). */
  start(): Promise<boolean>;
  /** True while the feed runs (between its start and a failure or `close`). */
  running(): boolean;
  /**
   * Resolves true once the caches have seen every change up to `revision`, false after `timeoutMs` — or at once,
   * with `orStorage` (the caller can read storage instead), when the store cannot report its watch's progress.
   */
  waitFresh(revision: number, timeoutMs: number, options?: { readonly orStorage?: boolean }): Promise<boolean>;
  /**
   * Forgets the cache of one prefix (its resource's definition changed: a CRD's schema or versions): its watches
   * end, so clients resume, and the next use builds it again.
   */
  drop(prefix: string): void;
  /** Stops the feed and ends every cache watch. */
  close(): void;
}

interface Entry {
  readonly ready: Promise<ResourceCacheControl | undefined>;
  cache?: ResourceCacheControl;
  /** Events that arrived while the prefix was being listed. */
  held?: BackendEvent[];
}

interface Waiter {
  readonly revision: number;
  readonly resolve: (fresh: boolean) => void;
}

/** The resource prefix of a key: `/registry/<group>/<resource>/`. */
export function resourcePrefixOf(key: string): string | undefined {
  let at = registryRoot.length - 1;
  for (let i = 0; i < 2; i++) {
    at = key.indexOf('/', at + 1);
    if (at < 0) return undefined;
  }
  return key.slice(0, at + 1);
}

/** Creates the cache set over a backend; the feed starts on first use. */
export function createCacheSet(backend: Backend, options: CacheSetOptions = {}): CacheSet {
  const windowMs = options.windowMs ?? 5 * 60 * 1000;
  const maxEvents = options.maxEvents ?? 100_000;
  const restartDelayMs = options.restartDelayMs ?? 1000;
  const resumeWindowMs = options.resumeWindowMs ?? 5000;
  /** When the feed first failed in the current run of failures; cleared once a resumed feed stays up. */
  let failingSince: number | undefined;
  /** Counts feed (re)starts, so a timer of an older attempt does nothing. */
  let attempt = 0;
  let entries = new Map<string, Entry>();
  let seen = 0;
  let feed: BackendWatch | undefined;
  let started: Promise<boolean> | undefined;
  let closed = false;
  const waiters = new Set<Waiter>();

  const settleWaiters = (): void => {
    for (const w of waiters) {
      if (seen >= w.revision) {
        waiters.delete(w);
        w.resolve(true);
      }
    }
  };

  const reset = (why: string): void => {
    feed?.cancel();
    feed = undefined;
    started = undefined;
    const old = entries;
    entries = new Map();
    for (const e of old.values()) e.cache?.reset();
    if (!closed) options.log?.(`watch cache feed ended (${why}); caches rebuild on next use`);
  };

  const listener: WatchListener = {
    onEvents(events) {
      for (const e of events) {
        const prefix = resourcePrefixOf(e.kv.key);
        const entry = prefix === undefined ? undefined : entries.get(prefix);
        if (entry !== undefined) options.observer?.received(prefix!);
        if (entry?.cache !== undefined) {
          entry.cache.apply(e);
          options.observer?.dispatched(prefix!);
        } else entry?.held?.push(e);
      }
      if (events.length > 0) seen = Math.max(seen, events[events.length - 1]!.kv.modRevision);
      settleWaiters();
    },
    onProgress(revision) {
      // Writes outside the registry (another prefix on a shared etcd, the compaction key) move the store's
      // revision without an event: the store's progress report says the caches are current anyway.
      seen = Math.max(seen, revision);
      settleWaiters();
    },
    onError(error) {
      feed = undefined;
      if (closed) return;
      const now = Date.now();
      if (error.code === 'Unavailable' && now - (failingSince ??= now) < resumeWindowMs) {
        setTimeout(() => resume(), Math.min(restartDelayMs, 200)).unref();
        return;
      }
      failingSince = undefined;
      reset(error.code === 'Compacted' ? 'history compacted' : error.message);
      setTimeout(() => void start(), restartDelayMs).unref();
    },
  };

  /** Watches the registry after `from`; a feed that stays up for the resume window ends a run of failures. */
  const watchFrom = (from: number): void => {
    const mine = ++attempt;
    feed = backend.watch(registryRoot, from, listener);
    if (failingSince !== undefined) {
      setTimeout(() => {
        if (attempt === mine && feed !== undefined) failingSince = undefined;
      }, resumeWindowMs).unref();
    }
  };

  /** Picks the feed up where it stopped, keeping the caches. */
  const resume = (): void => {
    if (closed || started === undefined || feed !== undefined) return;
    watchFrom(seen);
  };

  const start = (): Promise<boolean> => {
    started ??= (async () => {
      if (closed) return false;
      try {
        const from = await backend.currentRevision();
        if (closed) return false;
        seen = Math.max(seen, from);
        watchFrom(from);
        return true;
      } catch (e) {
        started = undefined;
        options.log?.(`watch cache feed could not start: ${e instanceof Error ? e.message : String(e)}`);
        return false;
      }
    })();
    return started;
  };

  const build = async (prefix: string, codec: ObjectCodec, entry: Entry): Promise<ResourceCacheControl | undefined> => {
    if (!(await start())) return undefined;
    const listed = await backend.list(prefix);
    if (!listed.ok || entries.get(prefix) !== entry) return undefined;
    const initial = listed.value.kvs.map((kv) => codec.decode(kv));
    const cache = createResourceCache(prefix, codec, initial, listed.value.revision, {
      windowMs, maxEvents, seenRevision: () => seen,
    });
    for (const e of entry.held ?? []) {
      cache.apply(e);
      options.observer?.dispatched(prefix);
    }
    delete entry.held;
    entry.cache = cache;
    options.observer?.initialized(prefix);
    return cache;
  };

  const bookmarkTimer = setInterval(() => {
    for (const e of entries.values()) e.cache?.bookmark(Math.max(seen, e.cache.revision()));
  }, options.bookmarkIntervalMs ?? 60_000);
  bookmarkTimer.unref();

  return {
    async cache(prefix, codec) {
      if (closed) return undefined;
      let entry = entries.get(prefix);
      if (entry === undefined) {
        const fresh: Entry = { held: [], ready: Promise.resolve(undefined) };
        entries.set(prefix, fresh);
        (fresh as { ready: Promise<ResourceCacheControl | undefined> }).ready = build(prefix, codec, fresh).catch(() => undefined);
        entry = fresh;
      }
      const cache = await entry.ready;
      if (cache === undefined && entries.get(prefix) === entry) entries.delete(prefix);
      return cache;
    },
    start: () => {
      if (closed) return Promise.resolve(false);
      // A feed waiting to resume is resumed now rather than after its delay.
      resume();
      return start();
    },
    built: (prefix) => (closed || feed === undefined ? undefined : entries.get(prefix)?.cache),
    running: () => feed !== undefined,
    revision: () => seen,
    waitFresh(revision, timeoutMs, options = {}) {
      if (seen >= revision) return Promise.resolve(true);
      if (timeoutMs <= 0 || closed) return Promise.resolve(false);
      void start();
      // An etcd that does not order progress reports with events cannot say the feed is current: kube reads etcd then.
      if (options.orStorage === true && backend.reportsProgress?.() === false) return Promise.resolve(false);
      feed?.requestProgress?.();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve(false);
        }, timeoutMs);
        const waiter: Waiter = {
          revision,
          resolve: (fresh) => {
            clearTimeout(timer);
            resolve(fresh);
          },
        };
        waiters.add(waiter);
      });
    },
    drop(prefix) {
      const entry = entries.get(prefix);
      if (entry === undefined) return;
      entries.delete(prefix);
      entry.cache?.reset();
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(bookmarkTimer);
      reset('closed');
      for (const w of [...waiters]) {
        waiters.delete(w);
        w.resolve(false);
      }
    },
  };
}
