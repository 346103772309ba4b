/**
 * A shared informer, as client-go's: a reflector lists a resource and then watches it from the list's
 * resourceVersion into an indexed store, and every registered handler hears each change once, in order.
 * - With WatchList (`watchList: true`, or `'auto'` when the server accepts `sendInitialEvents`) the initial state
 *   comes from the watch itself and ends at the initial-events-end bookmark; otherwise from a list.
 * - A dropped watch resumes from the last resourceVersion seen (bookmarks included); a 410 Expired (the server lost
 *   that history, e.g. after a restart) lists again and replaces the store, telling the handlers only what changed
 *   meanwhile: objects whose resourceVersion is unchanged are not delivered again, vanished ones are deleted.
 * - Handlers added late get an add for every object already cached, as client-go's AddEventHandler does.
 * - `resyncPeriodMs` re-delivers every cached object to `onUpdate(old, new)` with old === new on a timer.
 */
import type { KubeObject, Status, WatchEvent } from '@svc-apiserver/api';
import type { ResourceRef } from './paths.js';
import type { RestClient } from './rest-client.js';
import { createIndexedStore, objectKey, type CachedObject, type IndexFunc, type StoreReader } from './indexed-store.js';
import { isInitialEventsEnd, isResourceExpired, type WatchHandle } from './watch.js';
import { sleep } from './sleep.js';

/** What a handler hears. Handlers run synchronously, one event at a time, in the order the changes happened. */
export interface InformerHandler<T extends CachedObject = KubeObject> {
  /** A new object; `initialList` is true while the informer is filling its cache. */
  onAdd?(object: T, initialList: boolean): void;
  /** A changed object (or, on resync, the same object twice). */
  onUpdate?(oldObject: T, newObject: T): void;
  /** A deleted object: its last state as the watch reported it, or as cached when a re-list found it gone. */
  onDelete?(object: T): void;
}

/** Options of an informer. */
export interface InformerOptions<T extends CachedObject = KubeObject> {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Re-deliver the whole cache to `onUpdate` this often; 0 (default) never. */
  readonly resyncPeriodMs?: number;
  /**
   * Page size of a list. Default none: one consistent list, as client-go's reflector gets when kube-apiserver serves
   * it whole from its watch cache.
   */
  readonly pageSize?: number;
  /**
   * Use WatchList for the initial state: always, never (default, as client-go 1.27 where it is opt-in), or `'auto'`:
   * when the server accepts `sendInitialEvents`, falling back to list+watch when it refuses.
   */
  readonly watchList?: boolean | 'auto';
  /** Extra indexes beyond `namespace` and `label`. */
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>>;
  /** Ask the server to end each watch after this long (it is then resumed). Default 5 to 10 minutes, jittered. */
  readonly watchTimeoutSeconds?: number;
  /** Told about failures the informer recovers from (re-lists, refused watches). */
  readonly onError?: (status: Status) => void;
}

/** A running (or not yet started) informer. */
export interface Informer<T extends CachedObject = KubeObject> {
  readonly store: StoreReader<T>;
  /** Registers a handler; returns a function that removes it. */
  addEventHandler(handler: InformerHandler<T>): () => void;
  /** Starts listing and watching; idempotent. */
  start(): void;
  /** Stops; resolves once the watch is closed. */
  stop(): Promise<void>;
  /** True once the initial state is in the store and its events were delivered. */
  hasSynced(): boolean;
  /** Resolves true once synced, false if stopped first. */
  waitForSync(): Promise<boolean>;
  /** The resourceVersion the cache reflects. */
  readonly lastSyncResourceVersion: string | undefined;
  /** True when the initial state came (or comes) from WatchList. */
  readonly usingWatchList: boolean;
}

/** The resourceVersion of an object, '' when it has none. */
const rvOf = (o: CachedObject): string => o.metadata?.resourceVersion ?? '';

/** Makes an informer of `ref` (a namespace in `ref` limits it to that namespace). */
export function createInformer<T extends CachedObject = KubeObject>(client: RestClient, ref: ResourceRef, options: InformerOptions<T> = {}): Informer<T> {
  const store = createIndexedStore<T>(options.indexers);
  const handlers = new Set<InformerHandler<T>>();
  let started = false;
  let stopped = false;
  let synced = false;
  let lastRv: string | undefined;
  let watchList = options.watchList ?? false;
  let current: WatchHandle | undefined;
  let loop: Promise<void> | undefined;
  let resyncTimer: NodeJS.Timeout | undefined;
  const stopController = new AbortController();
  const syncWaiters: Array<(v: boolean) => void> = [];

  const emit = (fn: (h: InformerHandler<T>) => void): void => {
    for (const h of handlers) fn(h);
  };
  const report = (s: Status): void => options.onError?.(s);

  /** Applies one object state; delivers nothing when the cache already holds this version. */
  function upsert(object: T, initialList: boolean): void {
    const old = store.get(objectKey(object));
    if (old !== undefined && rvOf(old) === rvOf(object) && rvOf(object) !== '') return;
    store.put(object);
    if (old === undefined) emit((h) => h.onAdd?.(object, initialList));
    else emit((h) => h.onUpdate?.(old, object));
  }

  function remove(object: T): void {
    const old = store.remove(objectKey(object));
    if (old !== undefined) emit((h) => h.onDelete?.(object));
  }

  /** Replaces the cache with a full state (a list or WatchList's initial events). */
  function replace(items: readonly T[], rv: string): void {
    const initial = !synced;
    const seen = new Set<string>();
    for (const o of items) {
      seen.add(objectKey(o));
      upsert(o, initial);
    }
    for (const key of store.keys()) {
      if (seen.has(key)) continue;
      const gone = store.get(key);
      if (gone !== undefined) remove(gone);
    }
    lastRv = rv;
    if (!synced) {
      synced = true;
      for (const w of syncWaiters.splice(0)) w(true);
      if ((options.resyncPeriodMs ?? 0) > 0) {
        resyncTimer = setInterval(() => {
          for (const o of store.list()) emit((h) => h.onUpdate?.(o, o));
        }, options.resyncPeriodMs);
        resyncTimer.unref();
      }
    }
  }

  const timeoutSeconds = (): number => options.watchTimeoutSeconds ?? Math.floor(300 + Math.random() * 300);

  /** Reads watch events into the cache; returns why it stopped: re-list, or back off and re-list. */
  async function consume(handle: WatchHandle, initial: Map<string, T> | undefined): Promise<'relist' | 'backoff' | 'fallback'> {
    let buffer = initial;
    // the wire carries objects of the informer's type; the REST client reads them as loose objects
    for await (const event of handle as unknown as AsyncIterable<WatchEvent<T>>) {
      if (stopped) return 'relist';
      if (event.type === 'ERROR') {
        const status = event.object as unknown as Status;
        report(status);
        if (isResourceExpired(event)) return 'relist';
        // a server that refuses WatchList answers 4xx before any event: list instead from now on
        if (buffer !== undefined && watchList === 'auto' && status.code >= 400 && status.code < 500) return 'fallback';
        return 'backoff';
      }
      if (buffer !== undefined) {
        if (event.type === 'ADDED') buffer.set(objectKey(event.object), event.object);
        else if (isInitialEventsEnd(event)) {
          replace([...buffer.values()], rvOf(event.object));
          buffer = undefined;
        }
        continue;
      }
      const rv = rvOf(event.object);
      if (event.type === 'ADDED' || event.type === 'MODIFIED') upsert(event.object, false);
      else if (event.type === 'DELETED') remove(event.object);
      if (rv !== '') lastRv = rv;
    }
    return stopped ? 'relist' : 'backoff';
  }

  async function listAndWatch(): Promise<'relist' | 'backoff' | 'fallback'> {
    const watchOptions = {
      ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}),
      ...(options.fieldSelector ? { fieldSelector: options.fieldSelector } : {}),
      allowWatchBookmarks: true,
      timeoutSeconds: timeoutSeconds(),
      signal: stopController.signal,
    };
    if (watchList !== false) {
      current = client.watch(ref, { ...watchOptions, sendInitialEvents: true, ...(lastRv !== undefined ? { resourceVersion: lastRv } : {}) });
      return consume(current, new Map());
    }
    const listed = await client.listAll(ref, {
      ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}),
      ...(options.fieldSelector ? { fieldSelector: options.fieldSelector } : {}),
      ...(options.pageSize !== undefined ? { limit: options.pageSize } : {}),
    });
    if (stopped) return 'relist';
    if (!listed.ok) {
      report(listed.error);
      return 'backoff';
    }
    replace(listed.value.items as unknown as T[], listed.value.metadata.resourceVersion ?? '');
    current = client.watch(ref, { ...watchOptions, ...(lastRv ? { resourceVersion: lastRv } : {}) });
    return consume(current, undefined);
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      const next = await listAndWatch();
      current?.close();
      if (stopped) return;
      if (next === 'fallback') {
        watchList = false;
        continue;
      }
      if (next === 'relist') {
        failures = 0;
        continue;
      }
      failures++;
      await sleep(Math.min(800 * 2 ** (failures - 1), 30_000), stopController.signal);
    }
  }

  return {
    store,
    addEventHandler(handler) {
      handlers.add(handler);
      for (const o of store.list()) handler.onAdd?.(o, !synced);
      return () => handlers.delete(handler);
    },
    start() {
      if (started) return;
      started = true;
      loop = run();
    },
    async stop() {
      stopped = true;
      stopController.abort();
      current?.close();
      if (resyncTimer !== undefined) clearInterval(resyncTimer);
      for (const w of syncWaiters.splice(0)) w(false);
      await loop;
    },
    hasSynced: () => synced,
    waitForSync() {
      if (synced) return Promise.resolve(true);
      if (stopped) return Promise.resolve(false);
      return new Promise((resolve) => syncWaiters.push(resolve));
    },
    get lastSyncResourceVersion() {
      return lastRv;
    },
    get usingWatchList() {
      return watchList !== false;
    },
  };
}

/** Hands out one informer per resource and selection, shared by every caller (client-go's SharedInformerFactory). */
export interface InformerFactory {
  /** The shared informer of `ref` with these selectors; options other than selectors apply when it is first made. */
  informerFor<T extends CachedObject = KubeObject>(ref: ResourceRef, options?: InformerOptions<T>): Informer<T>;
  /** Starts every informer made so far. */
  start(): void;
  /** Resolves true once every informer made so far has synced. */
  waitForCacheSync(): Promise<boolean>;
  stop(): Promise<void>;
}

/** Makes an informer factory over a client. */
export function createInformerFactory(client: RestClient, defaults: InformerOptions = {}): InformerFactory {
  const informers = new Map<string, Informer<KubeObject>>();
  return {
    informerFor<T extends CachedObject>(ref: ResourceRef, options: InformerOptions<T> = {}) {
      const key = JSON.stringify([ref.group, ref.version, ref.resource, ref.namespace ?? '', options.labelSelector ?? '', options.fieldSelector ?? '']);
      let informer = informers.get(key);
      if (informer === undefined) {
        informer = createInformer<KubeObject>(client, ref, { ...defaults, ...options } as InformerOptions);
        informers.set(key, informer);
      }
      return informer as unknown as Informer<T>;
    },
    start() {
      for (const i of informers.values()) i.start();
    },
    async waitForCacheSync() {
      const all = await Promise.all([...informers.values()].map((i) => i.waitForSync()));
      return all.every(Boolean);
    },
    async stop() {
      await Promise.all([...informers.values()].map((i) => i.stop()));
    },
  };
}
