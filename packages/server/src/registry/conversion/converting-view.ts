/**
 * A served version's view of objects stored in another version: stored objects (from storage or from the watch
 * cache, which holds the storage version once for every served version) are converted at most once per object
 * version and served version, and each converted object keeps its own serialized forms and selection memo. Watch
 * events get their own frame map per served version, so watchers of different versions never share bytes.
 */
import type { KeyValue } from '../../storage/backend.js';
import type { CacheEvent, CacheWatchSink, ResourceCache } from '../../storage/watch-cache/resource-cache.js';
import { objectCodec, type ObjectCodec, type StoredObject } from '../../storage/watch-cache/stored-object.js';
import type { ResourceConversion } from './resource-conversion.js';

/** A served version's codecs and cache view. */
export interface ConvertingView {
  /** Decodes stored key-values of the storage version (what the shared watch cache is built with). */
  readonly storageCodec: ObjectCodec;
  /** Decodes stored key-values straight into the served version (reads from storage). */
  readonly codec: ObjectCodec;
  /** The shared cache as the served version sees it. */
  wrap(cache: ResourceCache): ResourceCache;
}

/** The view of `conversion` for the served `apiVersion` and `kind`. */
export function convertingView(conversion: ResourceConversion, apiVersion: string, kind: string): ConvertingView {
  const storageCodec = objectCodec(conversion.storageApiVersion, conversion.storage.kind);
  const servedCodec = objectCodec(apiVersion, kind);
  const converted = (kv: KeyValue, revision: number): StoredObject => {
    const object = conversion.fromStorage(storageCodec.decode(kv, revision).parsed());
    return servedCodec.decode({ ...kv, value: JSON.stringify(object) }, revision);
  };
  const codec: ObjectCodec = { kind, apiVersion, decode: (kv, revision = kv.modRevision) => converted(kv, revision) };
  const objects = new WeakMap<StoredObject, StoredObject>();
  const view = (stored: StoredObject): StoredObject => {
    let out = objects.get(stored);
    if (out === undefined) {
      out = servedCodec.decode(
        { key: stored.key, value: JSON.stringify(conversion.fromStorage(stored.parsed())), createRevision: stored.createRevision, modRevision: stored.revision },
        stored.revision,
      );
      objects.set(stored, out);
    }
    return out;
  };
  const events = new WeakMap<CacheEvent, CacheEvent>();
  const viewEvent = (e: CacheEvent): CacheEvent => {
    let out = events.get(e);
    if (out === undefined) {
      out = { ...e, object: view(e.object), frames: new Map(), ...(e.previous !== undefined ? { previous: view(e.previous) } : {}) };
      events.set(e, out);
    }
    return out;
  };
  return {
    storageCodec,
    codec,
    wrap(cache) {
      return {
        prefix: cache.prefix,
        codec,
        revision: () => cache.revision(),
        windowStart: () => cache.windowStart(),
        get(key) {
          const o = cache.get(key);
          return o === undefined ? undefined : view(o);
        },
        list: (subPrefix) => cache.list(subPrefix).map(view),
        watch(subPrefix, start, sink, options) {
          const inner: CacheWatchSink = {
            event: (e) => sink.event(viewEvent(e)),
            closed: () => sink.closed(),
            ...(sink.bookmark !== undefined ? { bookmark: (revision: number) => sink.bookmark!(revision) } : {}),
          };
          const w = cache.watch(subPrefix, start, inner, options);
          if (w === undefined) return undefined;
          return { revision: w.revision, state: w.state.map(view), cancel: () => w.cancel() };
        },
        watcherCount: () => cache.watcherCount(),
      };
    },
  };
}
