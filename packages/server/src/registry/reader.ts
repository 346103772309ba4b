/**
 * The store's reads — get, list, watch — with document 1's resourceVersion table, served the way kube-apiserver's
 * cacher and etcd3 store split them: from the watch cache whenever the cache can answer (RV `0`, not-older-than,
 * consistent reads once the cache has caught up with storage's current revision, watches from any revision in its
 * window) and from storage otherwise (exact revisions, continue tokens, watches older than the window, a cache
 * that is down). Pages of one list share one snapshot: a first page from the cache at revision R continues from
 * storage at R.
 */
import {
  apiVersionOf, fail, gone, internalError, namesFor, notFound, ok, tooLargeResourceVersion, type Names, type Result,
  type Status, type WatchEvent,
} from '@svc-apiserver/api';
import type { Backend, BackendError } from '../storage/backend.js';
import { keyUnderPrefix } from '../storage/key.js';
import type { CacheSet } from '../storage/watch-cache/cache-set.js';
import type { CacheEvent, CacheWatchSink, ResourceCache } from '../storage/watch-cache/resource-cache.js';
import { objectCodec, storedTypeCodec, type ObjectCodec, type StoredObject } from '../storage/watch-cache/stored-object.js';
import { convertingView, type ConvertingView } from './conversion/converting-view.js';
import { continueTokens, expiredContinueMessage, type ContinueTokens } from './continue-token.js';
import type { ResourceDef } from './resource-def.js';
import { listReadMode, parseResourceVersion, watchMode, type ReadMode } from './resource-versions.js';
import { selectsStored, type Selection } from './selection.js';
import { watchCacheMetrics } from './storage-metrics.js';
import { inProcessDelivery } from './in-process-delivery.js';
import { copyStored, isLargeStored } from './stored-copy.js';

/** Options of the reads. */
export interface ReaderOptions {
  /** Names of the served flavour (messages, the initial-events-end annotation). */
  readonly names?: Names;
  /** The WatchList feature gate: `sendInitialEvents` on watches. */
  readonly watchList?: boolean;
  /** How long a read of a revision newer than the cache waits before 504 (kube's watch cache: 3 s). */
  readonly tooLargeWaitMs?: number;
  /** How long a consistent read waits for the cache to catch up before reading storage instead. */
  readonly consistentWaitMs?: number;
  /** Key signing continue tokens (default: random per process). */
  readonly continueTokenKey?: Uint8Array;
}

/** What a list reads. */
export interface ReadListQuery {
  readonly namespace: string;
  readonly selection: Selection;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  /** Forbidden on lists (ValidateListOptions); carried to be refused. */
  readonly sendInitialEvents?: boolean;
}

/** One page of a list: stored objects whose serialized forms are written as they are. */
export interface ListPage {
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
  readonly items: readonly StoredObject[];
}

/** What a watch follows. */
export interface WatchQuery {
  readonly namespace: string;
  readonly selection: Selection;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  /** `sendInitialEvents`; undefined when absent. */
  readonly sendInitialEvents?: boolean;
  readonly allowWatchBookmarks?: boolean;
}

/** Where a watch delivers. */
export interface WatchSink {
  /** An event as an object of the caller's own (in-process watchers). Not called when `frame` is given. */
  event(event: WatchEvent): void;
  /** The watch ended with a failure (410 Expired when its history is gone). */
  error(status: Status): void;
  /**
   * An event already serialized as one JSON line (HTTP watchers): the same bytes go to every watcher.
   * `live` is false for the initial state, which is not subject to a slow watcher's buffer limit.
   */
  frame?(bytes: Uint8Array, live: boolean): void;
  /** The watch ended without a failure (its cache was reset): the client resumes from its last resourceVersion. */
  end?(): void;
}

/** A running watch. */
export interface WatchHandle {
  cancel(): void;
  /**
   * Sends a BOOKMARK now if the cache moved past where the watch started (before a watch times out), as kube's
   * cacheWatcher does: its selection may have filtered out every change since.
   */
  bookmark(): void;
}

type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A page read from storage: the revision it was read at, its items, and the key the next page starts at. */
interface StoragePage {
  readonly revision: number;
  readonly items: StoredObject[];
  readonly next?: string;
}

const encoder = new TextEncoder();

function collectionPrefixOf(def: ResourceDef, namespace: string): string {
  return def.namespaced && namespace ? `${def.keyPrefix}${namespace}/` : def.keyPrefix;
}

function tooOld(requested: number, compacted: number): Status {
  return gone(`too old resource version: ${requested} (${compacted})`);
}

/** The watch event a change is for a selection: a change that leaves the selection is a DELETED. */
function watchEventOf(def: ResourceDef, selection: Selection, e: CacheEvent): { type: WatchType; object: StoredObject } | undefined {
  if (e.type === 'delete') {
    return selectsStored(def, selection, e.previous ?? e.object) ? { type: 'DELETED', object: e.object } : undefined;
  }
  const nowIn = selectsStored(def, selection, e.object);
  const wasIn = e.previous !== undefined && selectsStored(def, selection, e.previous);
  if (nowIn) return { type: wasIn ? 'MODIFIED' : 'ADDED', object: e.object };
  // Its last selected state, at the revision it left.
  return wasIn ? { type: 'DELETED', object: e.previous!.at(e.revision) } : undefined;
}

/** The bytes before and after the object in a watch event's JSON line, by event type. */
const frameHeads: Readonly<Record<WatchType, Buffer>> = {
  ADDED: Buffer.from('{"type":"ADDED","object":'),
  MODIFIED: Buffer.from('{"type":"MODIFIED","object":'),
  DELETED: Buffer.from('{"type":"DELETED","object":'),
};
const frameTail = Buffer.from('}\n');

/** A watch event of a stored object as one JSON line, copied from the object's bytes. */
function frameOf(type: WatchType, object: StoredObject): Uint8Array {
  return object.objectBytes(frameHeads[type], frameTail);
}

/**
 * A codec applying a custom resource's schema defaults to objects read from storage (kube defaults on decode, so
 * a default added to a schema shows on objects written before it); a schema without defaults costs nothing.
 */
function readDefaulting(codec: ObjectCodec, defaults: () => ((object: unknown) => void) | undefined): ObjectCodec {
  return {
    kind: codec.kind,
    apiVersion: codec.apiVersion,
    decode(kv, revision) {
      const apply = defaults();
      if (apply === undefined) return codec.decode(kv, revision);
      const object = JSON.parse(kv.value) as unknown;
      apply(object);
      return codec.decode({ ...kv, value: JSON.stringify(object) }, revision);
    },
  };
}

/** Creates the reads over a backend and its caches. */
export function createReader(backend: Backend, caches: CacheSet, options: ReaderOptions = {}) {
  const names = options.names ?? namesFor('svc');
  const tooLargeWaitMs = options.tooLargeWaitMs ?? 3000;
  const consistentWaitMs = options.consistentWaitMs ?? 1000;
  const tokens: ContinueTokens = continueTokens(options.continueTokenKey);
  const codecs = new Map<string, ObjectCodec>();
  // Versions stored in another version: the shared cache holds the storage version, each served version a view.
  const views = new Map<string, ConvertingView>();
  const viewOf = (def: ResourceDef): ConvertingView | undefined => {
    if (def.conversion === undefined) return undefined;
    const id = `${def.group}/${def.version}/${def.resource}`;
    let v = views.get(id);
    if (v === undefined) {
      v = convertingView(def.conversion, apiVersionOf(def.group, def.version), def.kind);
      views.set(id, v);
    }
    return v;
  };
  /** The defaults of the custom resource last read under each prefix (its schema may change while its cache lives). */
  const readDefaults = new Map<string, (object: unknown) => void>();
  const codecOf = (def: ResourceDef): ObjectCodec => {
    const view = viewOf(def);
    if (view !== undefined) return view.codec;
    if (def.custom?.hasDefaults === true) readDefaults.set(def.keyPrefix, def.custom.applyDefaults);
    else readDefaults.delete(def.keyPrefix);
    let c = codecs.get(def.keyPrefix);
    if (c === undefined) {
      // Custom objects converted by a webhook keep the version they were stored in (the webhook converts from it).
      c = def.custom?.converter !== undefined
        ? storedTypeCodec(apiVersionOf(def.group, def.version), def.kind)
        : objectCodec(apiVersionOf(def.group, def.version), def.kind);
      if (def.custom !== undefined) c = readDefaulting(c, () => readDefaults.get(def.keyPrefix));
      codecs.set(def.keyPrefix, c);
    }
    return c;
  };
  const cacheOf = async (def: ResourceDef): Promise<ResourceCache | undefined> => {
    const view = viewOf(def);
    if (view === undefined) return caches.cache(def.keyPrefix, codecOf(def));
    const cache = await caches.cache(def.keyPrefix, view.storageCodec);
    return cache === undefined ? undefined : view.wrap(cache);
  };

  /**
   * The cache of `def` if it is built and has every change up to storage's current revision, found without waiting
   * (a store in this process knows its revision): most reads of a running server; undefined to take the long way.
   */
  const currentCacheNow = (def: ResourceDef): ResourceCache | undefined => {
    const now = backend.revisionNow?.();
    if (now === undefined || caches.revision() < now) return undefined;
    const view = viewOf(def);
    if (view !== undefined) {
      const cache = caches.built(def.keyPrefix);
      return cache === undefined ? undefined : view.wrap(cache);
    }
    // As cacheOf does: the codec is refreshed with the def's current defaults.
    codecOf(def);
    return caches.built(def.keyPrefix);
  };

  /** The cache, once it has every change up to storage's current revision; undefined to read storage instead. */
  const consistentCache = async (def: ResourceDef): Promise<ResourceCache | undefined> => {
    const now = currentCacheNow(def);
    if (now !== undefined) return now;
    const cache = await cacheOf(def);
    if (cache === undefined) return undefined;
    const current = await backend.currentRevision();
    return (await caches.waitFresh(current, consistentWaitMs, { orStorage: true })) ? cache : undefined;
  };

  /** The cache, once it has reached `revision`; a 504 after the brief wait. */
  const freshCache = async (def: ResourceDef, revision: number): Promise<Result<ResourceCache | undefined>> => {
    const cache = await cacheOf(def);
    if (cache === undefined) {
      const current = await backend.currentRevision();
      return revision > current ? fail(tooLargeResourceVersion(revision, current)) : ok(undefined);
    }
    if (await caches.waitFresh(revision, tooLargeWaitMs)) return ok(cache);
    return fail(tooLargeResourceVersion(revision, cache.revision()));
  };

  /** Reads one page from storage at `revision` (0: current) from `startKey`. */
  const storagePage = async (
    def: ResourceDef, prefix: string, selection: Selection, limit: number, revision: number, startKey: string | undefined,
  ): Promise<Result<StoragePage, Extract<BackendError, { code: 'Compacted' | 'FutureRevision' }>>> => {
    const codec = codecOf(def);
    const items: StoredObject[] = [];
    let at = revision;
    let start = startKey;
    for (;;) {
      // One key beyond the page tells whether another selected object follows (the token starts there).
      const res = await backend.list(prefix, { revision: at, limit: limit > 0 ? limit + 1 : 0, ...(start !== undefined ? { startKey: start } : {}) });
      if (!res.ok) return fail(res.error);
      at = res.value.revision;
      const kvs = res.value.kvs;
      for (const kv of kvs) {
        const o = codec.decode(kv);
        if (!selectsStored(def, selection, o)) continue;
        if (limit > 0 && items.length === limit) return ok({ revision: at, items, next: kv.key });
        items.push(o);
      }
      if (!res.value.more || kvs.length === 0) return ok({ revision: at, items });
      start = `${kvs[kvs.length - 1]!.key}\u0000`;
    }
  };

  /** A page from the cache's current state. */
  const cachePage = (def: ResourceDef, cache: ResourceCache, prefix: string, selection: Selection, limit: number): ListPage => {
    const revision = cache.revision();
    const all = cache.list(prefix);
    // The whole unselected collection: the cache's own ordered array, shared rather than copied.
    if (selection.everything && (limit === 0 || limit >= all.length)) {
      watchCacheMetrics().observeList(def, all.length, all.length);
      return { resourceVersion: String(revision), items: all };
    }
    const items: StoredObject[] = [];
    let i = 0;
    for (; i < all.length; i++) {
      const o = all[i]!;
      if (!selectsStored(def, selection, o)) continue;
      if (limit > 0 && items.length === limit) break;
      items.push(o);
    }
    watchCacheMetrics().observeList(def, i, items.length);
    if (i >= all.length) return { resourceVersion: String(revision), items };
    const remaining = all.length - i;
    const start = all[i]!.key.slice(prefix.length);
    if (!selection.everything) return { resourceVersion: String(revision), items, continue: tokens.encode({ revision, start }) };
    return { resourceVersion: String(revision), items, continue: tokens.encode({ revision, start, remaining }), remainingItemCount: remaining };
  };

  const get = async (def: ResourceDef, namespace: string, name: string, resourceVersion?: string): Promise<Result<StoredObject>> => {
    const rv = parseResourceVersion(resourceVersion);
    if (!rv.ok) return rv;
    const key = keyUnderPrefix(def.keyPrefix, def.namespaced ? namespace : undefined, name);
    let cache: ResourceCache | undefined;
    // Most recent (unset): from the cache once it has caught up with storage's current revision, as lists are (kube's
    // consistent reads from cache), which answers what a read of storage would and serves the object's kept bytes;
    // from storage when the cache cannot say it is current (kube's quorum read).
    if (rv.value === undefined) cache = currentCacheNow(def) ?? await consistentCache(def);
    else if (rv.value === 0) cache = await cacheOf(def);
    else {
      const fresh = await freshCache(def, rv.value);
      if (!fresh.ok) return fresh;
      cache = fresh.value;
    }
    if (cache !== undefined) {
      const o = cache.get(key);
      return o === undefined ? fail(notFound(def.qualified, name)) : ok(o);
    }
    const res = await backend.get(key);
    if (!res.ok) return fail(internalError(res.error.code));
    if (res.value.kv === undefined) return fail(notFound(def.qualified, name));
    return ok(codecOf(def).decode(res.value.kv));
  };

  const list = async (def: ResourceDef, query: ReadListQuery): Promise<Result<ListPage>> => {
    const limit = query.limit !== undefined && query.limit > 0 ? query.limit : 0;
    const mode = listReadMode(names, {
      resourceVersion: query.resourceVersion, resourceVersionMatch: query.resourceVersionMatch, limit, continue: query.continue,
      sendInitialEvents: query.sendInitialEvents,
    });
    if (!mode.ok) return mode;
    const prefix = collectionPrefixOf(def, query.namespace);
    const selection = query.selection;
    let read: ReadMode = mode.value;

    if (read.kind === 'consistent' || read.kind === 'any' || read.kind === 'notOlderThan') {
      let cache: ResourceCache | undefined;
      if (read.kind === 'consistent') cache = await consistentCache(def);
      else if (read.kind === 'any') cache = await cacheOf(def);
      else {
        const fresh = await freshCache(def, read.revision);
        if (!fresh.ok) return fresh;
        cache = fresh.value;
      }
      // kube's cacher serves resourceVersion=0 itself and ignores `limit` there (shouldDelegateList): the whole list.
      if (cache !== undefined) return ok(cachePage(def, cache, prefix, selection, read.kind === 'any' ? 0 : limit));
      read = { kind: 'consistent' };
    }

    let revision = 0;
    let start: string | undefined;
    let remaining: number | undefined;
    let token: string | undefined;
    if (read.kind === 'continue') {
      const decoded = tokens.decode(read.token);
      if (!decoded.ok) return decoded;
      token = decoded.value.start;
      revision = decoded.value.revision === -1 ? 0 : decoded.value.revision;
      start = prefix + decoded.value.start;
      remaining = decoded.value.remaining;
    } else if (read.kind === 'exact') {
      revision = read.revision;
    }
    let page = await storagePage(def, prefix, selection, limit, revision, start);
    if (!page.ok && page.error.code === 'FutureRevision') {
      // A revision storage has not reached yet: wait briefly, as a not-older-than read does.
      if (await caches.waitFresh(revision, tooLargeWaitMs)) page = await storagePage(def, prefix, selection, limit, revision, start);
    }
    if (!page.ok) {
      if (page.error.code === 'FutureRevision') return fail(tooLargeResourceVersion(revision, page.error.currentRevision));
      if (token !== undefined) {
        // kube's handleCompactedErrorForPaging: 410 with a token that continues at the newest revision.
        const status = gone(expiredContinueMessage);
        status.metadata = { continue: tokens.encode({ revision: -1, start: token }) };
        return fail(status);
      }
      return fail(tooOld(revision, page.error.compactRevision));
    }
    const { revision: readAt, items, next } = page.value;
    const out: { -readonly [K in keyof ListPage]: ListPage[K] } = { resourceVersion: String(readAt), items };
    if (next !== undefined) {
      const nextStart = next.slice(prefix.length);
      const left = remaining !== undefined && selection.everything && revision !== 0 ? remaining - items.length : undefined;
      out.continue = tokens.encode({ revision: readAt, start: nextStart, ...(left !== undefined ? { remaining: left } : {}) });
      if (left !== undefined) out.remainingItemCount = left;
    }
    return ok(out);
  };

  const bookmarkFrame = (def: ResourceDef, revision: number, initialEventsEnd: boolean): Uint8Array => {
    const codec = codecOf(def);
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEventsEnd) metadata['annotations'] = { [names.name('initialEventsEndAnnotation')]: 'true' };
    return encoder.encode(`{"type":"BOOKMARK","object":${JSON.stringify({ kind: codec.kind, apiVersion: codec.apiVersion, metadata })}}\n`);
  };

  const watch = async (def: ResourceDef, query: WatchQuery, sink: WatchSink): Promise<Result<WatchHandle>> => {
    const mode = watchMode(names, query, options.watchList ?? false);
    if (!mode.ok) return mode;
    const prefix = collectionPrefixOf(def, query.namespace);
    const selection = query.selection;
    const bookmarks = query.allowWatchBookmarks === true;
    let last = 0;
    /**
     * The revision the watch started from (after its initial events): kube's cacheWatcher sends a bookmark only past
     * it, however many events it delivered or filtered out since.
     */
    let startedAt = 0;
    let ended = false;
    // Live events of in-process watchers go through budgeted delivery (each decodes its own copy); the initial
    // state is delivered before the watch resolves, as in-process watchers rely on.
    const later = sink.frame === undefined ? inProcessDelivery(sink) : undefined;

    /** An initial-state ADDED (not shared between watchers: the state is read per watch). */
    const emitState = (object: StoredObject): void => {
      if (ended) return;
      if (sink.frame !== undefined) sink.frame(frameOf('ADDED', object), false);
      else sink.event({ type: 'ADDED', object: object.copy() });
    };
    // Called once per watcher for every event: no closure or object is made here for a frame already serialized.
    const deliver = (e: CacheEvent): void => {
      last = e.revision;
      if (ended) return;
      let type: WatchType;
      let object: StoredObject;
      if (selection.everything) {
        type = e.type === 'delete' ? 'DELETED' : e.previous === undefined ? 'ADDED' : 'MODIFIED';
        object = e.object;
      } else {
        const out = watchEventOf(def, selection, e);
        if (out === undefined) return;
        type = out.type;
        object = out.object;
      }
      if (sink.frame === undefined) {
        later?.event(isLargeStored(object)
          ? async () => ({ type, object: await copyStored(object) })
          : () => ({ type, object: object.copy() }), isLargeStored(object));
        return;
      }
      let f = e.frames.get(type);
      if (f === undefined) {
        f = frameOf(type, object);
        e.frames.set(type, f);
      }
      sink.frame(f, true);
    };
    const sendBookmark = (revision: number, initialEventsEnd: boolean, live: boolean): void => {
      if (ended || !bookmarks) return;
      last = Math.max(last, revision);
      if (sink.frame !== undefined) sink.frame(bookmarkFrame(def, revision, initialEventsEnd), live);
      else {
        const make = (): WatchEvent => JSON.parse(new TextDecoder().decode(bookmarkFrame(def, revision, initialEventsEnd))) as WatchEvent;
        if (live && later !== undefined) later.event(make);
        else sink.event(make());
      }
    };

    // Storage's own watch: for a start older than the cache's window, or while the cache is down.
    const storageWatch = async (after: number | undefined): Promise<Result<WatchHandle>> => {
      const codec = codecOf(def);
      let from = after ?? 0;
      if (after === undefined) {
        const res = await backend.list(prefix);
        if (!res.ok) return fail(internalError(res.error.code));
        for (const kv of res.value.kvs) {
          const o = codec.decode(kv);
          if (selectsStored(def, selection, o)) emitState(o);
        }
        from = res.value.revision;
        last = from;
        if (mode.value.kind === 'state' && mode.value.initialEventsEnd) sendBookmark(from, true, false);
      }
      const requested = from;
      const w = backend.watch(prefix, from, {
        onEvents(events) {
          for (const be of events) {
            const object = codec.decode(be.kv);
            const previous = be.prevKv !== undefined ? codec.decode(be.prevKv) : undefined;
            deliver({ type: be.type, key: be.kv.key, revision: be.kv.modRevision, object, frames: new Map(), at: 0, ...(previous ? { previous } : {}) });
          }
        },
        onError(error) {
          if (ended) return;
          ended = true;
          const status = error.code === 'Compacted' ? tooOld(requested, error.compactRevision) : internalError(error.message);
          if (later !== undefined) later.error(status);
          else sink.error(status);
        },
      });
      return ok({ cancel: () => { ended = true; later?.cancel(); w.cancel(); }, bookmark: () => {} });
    };

    const cache = await cacheOf(def);
    const start = mode.value;
    const read = start.read;
    if (cache !== undefined && read.kind === 'consistent') {
      const current = await backend.currentRevision();
      if (!(await caches.waitFresh(current, consistentWaitMs))) return storageWatch(start.kind === 'state' ? undefined : current);
    } else if (read.kind === 'notOlderThan') {
      const fresh = await freshCache(def, read.revision);
      if (!fresh.ok) return fresh;
    }
    if (cache === undefined) {
      if (start.kind === 'state') return storageWatch(undefined);
      if (read.kind === 'exact' || read.kind === 'notOlderThan') return storageWatch(read.revision);
      return storageWatch(await backend.currentRevision());
    }

    const cacheSink: CacheWatchSink = {
      event: deliver,
      // A periodic bookmark goes out even when nothing changed: it doubles as a heartbeat.
      bookmark(revision) {
        if (revision >= last) sendBookmark(revision, false, true);
      },
      closed() {
        if (ended) return;
        ended = true;
        if (sink.end === undefined) (later ?? sink).error(internalError('the watch cache was reset'));
        else if (later !== undefined) later.end();
        else sink.end();
      },
    };
    let handle: { cancel(): void };
    if (start.kind === 'state') {
      const cw = cache.watch(prefix, { kind: 'state' }, cacheSink, { bookmarks });
      if (cw === undefined) throw new Error('a state watch always starts');
      last = cw.revision;
      startedAt = cw.revision;
      for (const o of cw.state) {
        if (selectsStored(def, selection, o)) emitState(o);
      }
      if (start.initialEventsEnd) sendBookmark(cw.revision, true, false);
      handle = cw;
    } else {
      const after = read.kind === 'exact' || read.kind === 'notOlderThan' ? read.revision : cache.revision();
      last = after;
      // The window's events up to now come first: kube's watcher starts past the last of them too.
      startedAt = Math.max(after, cache.revision());
      const cw = cache.watch(prefix, { kind: 'after', revision: after }, cacheSink, { bookmarks });
      if (cw === undefined) return storageWatch(after);
      handle = cw;
    }
    return ok({
        cancel() {
          ended = true;
          later?.cancel();
          handle.cancel();
        },
        bookmark() {
          const revision = cache.revision();
          if (revision > startedAt && revision >= last) sendBookmark(revision, false, true);
        },
      });
  };

  /** Forgets what was built for one collection (its definition changed): codecs, views and its cache. */
  const forget = (prefix: string): void => {
    codecs.delete(prefix);
    views.clear();
    readDefaults.delete(prefix);
    caches.drop(prefix);
  };

  return { get, list, watch, codecOf, forget };
}
