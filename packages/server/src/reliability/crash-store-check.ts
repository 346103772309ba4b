/**
 * After a run of crashes, the store itself must be sound, beyond the server starting on it:
 *
 * - SQLite: the file passes `PRAGMA integrity_check`; the revision log keeps kine's invariants (a create row's
 *   create revision is its own id, any other row's is older; at most one row per key and previous revision; the
 *   compacted revision is not beyond the newest row); and the newest row is at or above every resourceVersion the
 *   server ever acknowledged, so the revision counter never went back.
 * - etcd: every member is up and, once they agree on the revision, holds the same key-value history (HashKV, the
 *   check etcd's own corruption detection uses), with the same compacted revision.
 */
import Database from 'better-sqlite3';
import { Etcd3, type IHashKVResponse } from 'etcd3';

/**
 * HashKV through the client's connection pool: the library's `maintenance.hashKV` asks gRPC for a method its loaded
 * service names `HashKV`, and fails, so the call goes to the pool with the name of the proto.
 */
function hashKV(client: Etcd3, revision: number): Promise<IHashKVResponse> {
  const pool = (client as unknown as { pool: { exec(service: string, method: string, payload: unknown): Promise<IHashKVResponse> } }).pool;
  return pool.exec('Maintenance', 'HashKV', { revision });
}

/** Checks a SQLite store file (the server that used it stopped); returns the violations. */
export function checkSqliteStore(path: string, highestAcknowledged: number): string[] {
  const out: string[] = [];
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    if (integrity.length !== 1 || integrity[0]!.integrity_check !== 'ok') {
      out.push(`integrity_check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
    }
    const badCreates = db.prepare('SELECT COUNT(*) AS n FROM log WHERE (created = 1 AND create_revision != id) OR (created = 0 AND create_revision >= id)').get() as { n: number };
    if (badCreates.n > 0) out.push(`${badCreates.n} log rows have a create revision that does not fit their kind`);
    const twins = db.prepare('SELECT COUNT(*) AS n FROM (SELECT name, prev_revision FROM log GROUP BY name, prev_revision HAVING COUNT(*) > 1)').get() as { n: number };
    if (twins.n > 0) out.push(`${twins.n} (key, previous revision) pairs have more than one row: a compare-and-swap let two writes through`);
    const newest = (db.prepare('SELECT MAX(id) AS id FROM log').get() as { id: number | null }).id ?? 0;
    const compacted = (db.prepare("SELECT value FROM meta WHERE key = 'compact_revision'").get() as { value: number } | undefined)?.value ?? 0;
    if (compacted > newest) out.push(`compacted revision ${compacted} is beyond the newest row ${newest}`);
    if (newest < highestAcknowledged) out.push(`the newest row is ${newest}, below the acknowledged resourceVersion ${highestAcknowledged}: the revision went back`);
  } finally {
    db.close();
  }
  return out;
}

/** Checks that every member of an etcd cluster holds the same history; returns the violations. */
export async function checkEtcdMembers(endpoints: readonly string[], timeoutMs = 15_000): Promise<string[]> {
  const clients = endpoints.map((url) => new Etcd3({ hosts: [url] }));
  try {
    const deadline = Date.now() + timeoutMs;
    let revisions: number[] = [];
    // Followers apply the leader's last entries a moment after it: wait until every member is at one revision.
    for (;;) {
      revisions = await Promise.all(clients.map(async (c) => Number((await c.maintenance.status()).header.revision)));
      if (revisions.every((r) => r === revisions[0])) break;
      if (Date.now() > deadline) return [`etcd members stay at different revisions: ${revisions.join(', ')}`];
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const hashes = await Promise.all(clients.map((c) => hashKV(c, revisions[0]!)));
    const seen = hashes.map((h, i) => `${endpoints[i]}: hash ${h.hash}, compacted ${h.compact_revision}`);
    const first = hashes[0]!;
    return hashes.every((h) => h.hash === first.hash && h.compact_revision === first.compact_revision)
      ? []
      : [`etcd members differ at revision ${revisions[0]}: ${seen.join('; ')}`];
  } finally {
    for (const c of clients) c.close();
  }
}
