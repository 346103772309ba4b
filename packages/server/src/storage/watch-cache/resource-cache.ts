/**
 * The watch cache of one resource (k8s.io/apiserver storage/cacher's watchCache): the current state of every key
 * under the resource's prefix plus a window of recent events, kept current by the events the cache set routes to
 * it. It serves lists and gets without touching storage and starts watches at any revision still in its window,
 * replaying the window and then handing every later event to the watcher as it is applied.
 *
 * State is bucketed by namespace (the part of the key after the prefix up to its first `/`), as kube's cacher
 * indexes by namespace, so a namespace's list never scans the others. Each bucket keeps its keys and objects in key
 * order as changes come (a binary search and an insertion, not a sort per list): a list under a steady stream of
 * creations costs what the page it returns costs, not a sort of the whole namespace. The object array a list hands
 * out is never changed afterwards; the next change copies it first, so a paginated list keeps its snapshot.
 */
import type { BackendEvent } from '../backend.js';
import type { ObjectCodec, StoredObject } from './stored-object.js';

/** A change as the cache applied it. */
export interface CacheEvent {
  readonly type: 'put' | 'delete';
  readonly key: string;
  readonly revision: number;
  /** put: the new state. delete: the last state, shown at the delete's revision. */
  readonly object: StoredObject;
  /** The state before the change (update, delete); absent for a creation. */
  readonly previous?: StoredObject;
  /** Serialized forms of this event per watch event type and encoding, made once for every watcher. */
  readonly frames: Map<string, Uint8Array>;
  /** When the cache applied it (ms since the epoch), for the time window. */
  readonly at: number;
}

/** Where a cache watcher is told about events. Called synchronously: a sink must never block. */
export interface CacheWatchSink {
  /** One event with a revision above the watch's start (replayed or live), in revision order. */
  event(event: CacheEvent): void;
  /** The cache is now complete up to `revision` (the periodic bookmark tick). */
  bookmark?(revision: number): void;
  /** The cache was reset (its feed failed or the server stops): the watch is over; its client starts again. */
  closed(): void;
}

/** How a watch starts. */
export type CacheWatchStart =
  /** Get state and start: the current state first, then the changes after it. */
  | { readonly kind: 'state' }
  /** Start after `revision`: the window's events after it, then live changes. */
  | { readonly kind: 'after'; readonly revision: number };

/** A started cache watch. */
export interface CacheWatch {
  /** The revision the watch starts after (the state's revision for a state start). */
  readonly revision: number;
  /** The current state, for a state start (sorted by key). */
  readonly state: readonly StoredObject[];
  cancel(): void;
}

/** The cache of one resource. */
export interface ResourceCache {
  readonly prefix: string;
  readonly codec: ObjectCodec;
  /** The cache holds the state of this revision (every change up to it is applied). */
  revision(): number;
  /** Watches that start after a revision at or above this one can be served from the window. */
  windowStart(): number;
  /** The object at `key`, if it exists. */
  get(key: string): StoredObject | undefined;
  /** Objects whose keys start with `subPrefix` (the prefix, or the prefix plus `<namespace>/`), in key order. */
  list(subPrefix: string): readonly StoredObject[];
  /**
   * Starts a watch of keys under `subPrefix`. `undefined` when `after` is older than the window (the caller falls
   * back to storage, which answers 410 when the history is gone). Replayed events reach the sink before this returns.
   */
  watch(subPrefix: string, start: CacheWatchStart, sink: CacheWatchSink, options?: { bookmarks?: boolean }): CacheWatch | undefined;
  /** Number of watchers (metrics, tests). */
  watcherCount(): number;
}

/** What the cache set drives. */
export interface ResourceCacheControl extends ResourceCache {
  apply(event: BackendEvent): void;
  bookmark(revision: number): void;
  /** Ends every watch (the cache is dropped). */
  reset(): void;
}

/** Options of a resource cache. */
export interface ResourceCacheOptions {
  /** Events younger than this stay in the window (default 5 minutes, the compaction window). */
  readonly windowMs: number;
  /** At most this many events stay in the window (default 100,000). */
  readonly maxEvents: number;
  /** The revision the cache set has seen every change up to. */
  readonly seenRevision: () => number;
  readonly now?: () => number;
}

interface Bucket {
  readonly objects: Map<string, StoredObject>;
  /** Keys in order; `items` holds their objects at the same indexes. */
  readonly keys: string[];
  items: StoredObject[];
  /** Set once `items` was handed out by a list: the next change works on a copy. */
  shared: boolean;
}

interface Watcher {
  readonly subPrefix: string;
  /** Only events above this revision are delivered. */
  readonly after: number;
  readonly sink: CacheWatchSink;
  readonly bookmarks: boolean;
}

/** The namespace bucket of a key: the segment after the prefix when the key has one more `/`, else `''`. */
function bucketOf(prefix: string, key: string): string {
  const slash = key.indexOf('/', prefix.length);
  return slash < 0 ? '' : key.slice(prefix.length, slash);
}

const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Creates a cache from the state at `listRevision`; events above it are applied with `apply`. */
export function createResourceCache(
  prefix: string,
  codec: ObjectCodec,
  initial: readonly StoredObject[],
  listRevision: number,
  options: ResourceCacheOptions,
): ResourceCacheControl {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  let bucketOrder: string[] | undefined;
  /** The window from `head` on; slots before it are released (undefined) until the array is compacted. */
  const events: (CacheEvent | undefined)[] = [];
  let head = 0;
  let windowStart = listRevision;
  let applied = listRevision;
  const watchers = new Set<Watcher>();

  const bucket = (name: string): Bucket => {
    let b = buckets.get(name);
    if (b === undefined) {
      b = { objects: new Map(), keys: [], items: [], shared: false };
      buckets.set(name, b);
      bucketOrder = undefined;
    }
    return b;
  };
  for (const o of initial) bucket(bucketOf(prefix, o.key)).objects.set(o.key, o);
  for (const b of buckets.values()) {
    b.keys.push(...[...b.objects.keys()].sort(byKey));
    b.items = b.keys.map((k) => b.objects.get(k)!);
  }

  const listed = (b: Bucket): StoredObject[] => {
    b.shared = true;
    return b.items;
  };
  /** The bucket's objects, safe to change: a copy when the current array was handed out. */
  const writableItems = (b: Bucket): StoredObject[] => {
    if (b.shared) {
      b.items = b.items.slice();
      b.shared = false;
    }
    return b.items;
  };
  /** Index of the first key not below `key`. */
  const lowerBound = (keys: readonly string[], key: string): number => {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const trim = (): void => {
    const cutoff = now() - options.windowMs;
    while (head < events.length && (events.length - head > options.maxEvents || events[head]!.at < cutoff)) {
      windowStart = events[head]!.revision;
      // Released now rather than at the next compaction of the array, which may be a thousand events away: an event
      // holds its object and frames, and large objects written fast would otherwise keep many times the window.
      events[head] = undefined;
      head++;
    }
    if (head > 1024 && head * 2 > events.length) {
      events.splice(0, head);
      head = 0;
    }
  };

  /** Index of the first window event with a revision above `revision`. */
  const firstAfter = (revision: number): number => {
    let lo = head;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (events[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const cache: ResourceCacheControl = {
    prefix,
    codec,
    revision: () => Math.max(applied, options.seenRevision()),
    windowStart: () => windowStart,
    get: (key) => buckets.get(bucketOf(prefix, key))?.objects.get(key),
    list(subPrefix) {
      if (subPrefix !== prefix) {
        const b = buckets.get(bucketOf(prefix, subPrefix));
        return b === undefined ? [] : listed(b);
      }
      const out: StoredObject[] = [];
      // Keys of namespace `a` sort after those of `a-b` (`/` > `-`): order buckets as their keys order.
      bucketOrder ??= [...buckets.keys()].sort((x, y) => byKey(x === '' ? '' : `${x}/`, y === '' ? '' : `${y}/`));
      for (const name of bucketOrder) {
        for (const o of listed(buckets.get(name)!)) out.push(o);
      }
      return out;
    },
    watch(subPrefix, start, sink, watchOptions = {}) {
      let state: readonly StoredObject[] = [];
      let after: number;
      if (start.kind === 'state') {
        state = cache.list(subPrefix);
        after = cache.revision();
      } else {
        if (start.revision < windowStart) return undefined;
        after = start.revision;
        for (let i = firstAfter(after); i < events.length; i++) {
          const e = events[i]!;
          if (e.key.startsWith(subPrefix)) sink.event(e);
        }
      }
      const w: Watcher = { subPrefix, after, sink, bookmarks: watchOptions.bookmarks ?? false };
      watchers.add(w);
      return { revision: after, state, cancel: () => void watchers.delete(w) };
    },
    watcherCount: () => watchers.size,

    apply(be) {
      const revision = be.kv.modRevision;
      if (revision <= applied) return;
      applied = revision;
      const key = be.kv.key;
      const b = bucket(bucketOf(prefix, key));
      const previous = b.objects.get(key);
      let object: StoredObject;
      const at = lowerBound(b.keys, key);
      if (be.type === 'delete') {
        object = previous !== undefined ? previous.at(revision) : codec.decode(be.kv, revision);
        if (b.objects.delete(key)) {
          b.keys.splice(at, 1);
          writableItems(b).splice(at, 1);
        }
      } else {
        object = codec.decode(be.kv);
        b.objects.set(key, object);
        if (previous === undefined) {
          b.keys.splice(at, 0, key);
          writableItems(b).splice(at, 0, object);
        } else {
          writableItems(b)[at] = object;
        }
      }
      const event: CacheEvent = {
        type: be.type, key, revision, object, frames: new Map(), at: now(),
        ...(previous !== undefined ? { previous } : {}),
      };
      events.push(event);
      trim();
      for (const w of watchers) {
        if (revision > w.after && key.startsWith(w.subPrefix)) w.sink.event(event);
      }
    },
    bookmark(revision) {
      for (const w of watchers) if (w.bookmarks) w.sink.bookmark?.(revision);
    },
    reset() {
      const all = [...watchers];
      watchers.clear();
      for (const w of all) w.sink.closed();
    },
  };
  return cache;
}
