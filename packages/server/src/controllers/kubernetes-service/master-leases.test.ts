import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openMemoryBackend } from '../../storage/memory/memory-backend.js';
import { masterLeases, masterLeasesPrefix } from './master-leases.js';

test('master leases: refreshed ones are live; one nobody refreshed for the lease time is expired and deleted', async () => {
  const backend = openMemoryBackend();
  let now = 1_000_000;
  const a = masterLeases(backend, { ttlMs: 15_000, now: () => now });
  const b = masterLeases(backend, { ttlMs: 15_000, now: () => now });
  await a.updateLease('10.0.0.2');
  await b.updateLease('10.0.0.3');
  assert.deepEqual(await a.listLeases(), ['10.0.0.2', '10.0.0.3']);
  // b stops refreshing; a keeps refreshing its own.
  now += 10_000;
  await a.updateLease('10.0.0.2');
  assert.deepEqual(await a.listLeases(), ['10.0.0.2', '10.0.0.3'], 'within the lease time');
  now += 6_000;
  await a.updateLease('10.0.0.2');
  assert.deepEqual(await a.listLeases(), ['10.0.0.2'], 'past the lease time since a last saw it change');
  const left = await backend.list(masterLeasesPrefix);
  assert.ok(left.ok);
  assert.deepEqual(left.value.kvs.map((kv) => kv.key), [`${masterLeasesPrefix}10.0.0.2`], 'the expired key is gone, as etcd\'s TTL would drop it');
  // The value is kube's: an Endpoints object with the one address, its generation bumped by each refresh.
  assert.deepEqual(JSON.parse(left.value.kvs[0]!.value), {
    kind: 'Endpoints', apiVersion: 'v1', metadata: { name: '10.0.0.2', generation: 3 }, subsets: [{ addresses: [{ ip: '10.0.0.2' }] }],
  });
});

test('master leases: age is measured on the reader\'s clock from when it saw the key change, and a refresh revives it', async () => {
  const backend = openMemoryBackend();
  let nowA = 0;
  let nowB = 5_000_000; // b's clock is far from a's: only its own observations count.
  const a = masterLeases(backend, { ttlMs: 1_000, now: () => nowA });
  const b = masterLeases(backend, { ttlMs: 1_000, now: () => nowB });
  await b.updateLease('10.0.0.3');
  assert.deepEqual(await a.listLeases(), ['10.0.0.3'], 'first seen now: live for the lease time from here');
  nowA += 900;
  nowB += 900;
  await b.updateLease('10.0.0.3');
  nowA += 900;
  assert.deepEqual(await a.listLeases(), ['10.0.0.3'], 'changed since: counted from the change a saw');
  nowA += 1_100;
  assert.deepEqual(await a.listLeases(), []);
  assert.equal(await b.removeLease('10.0.0.3'), false, 'already collected');
  await b.updateLease('10.0.0.3');
  assert.equal(await b.removeLease('10.0.0.3'), true);
});
