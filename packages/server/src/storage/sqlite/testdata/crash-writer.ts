/**
 * Child process of the crash test: writes to the store at argv[2] from many concurrent writers, printing each key
 * on stdout only after its write was acknowledged, until it is killed.
 */
import { openSqliteBackend } from '../sqlite-backend.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: crash-writer <database file>');
const backend = openSqliteBackend({ path });
const writers = 16;

async function writer(id: number): Promise<void> {
  for (let n = 0; ; n++) {
    const key = `/registry/crash/w${id}-${n}`;
    const created = await backend.create(key, JSON.stringify({ id, n }));
    if (!created.ok) throw new Error(`create ${key}: ${created.error.code}`);
    // Updates too, so the log has rows that replace rows.
    const updated = await backend.update(key, JSON.stringify({ id, n, updated: true }), created.value.modRevision);
    if (!updated.ok) throw new Error(`update ${key}: ${updated.error.code}`);
    process.stdout.write(`${key} ${updated.value.modRevision}\n`);
  }
}

process.stdout.write('ready\n');
for (let i = 0; i < writers; i++) void writer(i);
