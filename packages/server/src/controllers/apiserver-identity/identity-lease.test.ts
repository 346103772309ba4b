import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';
import { fakeClock } from '../kit/clock.js';
import { apiServerId } from './apiserver-id.js';
import { microTime, startIdentityLease } from './identity-lease.js';
import { leaseExpired, startIdentityLeaseGc } from './identity-lease-gc.js';

const group = 'coordination.svc.io';

test('the identity: apiserver- and the base32 of SHA-256 over the length-prefixed host and identity', () => {
  // sha256(00 04 "host" 00 0e "kube-apiserver"), first 16 bytes, RFC 4648 base32, lower case, unpadded.
  const id = apiServerId('host', 'kube-apiserver');
  assert.match(id, /^apiserver-[a-z2-7]{26}$/);
  assert.equal(id, apiServerId('host', 'kube-apiserver'), 'the same host keeps its identity');
  assert.notEqual(id, apiServerId('other', 'kube-apiserver'));
  assert.notEqual(id, apiServerId('host', 'svc-apiserver'));
});

test('the identity Lease: created with its labels, holder and duration, renewed every 10 s on the clock', async () => {
  const { registry, names, call } = await testRegistry(['svc-system']);
  const clock = fakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const lease = startIdentityLease({ registry, names, host: 'node-a', clock });
  try {
    const get = async () => (await call({ verb: 'get', group, resource: 'leases', namespace: 'svc-system', name: lease.id })).body as KubeObject;
    for (let i = 0; i < 100 && (await lease.checks[0]!.check()) !== undefined; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(lease.checks[0]!.name, 'poststarthook/start-kube-apiserver-identity-lease-controller');
    assert.equal(await lease.checks[0]!.check(), undefined);
    const first = await get();
    assert.equal(lease.id, apiServerId('node-a', 'svc-apiserver'));
    assert.deepEqual(first.metadata?.labels, { 'apiserver.svc.io/identity': 'svc-apiserver', 'svc.io/hostname': 'node-a' });
    assert.deepEqual(first['spec'], { holderIdentity: lease.holderIdentity, leaseDurationSeconds: 3600, renewTime: '2026-01-01T00:00:00.000000Z' });
    assert.match(lease.holderIdentity, new RegExp(`^${lease.id}_[0-9a-f-]{36}$`));
    clock.step(10_000);
    for (let i = 0; i < 100 && ((await get())['spec'] as { renewTime: string }).renewTime !== microTime(clock.now()); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(((await get())['spec'] as { renewTime: string }).renewTime, '2026-01-01T00:00:10.000000Z');
  } finally {
    lease.stop();
  }
});

test('the identity Lease is first written once what it waits for (the system namespaces) is done', async () => {
  const { registry, names, call } = await testRegistry([]);
  let namespacesDone!: () => void;
  const after = new Promise<void>((resolve) => {
    namespacesDone = resolve;
  });
  const lease = startIdentityLease({ registry, names, host: 'node-a', after });
  try {
    await new Promise((r) => setTimeout(r, 30));
    // Not tried yet: no failed write, so no backoff to wait out once the namespace is there.
    assert.equal(await lease.checks[0]!.check(), 'not written yet');
    await call({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'svc-system' } } });
    namespacesDone();
    for (let i = 0; i < 100 && (await lease.checks[0]!.check()) !== undefined; i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(await lease.checks[0]!.check(), undefined);
    const got = await call({ verb: 'get', group, resource: 'leases', namespace: 'svc-system', name: lease.id });
    assert.equal(got.code, 200);
  } finally {
    lease.stop();
  }
});

test('the collector deletes expired identity Leases (of either label) and keeps live ones and other Leases', async () => {
  const { registry, names, call } = await testRegistry(['svc-system']);
  const now = Date.parse('2026-01-01T12:00:00Z');
  const clock = fakeClock(now);
  const lease = (name: string, labels: Record<string, string>, renewedAgoMs: number) => call({
    verb: 'create', group, resource: 'leases', namespace: 'svc-system',
    body: { metadata: { name, labels }, spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: 3600, renewTime: microTime(now - renewedAgoMs) } },
  });
  const identity = { 'apiserver.svc.io/identity': 'svc-apiserver' };
  await lease('apiserver-stale', identity, 3_600_001);
  await lease('apiserver-live', identity, 3_599_000);
  await lease('apiserver-old-label', { 'k8s.io/component': 'svc-apiserver' }, 7_200_000);
  await lease('someone-else', { app: 'x' }, 7_200_000);
  const gc = startIdentityLeaseGc({ registry, names, clock, periodMs: 3_600_000 });
  try {
    assert.deepEqual(gc.checks.map((c) => c.name), [
      'poststarthook/start-deprecated-kube-apiserver-identity-lease-garbage-collector',
      'poststarthook/start-kube-apiserver-identity-lease-garbage-collector',
    ]);
    assert.deepEqual((await gc.collect()).sort(), ['apiserver-old-label', 'apiserver-stale']);
    const left = (await call({ verb: 'list', group, resource: 'leases', namespace: 'svc-system' })).body as { items: KubeObject[] };
    assert.deepEqual(left.items.map((l) => l.metadata?.name), ['apiserver-live', 'someone-else']);
    assert.equal(leaseExpired(left.items[0]!, now + 1_001), true);
    assert.equal(leaseExpired(left.items[0]!, now + 1_000), false);
  } finally {
    gc.stop();
  }
});
