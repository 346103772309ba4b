/**
 * The generic store: a resource's objects in the Backend, as kube's genericregistry.Store keeps them. It encodes and
 * decodes objects (resourceVersion = the key's mod revision), reads with kube's resourceVersion rules, pages lists
 * with a continue token, turns Backend events into watch events through the selection, and does the storage writes
 * (create, compare-and-swap update, delete). Admission, strategy and managedFields steps are the callers': the
 * writes are raw, for the registry's operations (operations/) only, which a test checks. Versions of custom resources
 * with a conversion webhook read and write through it ({@link withWebhookConversion}).
 */
import {
  alreadyExists, apiVersionOf, badRequest, conflict, fail, gone, internalError, notFound, ok, optimisticLockMessage,
  serviceUnavailable, tooLargeResourceVersion, type Fail, type KubeList, type KubeObject, type Ok, type Result,
  type Status, type WatchEvent,
} from '@svc-apiserver/api';
import type { Backend, KeyValue } from '../storage/backend.js';
import { keyUnderPrefix } from '../storage/key.js';
import { generateName } from '../meta/generate-name.js';
import { createCacheSet, type CacheSet, type CacheSetOptions } from '../storage/watch-cache/cache-set.js';
import { objectCodec, type StoredObject } from '../storage/watch-cache/stored-object.js';
import type { ObjectConverter, ResourceDef } from './resource-def.js';
import type { Selection } from './selection.js';
import { copyStored } from './stored-copy.js';
import { stringifyYielding } from '../limits/json-slices.js';
import { createReader, type ListPage, type ReaderOptions, type ReadListQuery, type WatchHandle, type WatchQuery, type WatchSink } from './reader.js';

/**
 * A failed write; `conflict` tells the read-modify-write loop (operations/guaranteed-update.ts) that a fresh read
 * may succeed: the compare-and-swap lost to another writer.
 */
export interface WriteFailure extends Fail<Status> {
  readonly conflict: boolean;
}

/** A write's result. */
export type WriteResult<T = KubeObject> = Ok<T> | WriteFailure;

/** What a list reads. */
export type ListQuery = ReadListQuery;

export type { ListPage, WatchHandle, WatchQuery, WatchSink } from './reader.js';

/** The generic store over one Backend. */
export interface Store {
  readonly backend: Backend;
  /** The watch caches the reads are served from. */
  readonly caches: CacheSet;
  readonly settings: StoreSettings;
  /** Reads with document 1's resourceVersion rules (unset: most recent, `0`: any, other: not older than). */
  get(def: ResourceDef, namespace: string, name: string, resourceVersion?: string): Promise<Result<KubeObject>>;
  /** One object as stored (get's serialized form comes from it). */
  getStored(def: ResourceDef, namespace: string, name: string, resourceVersion?: string): Promise<Result<StoredObject>>;
  /** A list with private copies of the items (in-process callers). */
  list(def: ResourceDef, query: ListQuery): Promise<Result<KubeList>>;
  /** A list page of stored objects (the list handler streams their serialized forms). */
  listPage(def: ResourceDef, query: ListQuery): Promise<Result<ListPage>>;
  watch(def: ResourceDef, query: WatchQuery, sink: WatchSink): Promise<Result<WatchHandle>>;
  /** Stops the watch caches (server shutdown, before the backend closes). */
  close(): void;
  /**
   * Forgets the codecs and the watch cache of a collection whose definition changed (a CRD updated or deleted, as
   * kube-apiserver tears down a CRD's storage): its watches end and the next read builds it anew.
   */
  forget(keyPrefix: string): void;
  /** Stores a new object; with `retryGenerateName`, a name collision picks a new random suffix. */
  create(def: ResourceDef, object: KubeObject, options: { dryRun: boolean; retryGenerateName: boolean }): Promise<Result<KubeObject>>;
  /** Replaces an object if it is still at `object.metadata.resourceVersion`. */
  update(def: ResourceDef, object: KubeObject, options: { dryRun: boolean }): Promise<WriteResult>;
  /** Removes an object if it is still at `current.metadata.resourceVersion`; answers the removed object. */
  remove(def: ResourceDef, current: KubeObject, options: { dryRun: boolean }): Promise<WriteResult>;
}

/** How many times a create picks a new generated name after a collision. */
const generateNameAttempts = 8;

export { parseResourceVersion } from './resource-versions.js';

/**
 * The object as stored: without resourceVersion (the revision is), with the served kind and apiVersion. A large
 * object is serialized in slices (limits/json-slices.ts), the same text.
 */
async function encode(def: ResourceDef, object: KubeObject): Promise<string> {
  // A version stored in another version is converted to it first (kube encodes to the storage version).
  const stored = def.conversion !== undefined ? def.conversion.toStorage(object) : object;
  const { resourceVersion: _rv, ...metadata } = stored.metadata ?? {};
  const apiVersion = def.conversion?.storageApiVersion ?? apiVersionOf(def.group, def.version);
  return (await stringifyYielding({ ...stored, apiVersion, kind: def.conversion?.storage.kind ?? def.kind, metadata }))!;
}

/** A stored object with its resourceVersion. */
export function decodeStored(def: ResourceDef, kv: KeyValue, revision = kv.modRevision): KubeObject {
  const parsed = JSON.parse(kv.value) as KubeObject;
  const object = def.conversion !== undefined ? def.conversion.fromStorage(parsed) : parsed;
  object.apiVersion = apiVersionOf(def.group, def.version);
  object.kind = def.kind;
  object.metadata = { ...(object.metadata ?? {}), resourceVersion: String(revision) };
  return object;
}

/**
 * The object a write stored, as a read would show it. Without a storage version to convert from, that is the object
 * just encoded, stamped with its kind, apiVersion and resourceVersion: decoding the stored text again would cost a
 * second full pass over an object of many keys for the same result.
 */
function asStored(def: ResourceDef, object: KubeObject, kv: KeyValue): KubeObject {
  if (def.conversion !== undefined) return decodeStored(def, kv);
  object.apiVersion = apiVersionOf(def.group, def.version);
  object.kind = def.kind;
  object.metadata = { ...(object.metadata ?? {}), resourceVersion: String(kv.modRevision) };
  return object;
}

/** Options of the store's reads (watch cache, feature gates, tokens). */
export type StoreOptions = ReaderOptions & {
  /** Options of the watch caches. */
  readonly cache?: CacheSetOptions;
  /** The APIListChunking feature gate (default on): off, `limit` and `continue` are ignored. */
  readonly apiListChunking?: boolean;
  /** A watch without `timeoutSeconds` lasts this × a random factor in [1, 2) (default 1800, kube's). */
  readonly minRequestTimeoutSeconds?: number;
  /** Events a slow HTTP watcher may have waiting before it is closed (default 10,000). */
  readonly maxWatchBacklog?: number;
  /** Bytes of events a slow HTTP watcher may have waiting before it is closed (default 16 MiB). */
  readonly maxWatchBacklogBytes?: number;
  /** How long a client that stopped reading may take to read the end of its watch before it is dropped (default 10 s). */
  readonly stalledWatchLingerMs?: number;
};

/** The read settings the handlers follow, defaults applied. */
export interface StoreSettings {
  readonly apiListChunking: boolean;
  readonly watchList: boolean;
  readonly minRequestTimeoutSeconds: number;
  readonly maxWatchBacklog: number;
  readonly maxWatchBacklogBytes: number;
  readonly stalledWatchLingerMs: number;
}

/** Creates the store over a backend. */
export function createStore(backend: Backend, options: StoreOptions = {}): Store {
  const caches = createCacheSet(backend, options.cache ?? {});
  const reader = createReader(backend, caches, options);
  const keyOf = (def: ResourceDef, object: KubeObject): string =>
    keyUnderPrefix(def.keyPrefix, def.namespaced ? object.metadata?.namespace : undefined, object.metadata?.name ?? '');

  const store: Store = {
    backend,
    caches,
    settings: {
      apiListChunking: options.apiListChunking ?? true,
      watchList: options.watchList ?? false,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
      maxWatchBacklog: options.maxWatchBacklog ?? 10_000,
      maxWatchBacklogBytes: options.maxWatchBacklogBytes ?? 16 * 1024 * 1024,
      stalledWatchLingerMs: options.stalledWatchLingerMs ?? 10_000,
    },
    async get(def, namespace, name, resourceVersion) {
      const got = await reader.get(def, namespace, name, resourceVersion);
      if (!got.ok) return got;
      return ok(await copyStored(got.value));
    },
    getStored: (def, namespace, name, resourceVersion) => reader.get(def, namespace, name, resourceVersion),
    async list(def, query) {
      const page = await reader.list(def, query);
      if (!page.ok) return page;
      const p = page.value;
      const metadata: KubeList['metadata'] = { resourceVersion: p.resourceVersion };
      if (p.continue !== undefined) metadata.continue = p.continue;
      if (p.remainingItemCount !== undefined) metadata.remainingItemCount = p.remainingItemCount;
      const items = p.items.map((o) => JSON.parse(o.itemJson()) as KubeObject);
      return ok({ kind: def.listKind, apiVersion: apiVersionOf(def.group, def.version), metadata, items });
    },
    listPage: (def, query) => reader.list(def, query),
    // A store that cannot be reached (etcd down) fails the watch with a 503 Status its caller retries, not a throw.
    watch: (def, query, sink) => reader.watch(def, query, sink).catch((e: unknown) => {
      if ((e as { code?: unknown } | null)?.code !== 'Unavailable') throw e;
      return fail({ ...serviceUnavailable('storage is unavailable, retry later'), details: { retryAfterSeconds: 1 } });
    }),
    close: () => caches.close(),
    forget: (keyPrefix) => reader.forget(keyPrefix),

    async create(def, object, options) {
      const meta = (object.metadata ??= {});
      if (options.dryRun) {
        const res = await backend.get(keyOf(def, object));
        if (res.ok && res.value.kv !== undefined) return fail(alreadyExists(def.qualified, meta.name ?? ''));
        return ok(object);
      }
      for (let attempt = 0; ; attempt++) {
        const res = await backend.create(keyOf(def, object), await encode(def, object));
        if (res.ok) return ok(asStored(def, object, res.value));
        if (options.retryGenerateName && meta.generateName && attempt < generateNameAttempts) {
          meta.name = generateName(meta.generateName);
          continue;
        }
        return fail(alreadyExists(def.qualified, meta.name ?? ''));
      }
    },

    async update(def, object, options) {
      const name = object.metadata?.name ?? '';
      const expected = Number(object.metadata?.resourceVersion ?? '0');
      const key = keyOf(def, object);
      if (options.dryRun) {
        const res = await backend.get(key);
        if (!res.ok || res.value.kv === undefined) return { ok: false, error: notFound(def.qualified, name), conflict: false };
        if (res.value.kv.modRevision !== expected) return { ok: false, error: conflict(def.qualified, name, optimisticLockMessage), conflict: true };
        return ok(object);
      }
      const res = await backend.update(key, await encode(def, object), expected);
      if (res.ok) return ok(asStored(def, object, res.value));
      if (res.error.code === 'NotFound') return { ok: false, error: notFound(def.qualified, name), conflict: false };
      return { ok: false, error: conflict(def.qualified, name, optimisticLockMessage), conflict: true };
    },

    async remove(def, current, options) {
      const name = current.metadata?.name ?? '';
      if (options.dryRun) return ok(current);
      const res = await backend.delete(keyOf(def, current), Number(current.metadata?.resourceVersion ?? '0'));
      if (res.ok) return ok(current);
      if (res.error.code === 'NotFound') return { ok: false, error: notFound(def.qualified, name), conflict: false };
      return { ok: false, error: conflict(def.qualified, name, optimisticLockMessage), conflict: true };
    },
  };
  return store;
}

/*
 * The store as seen through a conversion webhook (a CRD with `conversion.strategy: Webhook`): every version reads
 * and writes through the storage version's store and converts around it — each object
 * read, each list page (one review per page) and each watch event (in order) converted to the requested version,
 * each object written converted to the storage version first and the stored result back. A failed conversion
 * answers its Status (a watch ends with it). Versions without a converter go straight to the store.
 */
const storageDefs = new WeakMap<ResourceDef, ResourceDef>();

/** The def of the storage version (same collection, the storage version's apiVersion), made once per def. */
function storageDefOf(def: ResourceDef, converter: ObjectConverter): ResourceDef {
  let made = storageDefs.get(def);
  if (made === undefined) {
    // The converter stays: the reads decode each object in the version it was stored in (reader.ts).
    made = { ...def, version: converter.storageVersion };
    storageDefs.set(def, made);
  }
  return made;
}

/**
 * The converter of a def that has one: every version, the storage version too, since objects stay in the version
 * they were stored in and the storage version may have changed since (objects already in the asked version are
 * not sent to the webhook).
 */
function converterOf(def: ResourceDef): ObjectConverter | undefined {
  return def.custom?.converter;
}

const encoder = new TextEncoder();

/**
 * Wraps a store so that versions with a conversion webhook convert around it (registry.ts builds the store so).
 */
export function withWebhookConversion(store: Store): Store {
  const converted = async (def: ResourceDef, c: ObjectConverter, objects: readonly StoredObject[]): Promise<Result<StoredObject[]>> => {
    if (objects.length === 0) return ok([]);
    const apiVersion = apiVersionOf(def.group, def.version);
    const result = await c.convert(objects.map((o) => o.parsed()), apiVersion);
    if (!result.ok) return result;
    const codec = objectCodec(apiVersion, def.kind);
    return {
      ok: true,
      value: result.value.map((o, i) => {
        const s = objects[i]!;
        return codec.decode({ key: s.key, value: JSON.stringify(o), createRevision: s.createRevision, modRevision: s.revision }, s.revision);
      }),
    };
  };
  const toVersion = async (c: ObjectConverter, object: KubeObject, apiVersion: string): Promise<Result<KubeObject>> => {
    const result = await c.convert([object], apiVersion);
    return result.ok ? ok(result.value[0]!) : result;
  };
  const written = async <R extends Result<KubeObject>>(def: ResourceDef, c: ObjectConverter, result: R): Promise<R | WriteResult> => {
    if (!result.ok) return result;
    const back = await toVersion(c, result.value, apiVersionOf(def.group, def.version));
    return back.ok ? ok(back.value) : { ok: false, error: back.error, conflict: false };
  };

  return {
    ...store,
    async get(def, namespace, name, resourceVersion) {
      const c = converterOf(def);
      if (c === undefined) return store.get(def, namespace, name, resourceVersion);
      const got = await this.getStored(def, namespace, name, resourceVersion);
      return got.ok ? ok(got.value.copy()) : got;
    },
    async getStored(def, namespace, name, resourceVersion) {
      const c = converterOf(def);
      if (c === undefined) return store.getStored(def, namespace, name, resourceVersion);
      const got = await store.getStored(storageDefOf(def, c), namespace, name, resourceVersion);
      if (!got.ok) return got;
      const out = await converted(def, c, [got.value]);
      return out.ok ? ok(out.value[0]!) : out;
    },
    async list(def, query) {
      const c = converterOf(def);
      if (c === undefined) return store.list(def, query);
      const page = await this.listPage(def, query);
      if (!page.ok) return page;
      const p = page.value;
      return {
        ok: true,
        value: {
          kind: def.listKind, apiVersion: apiVersionOf(def.group, def.version),
          metadata: { resourceVersion: p.resourceVersion, ...(p.continue !== undefined ? { continue: p.continue } : {}), ...(p.remainingItemCount !== undefined ? { remainingItemCount: p.remainingItemCount } : {}) },
          items: p.items.map((o) => o.copy()),
        },
      };
    },
    async listPage(def, query) {
      const c = converterOf(def);
      if (c === undefined) return store.listPage(def, query);
      const page = await store.listPage(storageDefOf(def, c), query);
      if (!page.ok) return page;
      const items = await converted(def, c, page.value.items);
      return items.ok ? ok({ ...page.value, items: items.value }) : items;
    },
    async watch(def, query, sink) {
      const c = converterOf(def);
      if (c === undefined) return store.watch(def, query, sink);
      const apiVersion = apiVersionOf(def.group, def.version);
      let chain = Promise.resolve();
      let failed = false;
      let cancel = (): void => {};
      const deliver = (event: WatchEvent): void => {
        if (sink.frame !== undefined) sink.frame(encoder.encode(`${JSON.stringify(event)}\n`), true);
        else sink.event(event);
      };
      const inner: WatchSink = {
        event(event) {
          chain = chain.then(async () => {
            if (failed) return;
            const object = event.object as KubeObject;
            if (event.type === 'BOOKMARK' || event.type === 'ERROR') {
              deliver(event.type === 'BOOKMARK' ? { type: event.type, object: { ...object, apiVersion } } : event);
              return;
            }
            const out = await toVersion(c, object, apiVersion);
            if (!out.ok) {
              failed = true;
              cancel();
              sink.error(out.error);
              return;
            }
            deliver({ type: event.type, object: out.value });
          });
        },
        error: (status: Status) => {
          chain = chain.then(() => sink.error(status));
        },
        ...(sink.end !== undefined ? { end: () => { chain = chain.then(() => sink.end!()); } } : {}),
      };
      const handle = await store.watch(storageDefOf(def, c), query, inner);
      if (handle.ok) cancel = () => handle.value.cancel();
      return handle;
    },
    async create(def, object, options) {
      const c = converterOf(def);
      if (c === undefined) return store.create(def, object, options);
      const storageDef = storageDefOf(def, c);
      const stored = await toVersion(c, object, apiVersionOf(def.group, storageDef.version));
      if (!stored.ok) return stored;
      return written(def, c, await store.create(storageDef, stored.value, options));
    },
    async update(def, object, options) {
      const c = converterOf(def);
      if (c === undefined) return store.update(def, object, options);
      const storageDef = storageDefOf(def, c);
      const stored = await toVersion(c, object, apiVersionOf(def.group, storageDef.version));
      if (!stored.ok) return { ok: false, error: stored.error, conflict: false };
      return written(def, c, await store.update(storageDef, stored.value, options));
    },
    remove(def, current, options) {
      const c = converterOf(def);
      return store.remove(c === undefined ? def : storageDefOf(def, c), current, options);
    },
  };
}
