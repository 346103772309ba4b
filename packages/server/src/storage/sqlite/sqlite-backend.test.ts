import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { err, ok, runBackendSuite } from '../backend-suite.js';
import { openSqliteBackend } from './sqlite-backend.js';

runBackendSuite('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-sqlite-'));
  const path = join(dir, 'state.db');
  let current = openSqliteBackend({ path, compactBatch: 3 });
  return {
    backend: current,
    async reopen() {
      await current.close();
      current = openSqliteBackend({ path, compactBatch: 3 });
      return current;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('sqlite backend', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-sqlite-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('concurrent writes share transactions (group commit), each with its own result', async () => {
    const b = openSqliteBackend({ path: join(dir, 'group.db') });
    try {
      ok(await b.create('/registry/g/taken', 'x'));
      const start = b.stats();
      const [results, exists, missing] = await Promise.all([
        Promise.all(Array.from({ length: 64 }, (_, i) => b.create(`/registry/g/k${i}`, `${i}`))),
        b.create('/registry/g/taken', 'again'),
        b.update('/registry/g/missing', 'x', 1),
      ]);
      const end = b.stats();
      assert.equal(end.writes - start.writes, 66);
      assert.ok(end.transactions - start.transactions < 8, `${end.transactions - start.transactions} transactions`);
      const revs = results.map((r) => ok(r).modRevision);
      assert.equal(new Set(revs).size, 64);
      assert.equal(err(exists).code, 'KeyExists');
      assert.equal(err(missing).code, 'NotFound');
      assert.equal((await b.count('/registry/g/')).count, 65);
    } finally {
      await b.close();
    }
  });

  test('a write is seen by reads and watches once it is acknowledged, each event once, while later batches sync', async () => {
    const b = openSqliteBackend({ path: join(dir, 'visible.db') });
    const watches: { from: number; revisions: number[]; cancel(): void }[] = [];
    const watchFrom = async (): Promise<void> => {
      const from = await b.currentRevision();
      const revisions: number[] = [];
      const handle = b.watch('/registry/v/', from, { onEvents: (events) => revisions.push(...events.map((e) => e.kv.modRevision)), onError: () => undefined });
      watches.push({ from, revisions, cancel: () => handle.cancel() });
    };
    try {
      await watchFrom();
      const writes = Array.from({ length: 300 }, async (_, i) => {
        // Writes spread over several turns, so that batches commit while earlier ones still sync.
        for (let t = 0; t < i % 7; t++) await new Promise((resolve) => setImmediate(resolve));
        const kv = ok(await b.create(`/registry/v/k${i}`, `${i}`));
        // Acknowledged: a read at the current revision has it.
        assert.ok((await b.currentRevision()) >= kv.modRevision);
        assert.equal(ok(await b.get(kv.key)).kv?.modRevision, kv.modRevision);
        if (i % 10 === 0) await watchFrom();
        return kv.modRevision;
      });
      const revisions = (await Promise.all(writes)).sort((x, y) => x - y);
      await new Promise((resolve) => setImmediate(resolve));
      for (const w of watches) {
        assert.deepEqual(w.revisions, revisions.filter((r) => r > w.from), `watch from ${w.from}`);
        w.cancel();
      }
    } finally {
      await b.close();
    }
  });

  test('close commits queued writes first', async () => {
    const path = join(dir, 'close.db');
    const b = openSqliteBackend({ path });
    const pending = Array.from({ length: 10 }, (_, i) => b.create(`/registry/c/${i}`, 'v'));
    await b.close();
    for (const p of pending) ok(await p);
    await assert.rejects(b.create('/registry/c/late', 'v'), { code: 'Unavailable' });
    const again = openSqliteBackend({ path });
    try {
      assert.equal((await again.count('/registry/c/')).count, 10);
    } finally {
      await again.close();
    }
  });

  test('compaction deletes replaced rows and tombstones in small batches while writes go on', async () => {
    const path = join(dir, 'compact.db');
    const b = openSqliteBackend({ path, compactBatch: 50 });
    try {
      let kv = ok(await b.create('/registry/x/hot', '0'));
      for (let i = 1; i <= 1000; i++) kv = ok(await b.update(kv.key, `${i}`, kv.modRevision));
      for (let i = 0; i < 100; i++) ok(await b.delete(ok(await b.create(`/registry/x/tmp${i}`, 'v')).key));
      const keep = ok(await b.create('/registry/x/keep', 'k'));
      const target = await b.currentRevision();
      let compactionDone = false;
      const compaction = b.compact(target).then(() => {
        compactionDone = true;
      });
      // A write issued while the compaction runs is committed between two of its batches.
      ok(await b.create('/registry/x/during', 'd'));
      assert.equal(compactionDone, false, 'the write did not wait for the whole compaction');
      await compaction;
      assert.equal(await b.compactRevision(), target);
      assert.deepEqual(ok(await b.list('/registry/x/')).kvs.map((k) => k.key), [
        '/registry/x/during',
        '/registry/x/hot',
        '/registry/x/keep',
      ]);
      assert.deepEqual(ok(await b.get('/registry/x/keep')).kv, keep);
      assert.equal(ok(await b.get('/registry/x/hot')).kv?.value, '1000');
    } finally {
      await b.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      const rows = raw.prepare('SELECT name FROM log ORDER BY id').all() as { name: string }[];
      assert.deepEqual(rows.map((r) => r.name), ['/registry/x/hot', '/registry/x/keep', '/registry/x/during']);
    } finally {
      raw.close();
    }
  });

  test('kill -9 loses no acknowledged write', async () => {
    const path = join(dir, 'crash.db');
    const here = fileURLToPath(import.meta.url);
    const script = join(dirname(here), 'testdata', `crash-writer${extname(here)}`);
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--test'));
    const child = spawn(process.execPath, [...execArgv, script, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let errText = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errText += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child made too little progress: ${errText}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.split('\n').length > 400) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => {
        clearTimeout(timer);
        reject(new Error(`child exited early: ${errText}`));
      });
    }).catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    });
    assert.equal(await exited, 'SIGKILL');
    const acked = out
      .split('\n')
      .slice(0, -1) // the last piece is a line the child was still writing when it died
      .filter((line) => line.startsWith('/registry/'))
      .map((line) => {
        const [key, rev] = line.split(' ');
        return { key: key!, rev: Number(rev) };
      });
    assert.ok(acked.length >= 400);
    const b = openSqliteBackend({ path });
    try {
      const maxAcked = Math.max(...acked.map((a) => a.rev));
      assert.ok((await b.currentRevision()) >= maxAcked);
      for (const a of acked) {
        const got = ok(await b.get(a.key));
        assert.ok(got.kv !== undefined, `${a.key} acknowledged but lost`);
        assert.equal(got.kv.modRevision, a.rev);
        assert.match(got.kv.value, /"updated":true/);
      }
      // The store takes writes again, above every revision it had.
      const next = ok(await b.create('/registry/crash/after', 'x'));
      assert.ok(next.modRevision > maxAcked);
    } finally {
      await b.close();
    }
  });
});
