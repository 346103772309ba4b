/**
 * An in-memory Backend for tests: an append-only log of revisions with per-key history, giving the same snapshot
 * reads, compare-and-swap, watch and compaction semantics as etcd (and kine) without any I/O.
 */
import type { Backend, BackendEvent, BackendResult, KeyValue, ListResult } from '../backend.js';
import { createWatchHub } from '../watch-hub.js';
import { checkReadRevision, compactedWatch } from '../revision-check.js';
import { unavailable } from '../unavailable.js';

/** One write of one key, as the log keeps it. */
interface Row {
  readonly kv: KeyValue;
  readonly deleted: boolean;
}

/** Opens an empty in-memory store. */
export function openMemoryBackend(): Backend {
  let revision = 0;
  let compacted = 0;
  let closed = false;
  /** Every key's rows, oldest first (compaction trims the front). */
  const history = new Map<string, Row[]>();
  /** Keys with history, ascending, for range reads. */
  const keys: string[] = [];
  /** Events of revisions `logBase`, `logBase + 1`, ... (one per revision). */
  let log: BackendEvent[] = [];
  let logBase = 1;

  const hub = createWatchHub({
    currentRevision: () => revision,
    eventsAfter(prefix, afterRevision) {
      const bad = compactedWatch(afterRevision, compacted);
      if (bad !== undefined) return { ok: false, error: bad };
      const from = Math.max(0, afterRevision + 1 - logBase);
      return { ok: true, value: log.slice(from).filter((e) => e.kv.key.startsWith(prefix)) };
    },
  });

  /** Index of the first key >= `key` in `keys`. */
  const lowerBound = (key: string): number => {
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  /** The key's value as of `rev`, if it existed then. */
  const visibleAt = (key: string, rev: number): KeyValue | undefined => {
    const rows = history.get(key);
    if (rows === undefined) return undefined;
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]!;
      if (row.kv.modRevision <= rev) return row.deleted ? undefined : row.kv;
    }
    return undefined;
  };

  const append = (key: string, row: Row, event: BackendEvent): KeyValue => {
    let rows = history.get(key);
    if (rows === undefined) {
      rows = [];
      history.set(key, rows);
      keys.splice(lowerBound(key), 0, key);
    }
    rows.push(row);
    log.push(event);
    hub.publish([event]);
    return row.kv;
  };

  const ensureOpen = (): void => {
    if (closed) throw unavailable(undefined, 'the store is closed');
  };

  const listAt = (prefix: string, rev: number, limit: number, startKey: string | undefined): ListResult => {
    const kvs: KeyValue[] = [];
    let more = false;
    const from = startKey !== undefined && startKey > prefix ? startKey : prefix;
    for (let i = lowerBound(from); i < keys.length && keys[i]!.startsWith(prefix); i++) {
      const kv = visibleAt(keys[i]!, rev);
      if (kv === undefined) continue;
      if (limit > 0 && kvs.length === limit) {
        more = true;
        break;
      }
      kvs.push(kv);
    }
    return { revision: rev, kvs, more };
  };

  return {
    name: 'memory',
    async currentRevision() {
      ensureOpen();
      return revision;
    },
    revisionNow: () => (closed ? undefined : revision),
    async compactRevision() {
      ensureOpen();
      return compacted;
    },
    async get(key, options) {
      ensureOpen();
      const checked = checkReadRevision(options?.revision, revision, compacted);
      if (!checked.ok) return checked;
      const kv = visibleAt(key, checked.value);
      return { ok: true, value: kv === undefined ? { revision: checked.value } : { revision: checked.value, kv } };
    },
    async list(prefix, options) {
      ensureOpen();
      const checked = checkReadRevision(options?.revision, revision, compacted);
      if (!checked.ok) return checked;
      return { ok: true, value: listAt(prefix, checked.value, options?.limit ?? 0, options?.startKey) };
    },
    async count(prefix) {
      ensureOpen();
      return { revision, count: listAt(prefix, revision, 0, undefined).kvs.length };
    },
    async create(key, value): Promise<BackendResult<KeyValue, 'KeyExists'>> {
      ensureOpen();
      const current = visibleAt(key, revision);
      if (current !== undefined) return { ok: false, error: { code: 'KeyExists', current } };
      const rev = ++revision;
      const kv: KeyValue = { key, value, createRevision: rev, modRevision: rev };
      return { ok: true, value: append(key, { kv, deleted: false }, { type: 'put', kv }) };
    },
    async update(key, value, expectedModRevision): Promise<BackendResult<KeyValue, 'NotFound' | 'Conflict'>> {
      ensureOpen();
      const current = visibleAt(key, revision);
      if (current === undefined) return { ok: false, error: { code: 'NotFound' } };
      if (current.modRevision !== expectedModRevision) return { ok: false, error: { code: 'Conflict', current } };
      const rev = ++revision;
      const kv: KeyValue = { key, value, createRevision: current.createRevision, modRevision: rev };
      return { ok: true, value: append(key, { kv, deleted: false }, { type: 'put', kv, prevKv: current }) };
    },
    async delete(key, expectedModRevision): Promise<BackendResult<KeyValue, 'NotFound' | 'Conflict'>> {
      ensureOpen();
      const current = visibleAt(key, revision);
      if (current === undefined) return { ok: false, error: { code: 'NotFound' } };
      if (expectedModRevision !== undefined && current.modRevision !== expectedModRevision) {
        return { ok: false, error: { code: 'Conflict', current } };
      }
      const rev = ++revision;
      const kv: KeyValue = { ...current, modRevision: rev };
      return { ok: true, value: append(key, { kv, deleted: true }, { type: 'delete', kv, prevKv: current }) };
    },
    watch(prefix, afterRevision, listener) {
      ensureOpen();
      return hub.watch(prefix, afterRevision, listener);
    },
    async compact(target) {
      ensureOpen();
      const to = Math.min(target, revision);
      if (to <= compacted) return;
      compacted = to;
      // Same rule as kine and etcd: drop rows superseded before `to` and delete tombstones before `to`; the value
      // each key had at `to` stays, so reads at `to` and later, and watches from `to - 1`, are unaffected.
      for (const [key, rows] of history) {
        let last = -1;
        while (last + 1 < rows.length && rows[last + 1]!.kv.modRevision < to) last++;
        if (last < 0) continue;
        const keepFrom = rows[last]!.deleted ? last + 1 : last;
        rows.splice(0, keepFrom);
        if (rows.length === 0) {
          history.delete(key);
          keys.splice(lowerBound(key), 1);
        }
      }
      log = log.slice(Math.max(0, to - logBase));
      logBase = Math.max(logBase, to);
    },
    async close() {
      if (closed) return;
      closed = true;
      hub.closeAll('storage is closed');
    },
  };
}
