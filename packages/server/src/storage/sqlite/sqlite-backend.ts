/**
 * The embedded Backend: a kine-style revision log in one SQLite file (see `schema.ts`).
 *
 * Durability: an acknowledged write survives `kill -9` and power loss. Concurrent writes share one transaction
 * (`group-commit.ts`) to pay one sync per batch, and the sync runs off the event loop: the WAL is kept with
 * synchronous=NORMAL (a commit writes its frames, SQLite syncs only around checkpoints, in commit order), and after
 * each batch's commit the WAL file is fdatasync'ed on libuv's thread pool. Only then is the batch acknowledged, its
 * revision made the one reads are served at and its events published, so nothing a client or watcher saw can be
 * lost; the next batch commits while the sync runs (SQLite's own synchronous=FULL would block the event loop for
 * every sync). Batches become durable and visible in commit order: each sync covers its batch and all before it.
 * Watchers are told in-process (no polling: this process is the only writer). Compaction deletes old history in
 * small transactions so writes wait at most one batch. better-sqlite3 is synchronous: reads run inline (they are
 * index range scans bounded by the visible revision), writes are queued and committed on the next turn of the loop.
 */
import { closeSync, fdatasync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Backend, BackendEvent, BackendResult, KeyValue } from '../backend.js';
import { prefixEnd } from '../key.js';
import { checkReadRevision, compactedWatch } from '../revision-check.js';
import { unavailable } from '../unavailable.js';
import { createWatchHub } from '../watch-hub.js';
import { createGroupCommitter, type GroupCommitStats } from './group-commit.js';
import { prepareSchema, schemaVersion, type EventRow, type LogRow, type MetaKey } from './schema.js';

/** Options of {@link openSqliteBackend}. */
export interface SqliteBackendOptions {
  /** The database file; its directory is created if missing. */
  readonly path: string;
  /** Revisions whose history one compaction transaction deletes (default 1000). */
  readonly compactBatch?: number;
}

/** The SQLite Backend, with counters for tests and metrics. */
export interface SqliteBackend extends Backend {
  /** Group-commit counters: fewer transactions than writes means batching works. */
  stats(): GroupCommitStats;
}

type WriteOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: string }
  | { readonly kind: 'update'; readonly key: string; readonly value: string; readonly expected: number }
  | { readonly kind: 'delete'; readonly key: string; readonly expected: number | undefined };

type WriteResult = BackendResult<KeyValue, 'KeyExists' | 'NotFound' | 'Conflict'>;

/** Upper bound of a key range: the prefix's end, or above every valid key for the empty prefix. */
const rangeEnd = (prefix: string): string => prefixEnd(prefix) ?? '\u{10ffff}';

const toKv = (row: LogRow): KeyValue => ({
  key: row.name,
  value: row.value,
  createRevision: row.create_revision,
  modRevision: row.id,
});

/** Turns a log row (with the row it replaced) into the watch event it stands for. */
function toEvent(row: EventRow): BackendEvent {
  const kv = toKv(row);
  const replacedLive = row.created === 0 && row.p_id !== null && row.p_deleted === 0;
  if (!replacedLive) return { type: row.deleted === 1 ? 'delete' : 'put', kv };
  const prevKv: KeyValue = {
    key: row.name,
    value: row.p_value ?? '',
    createRevision: row.p_create_revision ?? 0,
    modRevision: row.p_id ?? 0,
  };
  return { type: row.deleted === 1 ? 'delete' : 'put', kv, prevKv };
}

/** Opens (creating if needed) the store at `options.path` and recovers its last committed state. */
export function openSqliteBackend(options: SqliteBackendOptions): SqliteBackend {
  mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  // NORMAL: commits do not sync; each batch's WAL frames are synced off the event loop before it is acknowledged.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const sql = prepareSchema(db);
  const meta = (key: MetaKey): number => sql.getMeta.get(key)?.value ?? 0;
  const storedVersion = meta('schema_version');
  if (storedVersion > schemaVersion) {
    db.close();
    throw new Error(`${options.path}: schema version ${storedVersion} is newer than this server's ${schemaVersion}`);
  }
  sql.setMeta.run('schema_version', schemaVersion);

  // Compaction deletes only rows below the compacted revision, which is at most the current one, so the log's newest
  // row always survives to recover the revision counter from.
  let revision = sql.maxId.get()?.id ?? 0;
  /** The newest revision committed to the log; it becomes `revision` (visible) once its batch is synced. */
  let written = revision;
  let compacted = meta('compact_revision');
  let closed = false;
  const compactBatch = options.compactBatch ?? 1000;

  const hub = createWatchHub({
    currentRevision: () => revision,
    eventsAfter(prefix, afterRevision) {
      const bad = compactedWatch(afterRevision, compacted);
      if (bad !== undefined) return { ok: false, error: bad };
      // Rows of batches still syncing are published when their sync is done, not replayed here.
      const rows = sql.after.all(afterRevision, prefix, rangeEnd(prefix));
      return { ok: true, value: (written === revision ? rows : rows.filter((r) => r.id <= revision)).map(toEvent) };
    },
  });

  /** Applies one op inside the batch's transaction; rows written earlier in the batch are visible to it. */
  const apply = (op: WriteOp, next: () => number, events: BackendEvent[]): WriteResult => {
    const latest = sql.latest.get(op.key);
    const live = latest !== undefined && latest.deleted === 0 ? latest : undefined;
    if (op.kind === 'create') {
      if (live !== undefined) return { ok: false, error: { code: 'KeyExists', current: toKv(live) } };
      const rev = next();
      sql.insert.run(rev, op.key, 1, 0, rev, latest?.id ?? 0, op.value);
      const kv: KeyValue = { key: op.key, value: op.value, createRevision: rev, modRevision: rev };
      events.push({ type: 'put', kv });
      return { ok: true, value: kv };
    }
    if (live === undefined) return { ok: false, error: { code: 'NotFound' } };
    const current = toKv(live);
    if (op.expected !== undefined && op.expected !== live.id) return { ok: false, error: { code: 'Conflict', current } };
    const rev = next();
    if (op.kind === 'update') {
      sql.insert.run(rev, op.key, 0, 0, live.create_revision, live.id, op.value);
      const kv: KeyValue = { key: op.key, value: op.value, createRevision: live.create_revision, modRevision: rev };
      events.push({ type: 'put', kv, prevKv: current });
      return { ok: true, value: kv };
    }
    sql.insert.run(rev, op.key, 0, 1, live.create_revision, live.id, live.value);
    const kv: KeyValue = { ...current, modRevision: rev };
    events.push({ type: 'delete', kv, prevKv: current });
    return { ok: true, value: kv };
  };

  const commitBatch = db.transaction((ops: readonly WriteOp[], events: BackendEvent[]) => {
    let last = written;
    const results = ops.map((op) => apply(op, () => ++last, events));
    return { results, last };
  });

  let walFd: number | undefined;
  /** fdatasync of the WAL file on the thread pool (the file exists from the first write, made at open). */
  const syncLog = (): Promise<void> => new Promise((resolve, reject) => {
    try {
      walFd ??= openSync(`${options.path}-wal`, 'r');
    } catch (error) {
      reject(error);
      return;
    }
    fdatasync(walFd, (error) => (error ? reject(error) : resolve()));
  });
  /** The last batch's sync and publication; each batch waits for the one before it. */
  let synced: Promise<void> = Promise.resolve();
  /** Set when a sync failed: what the log holds past `revision` may not be on disk, so no write is taken any more. */
  let syncFailure: unknown;

  const writer = createGroupCommitter<WriteOp, WriteResult>((ops) => {
    if (syncFailure !== undefined) throw unavailable(syncFailure);
    const events: BackendEvent[] = [];
    let outcome: { results: WriteResult[]; last: number };
    try {
      // IMMEDIATE: take the write lock up front rather than upgrading a read lock mid-transaction.
      outcome = commitBatch.immediate(ops, events);
    } catch (error) {
      throw unavailable(error);
    }
    const wrote = outcome.last > written;
    written = outcome.last;
    // A batch that wrote nothing (every op failed its check) needs no sync, but its answers still wait for the
    // batches before it: they were decided on rows those batches wrote.
    const done = synced.then(() => {
      // After a failed sync no later batch is acknowledged or made visible: it may stand on rows that were lost.
      if (syncFailure !== undefined) throw syncFailure;
      return wrote ? syncLog() : undefined;
    }).then(() => {
      revision = outcome.last;
      hub.publish(events);
      return outcome.results;
    }, (error: unknown) => {
      syncFailure ??= error;
      throw unavailable(syncFailure);
    });
    synced = done.then(() => undefined, () => undefined);
    return done;
  });

  const submit = (op: WriteOp): Promise<WriteResult> => {
    if (closed) return Promise.reject(unavailable(undefined, 'the store is closed'));
    return writer.submit(op);
  };

  /** Runs a read, turning store failures into `Unavailable`. */
  const read = <T>(body: () => T): Promise<T> => {
    if (closed) return Promise.reject(unavailable(undefined, 'the store is closed'));
    try {
      return Promise.resolve(body());
    } catch (error) {
      return Promise.reject(unavailable(error));
    }
  };

  const compactRange = db.transaction((from: number, to: number) => {
    sql.deleteReplaced.run(from, to);
    sql.deleteTombstones.run(from, to);
    sql.setMeta.run('compact_progress', to);
  });

  let compacting: Promise<void> = Promise.resolve();
  /** Deletes history below `to` in small transactions, yielding to writers between them (kine's rule). */
  const compactTo = async (to: number): Promise<void> => {
    let from = Math.max(1, meta('compact_progress'));
    while (from < to && !closed) {
      const end = Math.min(from + compactBatch, to);
      try {
        compactRange.immediate(from, end);
      } catch (error) {
        throw unavailable(error);
      }
      from = end;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  return {
    name: 'sqlite',
    currentRevision: () => read(() => revision),
    revisionNow: () => (closed ? undefined : revision),
    compactRevision: () => read(() => compacted),
    get: (key, opts) =>
      read(() => {
        const checked = checkReadRevision(opts?.revision, revision, compacted);
        if (!checked.ok) return checked;
        const row = sql.latestAt.get(key, checked.value);
        const value =
          row === undefined || row.deleted === 1 ? { revision: checked.value } : { revision: checked.value, kv: toKv(row) };
        return { ok: true as const, value };
      }),
    list: (prefix, opts) =>
      read(() => {
        const checked = checkReadRevision(opts?.revision, revision, compacted);
        if (!checked.ok) return checked;
        const limit = opts?.limit ?? 0;
        const from = opts?.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix;
        const rows = sql.range.all(from, rangeEnd(prefix), checked.value, limit > 0 ? limit + 1 : -1);
        const more = limit > 0 && rows.length > limit;
        const kvs = (more ? rows.slice(0, limit) : rows).map(toKv);
        return { ok: true as const, value: { revision: checked.value, kvs, more } };
      }),
    count: (prefix) =>
      read(() => ({ revision, count: sql.count.get(prefix, rangeEnd(prefix), revision)?.n ?? 0 })),
    create: (key, value) => submit({ kind: 'create', key, value }) as Promise<BackendResult<KeyValue, 'KeyExists'>>,
    update: (key, value, expected) =>
      submit({ kind: 'update', key, value, expected }) as Promise<BackendResult<KeyValue, 'NotFound' | 'Conflict'>>,
    delete: (key, expected) =>
      submit({ kind: 'delete', key, expected }) as Promise<BackendResult<KeyValue, 'NotFound' | 'Conflict'>>,
    watch(prefix, afterRevision, listener) {
      if (closed) throw unavailable(undefined, 'the store is closed');
      return hub.watch(prefix, afterRevision, listener);
    },
    compact(target) {
      if (closed) return Promise.reject(unavailable(undefined, 'the store is closed'));
      const to = Math.min(target, revision);
      if (to <= compacted) return compacting;
      // Reads below `to` fail from now on, before any row goes, so no reader sees half-compacted history.
      compacted = to;
      try {
        sql.setMeta.run('compact_revision', to);
      } catch (error) {
        return Promise.reject(unavailable(error));
      }
      compacting = compacting.catch(() => undefined).then(() => compactTo(to));
      return compacting;
    },
    async close() {
      if (closed) return;
      writer.flush();
      closed = true;
      await synced;
      await compacting.catch(() => undefined);
      hub.closeAll('the store is closed');
      db.close();
      if (walFd !== undefined) closeSync(walFd);
    },
    stats: () => writer.stats(),
  };
}
