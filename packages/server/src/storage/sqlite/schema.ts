/**
 * The SQLite schema and statements, after kine's: a log table with one row per revision. A row is a create, an
 * update or a delete (tombstone) of one key; `prev_revision` points at the key's previous row, and the unique index
 * on (name, prev_revision) means two writes can never both succeed from the same previous row — the log's own
 * compare-and-swap. Reading at revision R is taking, per key, the newest row with id <= R and dropping tombstones.
 */
import type { Database, Statement } from 'better-sqlite3';

/** Schema version stored in `meta`; bump with a migration when the layout changes. */
export const schemaVersion = 1;

const ddl = `
CREATE TABLE IF NOT EXISTS log (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS log_name_prev_revision ON log (name, prev_revision);
CREATE INDEX IF NOT EXISTS log_name_id ON log (name, id);
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** A row of the log as the statements return it. */
export interface LogRow {
  readonly id: number;
  readonly name: string;
  readonly created: number;
  readonly deleted: number;
  readonly create_revision: number;
  readonly prev_revision: number;
  readonly value: string;
}

/** A log row joined with the row it replaced (absent when compacted or for a first create). */
export interface EventRow extends LogRow {
  readonly p_id: number | null;
  readonly p_create_revision: number | null;
  readonly p_deleted: number | null;
  readonly p_value: string | null;
}

/** Meta keys. */
export type MetaKey = 'schema_version' | 'compact_revision' | 'compact_progress';

/** The prepared statements of one connection. */
export interface Statements {
  /** The newest row of a key (any revision). */
  readonly latest: Statement<[string], LogRow>;
  /** The newest row of a key at or below a revision. */
  readonly latestAt: Statement<[string, number], LogRow>;
  /** Live keys in [from, to) at a revision, ascending, at most `limit` (-1: all). */
  readonly range: Statement<[string, string, number, number], LogRow>;
  /** Number of live keys in [from, to) at a revision. */
  readonly count: Statement<[string, string, number], { n: number }>;
  /** Rows of keys in [from, to) after a revision, in revision order, with the rows they replaced. */
  readonly after: Statement<[number, string, string], EventRow>;
  readonly insert: Statement<[number, string, number, number, number, number, string]>;
  readonly maxId: Statement<[], { id: number | null }>;
  readonly getMeta: Statement<[MetaKey], { value: number }>;
  readonly setMeta: Statement<[MetaKey, number]>;
  /** Compaction, per id range [from, to): rows replaced by a row in the range. */
  readonly deleteReplaced: Statement<[number, number]>;
  /** Compaction, per id range [from, to): tombstones in the range. */
  readonly deleteTombstones: Statement<[number, number]>;
}

/** Creates the tables if missing and prepares the statements. */
export function prepareSchema(db: Database): Statements {
  db.exec(ddl);
  const newestPerKey = 'SELECT MAX(id) AS id FROM log WHERE name >= ? AND name < ? AND id <= ? GROUP BY name';
  return {
    latest: db.prepare('SELECT * FROM log WHERE name = ? ORDER BY id DESC LIMIT 1'),
    latestAt: db.prepare('SELECT * FROM log WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1'),
    range: db.prepare(
      `SELECT l.* FROM log l JOIN (${newestPerKey}) m ON m.id = l.id WHERE l.deleted = 0 ORDER BY l.name LIMIT ?`,
    ),
    count: db.prepare(`SELECT COUNT(*) AS n FROM log l JOIN (${newestPerKey}) m ON m.id = l.id WHERE l.deleted = 0`),
    after: db.prepare(
      `SELECT l.*, p.id AS p_id, p.create_revision AS p_create_revision, p.deleted AS p_deleted, p.value AS p_value
       FROM log l LEFT JOIN log p ON p.id = l.prev_revision
       WHERE l.id > ? AND l.name >= ? AND l.name < ? ORDER BY l.id`,
    ),
    insert: db.prepare(
      'INSERT INTO log (id, name, created, deleted, create_revision, prev_revision, value) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    maxId: db.prepare('SELECT MAX(id) AS id FROM log'),
    getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
    setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    deleteReplaced: db.prepare(
      'DELETE FROM log WHERE id IN (SELECT prev_revision FROM log WHERE id >= ? AND id < ? AND prev_revision != 0)',
    ),
    deleteTombstones: db.prepare('DELETE FROM log WHERE id >= ? AND id < ? AND deleted = 1'),
  };
}
