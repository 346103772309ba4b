import assert from 'node:assert/strict';
import { test } from 'node:test';
import { err, ok } from './backend-suite.js';
import { startCompactor } from './compactor.js';
import { openMemoryBackend } from './memory/memory-backend.js';

test('the compactor forgets history older than the window, by time', async () => {
  const b = openMemoryBackend();
  let clock = 1_000_000;
  const errors: unknown[] = [];
  const first = ok(await b.create('/registry/core/configmaps/ns/a', '1'));
  const compactor = startCompactor(b, {
    windowMs: 60_000,
    intervalMs: 3_600_000,
    now: () => clock,
    onError: (e) => errors.push(e),
  });
  try {
    await compactor.tick(); // the start sample at t0 is `first`
    const second = ok(await b.update(first.key, '2', first.modRevision));
    clock += 30_000;
    await compactor.tick(); // t0+30s: `second`
    ok(await b.update(first.key, '3', second.modRevision));
    clock += 29_999;
    await compactor.tick();
    assert.equal(await b.compactRevision(), 0, 'nothing is a full window old yet');
    clock += 1;
    await compactor.tick();
    assert.equal(await b.compactRevision(), first.modRevision, 'compacted to what was current a window ago');
    clock += 30_000;
    await compactor.tick();
    assert.equal(await b.compactRevision(), second.modRevision);
    assert.equal(err(await b.get(first.key, { revision: first.modRevision })).code, 'Compacted');
    assert.equal(ok(await b.get(first.key)).kv?.value, '3');
    clock += 600_000;
    await compactor.tick();
    assert.equal(await b.compactRevision(), await b.currentRevision());
    assert.deepEqual(errors, []);
  } finally {
    compactor.stop();
    await b.close();
  }
});

test('the compactor reports a failing store and keeps going', async () => {
  const b = openMemoryBackend();
  let clock = 0;
  const errors: unknown[] = [];
  const compactor = startCompactor(b, { windowMs: 10, now: () => clock, onError: (e) => errors.push(e) });
  ok(await b.create('/registry/k', 'v'));
  await b.close();
  clock += 100;
  await compactor.tick();
  compactor.stop();
  assert.equal(errors.length, 1);
  assert.equal((errors[0] as { code?: string }).code, 'Unavailable');
});
