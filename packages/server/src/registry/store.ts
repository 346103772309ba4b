/**
 * The generic store: a resource's objects in the Backend, as kube's genericregistry.Store keeps them. It encodes and
 * decodes objects (resourceVersion = the key's mod revision), reads with kube's resourceVersion rules, pages lists
 * with a continue token, turns Backend events into watch events through the selection, and does the storage writes
 * (create, compare-and-swap update, delete). Admission and strategy steps are the callers' (see operations/).
 */
import {
  alreadyExists, apiVersionOf, badRequest, conflict, gone, internalError, notFound, optimisticLockMessage,
  tooLargeResourceVersion, type KubeList, type KubeObject, type Status, type WatchEvent,
} from '@svc-apiserver/api';
import type { Backend, BackendEvent, KeyValue } from '../storage/backend.js';
import { keyUnderPrefix } from '../storage/key.js';
import type { Outcome } from '../http/context.js';
import { generateName } from '../meta/generate-name.js';
import { decodeContinue, encodeContinue, expiredContinueMessage } from './continue-token.js';
import type { ResourceDef } from './resource-def.js';
import { selects, type Selection } from './selection.js';

/** A storage write's result; `conflict` tells a compare-and-swap loop to read again and retry. */
export type WriteOutcome =
  | { readonly ok: true; readonly value: KubeObject }
  | { readonly ok: false; readonly status: Status; readonly conflict: boolean };

/** What a list reads. */
export interface ListQuery {
  /** `''` for all namespaces (and for cluster-scoped resources). */
  readonly namespace: string;
  readonly selection: Selection;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
}

/** What a watch follows. */
export interface WatchQuery {
  readonly namespace: string;
  readonly selection: Selection;
  readonly resourceVersion?: string;
}

/** Where a watch delivers. */
export interface WatchSink {
  event(event: WatchEvent): void;
  /** The watch ended with a failure (410 Expired when its history is gone). */
  error(status: Status): void;
}

/** The generic store over one Backend. */
export interface Store {
  readonly backend: Backend;
  get(def: ResourceDef, namespace: string, name: string, resourceVersion?: string): Promise<Outcome<KubeObject>>;
  list(def: ResourceDef, query: ListQuery): Promise<Outcome<KubeList>>;
  watch(def: ResourceDef, query: WatchQuery, sink: WatchSink): Promise<Outcome<{ cancel(): void }>>;
  /** Stores a new object; with `retryGenerateName`, a name collision picks a new random suffix. */
  create(def: ResourceDef, object: KubeObject, options: { dryRun: boolean; retryGenerateName: boolean }): Promise<Outcome<KubeObject>>;
  /** Replaces an object if it is still at `object.metadata.resourceVersion`. */
  update(def: ResourceDef, object: KubeObject, options: { dryRun: boolean }): Promise<WriteOutcome>;
  /** Removes an object if it is still at `current.metadata.resourceVersion`; answers the removed object. */
  remove(def: ResourceDef, current: KubeObject, options: { dryRun: boolean }): Promise<WriteOutcome>;
}

/** How many times a create picks a new generated name after a collision. */
const generateNameAttempts = 8;

/** Parses a resourceVersion parameter: undefined when unset, a number, or a 400. */
export function parseResourceVersion(value: string | undefined): Outcome<number | undefined> {
  if (value === undefined || value === '') return { ok: true, value: undefined };
  if (!/^\d+$/.test(value)) return { ok: false, status: badRequest(`invalid resource version: ${JSON.stringify(value)}`) };
  return { ok: true, value: Number(value) };
}

/** The object as stored: without resourceVersion (the revision is), with the served kind and apiVersion. */
function encode(def: ResourceDef, object: KubeObject): string {
  const { resourceVersion: _rv, ...metadata } = object.metadata ?? {};
  return JSON.stringify({ ...object, apiVersion: apiVersionOf(def.group, def.version), kind: def.kind, metadata });
}

/** A stored object with its resourceVersion. */
export function decodeStored(def: ResourceDef, kv: KeyValue, revision = kv.modRevision): KubeObject {
  const object = JSON.parse(kv.value) as KubeObject;
  object.apiVersion = apiVersionOf(def.group, def.version);
  object.kind = def.kind;
  object.metadata = { ...(object.metadata ?? {}), resourceVersion: String(revision) };
  return object;
}

/** Items of a typed list carry no kind and apiVersion, as kube-apiserver sends them. */
function listItem(object: KubeObject): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = object;
  return rest;
}

function tooOld(requested: number, compacted: number): Status {
  return gone(`too old resource version: ${requested} (${compacted})`);
}

function collectionPrefixOf(def: ResourceDef, namespace: string): string {
  return def.namespaced && namespace ? `${def.keyPrefix}${namespace}/` : def.keyPrefix;
}

/** Creates the store over a backend. */
export function createStore(backend: Backend): Store {
  const keyOf = (def: ResourceDef, object: KubeObject): string =>
    keyUnderPrefix(def.keyPrefix, def.namespaced ? object.metadata?.namespace : undefined, object.metadata?.name ?? '');

  /** The revision a read "not older than rv" may use, or 504 when the store has not reached it. */
  const notOlderThan = async (rv: number | undefined): Promise<Outcome<number>> => {
    const current = await backend.currentRevision();
    if (rv !== undefined && rv > current) return { ok: false, status: tooLargeResourceVersion(rv, current) };
    return { ok: true, value: 0 };
  };

  const store: Store = {
    backend,
    async get(def, namespace, name, resourceVersion) {
      const rv = parseResourceVersion(resourceVersion);
      if (!rv.ok) return rv;
      const at = await notOlderThan(rv.value);
      if (!at.ok) return at;
      const res = await backend.get(keyUnderPrefix(def.keyPrefix, def.namespaced ? namespace : undefined, name));
      if (!res.ok) return { ok: false, status: internalError(res.error.code) };
      if (res.value.kv === undefined) return { ok: false, status: notFound(def.qualified, name) };
      return { ok: true, value: decodeStored(def, res.value.kv) };
    },

    async list(def, query) {
      const rvParsed = parseResourceVersion(query.resourceVersion);
      if (!rvParsed.ok) return rvParsed;
      const rv = rvParsed.value;
      const match = query.resourceVersionMatch ?? '';
      const limit = query.limit !== undefined && query.limit > 0 ? query.limit : 0;
      const prefix = collectionPrefixOf(def, query.namespace);
      if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
        return { ok: false, status: badRequest(`resourceVersionMatch: Unsupported value: "${match}"`) };
      }
      if (match !== '' && rv === undefined) {
        return { ok: false, status: badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided') };
      }
      let revision = 0;
      let startKey: string | undefined;
      const fromToken = query.continue !== undefined && query.continue !== '';
      if (fromToken) {
        if (rv !== undefined && rv !== 0) {
          return { ok: false, status: badRequest('specifying resource version is not allowed when using continue') };
        }
        const token = decodeContinue(query.continue!);
        if (!token.ok) return token;
        revision = token.value.revision;
        startKey = prefix + token.value.start;
      } else if (rv !== undefined && rv !== 0 && (match === 'Exact' || (match === '' && limit > 0))) {
        revision = rv;
      } else if (rv !== undefined && rv !== 0) {
        const at = await notOlderThan(rv);
        if (!at.ok) return at;
      }
      const items: KubeObject[] = [];
      let next: string | undefined;
      for (;;) {
        // One key beyond the page tells whether another selected object follows (then the token starts there).
        const res = await backend.list(prefix, { revision, limit: limit > 0 ? limit + 1 : 0, ...(startKey !== undefined ? { startKey } : {}) });
        if (!res.ok) {
          if (res.error.code === 'Compacted') {
            const status = fromToken ? gone(expiredContinueMessage) : tooOld(revision, res.error.compactRevision);
            return { ok: false, status };
          }
          const current = res.error.currentRevision;
          return { ok: false, status: tooLargeResourceVersion(revision, current) };
        }
        revision = res.value.revision;
        const kvs = res.value.kvs;
        let stoppedAt = -1;
        for (let i = 0; i < kvs.length; i++) {
          const object = decodeStored(def, kvs[i]!);
          if (!selects(def, query.selection, object)) continue;
          if (limit > 0 && items.length === limit) {
            stoppedAt = i;
            break;
          }
          items.push(listItem(object));
        }
        if (stoppedAt >= 0) {
          next = kvs[stoppedAt]!.key;
          break;
        }
        if (!res.value.more || kvs.length === 0) break;
        startKey = `${kvs[kvs.length - 1]!.key}\u0000`;
      }
      const metadata: KubeList['metadata'] = { resourceVersion: String(revision) };
      if (next !== undefined) metadata.continue = encodeContinue({ revision, start: next.slice(prefix.length) });
      return { ok: true, value: { kind: def.listKind, apiVersion: apiVersionOf(def.group, def.version), metadata, items } };
    },

    async watch(def, query, sink) {
      const rvParsed = parseResourceVersion(query.resourceVersion);
      if (!rvParsed.ok) return rvParsed;
      const prefix = collectionPrefixOf(def, query.namespace);
      let after = rvParsed.value ?? 0;
      if (after === 0) {
        // "Get State and Start at Most Recent": synthetic ADDED events for the current state, then changes after it.
        const res = await backend.list(prefix);
        if (!res.ok) return { ok: false, status: internalError(res.error.code) };
        for (const kv of res.value.kvs) {
          const object = decodeStored(def, kv);
          if (selects(def, query.selection, object)) sink.event({ type: 'ADDED', object });
        }
        after = res.value.revision;
      }
      const requested = after;
      const translate = (e: BackendEvent): WatchEvent | undefined => {
        if (e.type === 'delete') {
          const old = decodeStored(def, e.prevKv ?? e.kv, e.kv.modRevision);
          return selects(def, query.selection, old) ? { type: 'DELETED', object: old } : undefined;
        }
        const current = decodeStored(def, e.kv);
        const nowIn = selects(def, query.selection, current);
        if (e.prevKv === undefined) return nowIn ? { type: 'ADDED', object: current } : undefined;
        const old = decodeStored(def, e.prevKv, e.kv.modRevision);
        const wasIn = selects(def, query.selection, old);
        if (nowIn) return { type: wasIn ? 'MODIFIED' : 'ADDED', object: current };
        // An object that leaves the selection is gone for this watcher: its last selected state, at the new revision.
        return wasIn ? { type: 'DELETED', object: old } : undefined;
      };
      const watch = backend.watch(prefix, after, {
        onEvents(events) {
          for (const e of events) {
            const out = translate(e);
            if (out !== undefined) sink.event(out);
          }
        },
        onError(error) {
          sink.error(error.code === 'Compacted' ? tooOld(requested, error.compactRevision) : internalError(error.message));
        },
      });
      return { ok: true, value: watch };
    },

    async create(def, object, options) {
      const meta = (object.metadata ??= {});
      if (options.dryRun) {
        const res = await backend.get(keyOf(def, object));
        if (res.ok && res.value.kv !== undefined) return { ok: false, status: alreadyExists(def.qualified, meta.name ?? '') };
        return { ok: true, value: object };
      }
      for (let attempt = 0; ; attempt++) {
        const res = await backend.create(keyOf(def, object), encode(def, object));
        if (res.ok) return { ok: true, value: decodeStored(def, res.value) };
        if (options.retryGenerateName && meta.generateName && attempt < generateNameAttempts) {
          meta.name = generateName(meta.generateName);
          continue;
        }
        return { ok: false, status: alreadyExists(def.qualified, meta.name ?? '') };
      }
    },

    async update(def, object, options) {
      const name = object.metadata?.name ?? '';
      const expected = Number(object.metadata?.resourceVersion ?? '0');
      const key = keyOf(def, object);
      if (options.dryRun) {
        const res = await backend.get(key);
        if (!res.ok || res.value.kv === undefined) return { ok: false, status: notFound(def.qualified, name), conflict: false };
        if (res.value.kv.modRevision !== expected) return { ok: false, status: conflict(def.qualified, name, optimisticLockMessage), conflict: true };
        return { ok: true, value: object };
      }
      const res = await backend.update(key, encode(def, object), expected);
      if (res.ok) return { ok: true, value: decodeStored(def, res.value) };
      if (res.error.code === 'NotFound') return { ok: false, status: notFound(def.qualified, name), conflict: false };
      return { ok: false, status: conflict(def.qualified, name, optimisticLockMessage), conflict: true };
    },

    async remove(def, current, options) {
      const name = current.metadata?.name ?? '';
      if (options.dryRun) return { ok: true, value: current };
      const res = await backend.delete(keyOf(def, current), Number(current.metadata?.resourceVersion ?? '0'));
      if (res.ok) return { ok: true, value: current };
      if (res.error.code === 'NotFound') return { ok: false, status: notFound(def.qualified, name), conflict: false };
      return { ok: false, status: conflict(def.qualified, name, optimisticLockMessage), conflict: true };
    },
  };
  return store;
}
