import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.js';
import { testRegistry } from '../testing/test-registry.js';
import { startupBatch } from './startup-batch.js';

const namespace = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const configMap = (ns: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { a: '1' } });

/** Resolves after the event loop turned a few times, so that anything pending would have run. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

test('creates wait for every writer and the seal, then go in two transactions: the namespaces, then what lives in them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-startup-batch-'));
  const backend = openSqliteBackend({ path: join(dir, 'db.sqlite') });
  try {
    const t = await testRegistry([], undefined, backend);
    const ns = t.registry.lookup('', 'v1', 'namespaces')!;
    const cm = t.registry.lookup('', 'v1', 'configmaps')!;
    const batch = startupBatch(t.registry);
    const a = batch.join();
    const b = batch.join();
    const idle = batch.join();
    // The namespaced objects are handed first, by the other writer: the waves, not the order of hand-over, decide.
    const bDone = b.create([cm, cm, cm].map((def, i) => ({ def, object: configMap('team', `c${i}`) })));
    const aDone = a.create([{ def: ns, object: namespace('team') }, { def: ns, object: namespace('other') }]);
    await settle();
    assert.equal((await t.registry.store.get(ns, '', 'team')).ok, false, 'nothing is created before the seal');
    batch.seal();
    await settle();
    assert.equal((await t.registry.store.get(ns, '', 'team')).ok, false, 'nor while a writer that joined has not handed');
    const before = backend.stats();
    idle.release();
    const [aResults, bResults] = await Promise.all([aDone, bDone]);
    assert.deepEqual(aResults.map((r) => r.ok && r.value.metadata?.name), ['team', 'other']);
    assert.deepEqual(bResults.map((r) => r.ok && r.value.metadata?.name), ['c0', 'c1', 'c2']);
    const after = backend.stats();
    assert.equal(after.writes - before.writes, 5);
    assert.equal(after.transactions - before.transactions, 2);
    // After its first hand-over a writer creates at once; so does one that joins after the seal.
    const again = await a.create([{ def: cm, object: configMap('team', 'later') }]);
    assert.equal(again[0]!.ok, true);
    const late = await batch.join().create([{ def: ns, object: namespace('late') }]);
    assert.equal(late[0]!.ok, true);
  } finally {
    await backend.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('each create keeps its own result: one already stored or refused does not stop the others', async () => {
  const t = await testRegistry(['default']);
  const ns = t.registry.lookup('', 'v1', 'namespaces')!;
  const cm = t.registry.lookup('', 'v1', 'configmaps')!;
  const batch = startupBatch(t.registry);
  const w = batch.join();
  batch.seal();
  const results = await w.create([
    { def: ns, object: namespace('default') },
    { def: cm, object: configMap('missing', 'orphan') },
    { def: ns, object: namespace('fresh') },
    { def: cm, object: configMap('default', 'kept') },
  ]);
  assert.deepEqual(results.map((r) => (r.ok ? 'ok' : r.error.reason)), ['AlreadyExists', 'NotFound', 'ok', 'ok']);
});

test('a writer that gives up its place does not hold the batch, and creates at once afterwards', async () => {
  const t = await testRegistry([]);
  const ns = t.registry.lookup('', 'v1', 'namespaces')!;
  const batch = startupBatch(t.registry);
  const giving = batch.join();
  const handing = batch.join();
  const handed = handing.create([{ def: ns, object: namespace('handed') }]);
  batch.seal();
  giving.release();
  giving.release();
  assert.equal((await handed)[0]!.ok, true);
  const created = await giving.create([{ def: ns, object: namespace('after') }]);
  assert.equal(created[0]!.ok, true);
});
