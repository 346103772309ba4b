import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { createAdmissionChain } from '../../admission/chain.js';
import { loopbackUser } from '../operations/loopback.js';
import { loadCatalog } from '../../schema/load-catalog.js';
import type { Backend } from '../../storage/backend.js';
import { openMemoryBackend } from '../../storage/memory/memory-backend.js';
import { createObject } from '../operations/create-object.js';
import { deleteObject } from '../operations/delete-object.js';
import { createRegistry, type Registry } from '../registry.js';
import { serviceStrategy } from '../resources/services.js';
import { parseIpRange, parsePortRange } from './ip-range.js';
import { serviceIpsKey, serviceNodePortsKey } from './range-allocation.js';
import { startServiceAllocationFeed } from './service-allocation-feed.js';
import { createServiceAllocator, type ServiceAllocator } from './service-allocator.js';

const names = namesFor('svc');
const catalog = loadCatalog(names);
const ipRange = (() => {
  const r = parseIpRange('10.9.0.0/27');
  assert.ok(r.ok);
  return r.value;
})();
const portRange = (() => {
  const r = parsePortRange('30000-30029');
  assert.ok(r.ok);
  return r.value;
})();

/** One server's registry and allocator over a shared backend (a replica). */
function replica(backend: Backend, shared = true): { registry: Registry; allocator: ServiceAllocator } {
  const allocator = createServiceAllocator(ipRange, portRange, Date.now, shared ? { backend } : {});
  const admission = createAdmissionChain({ names });
  if (!admission.ok) throw new Error('admission');
  const registry = createRegistry({
    backend, catalog, names, admission: admission.value, strategies: { 'core/services': () => serviceStrategy(allocator) },
  });
  return { registry, allocator };
}

const ctx = (dryRun = false) => ({ user: loopbackUser, dryRun });

async function createService(registry: Registry, name: string, spec: Record<string, unknown> = {}, dryRun = false) {
  const def = registry.lookup('', 'v1', 'services');
  assert.ok(def);
  return createObject(registry, def, {
    metadata: { name, namespace: 'ns' }, spec: { type: 'NodePort', ports: [{ port: 80 }], ...spec },
  }, ctx(dryRun));
}

async function setup(shared = true) {
  const backend = openMemoryBackend();
  const a = replica(backend, shared);
  const b = replica(backend, shared);
  const nsDef = a.registry.lookup('', 'v1', 'namespaces');
  assert.ok(nsDef);
  assert.ok((await createObject(a.registry, nsDef, { metadata: { name: 'ns' } }, ctx())).ok);
  return { backend, a, b };
}

function held(object: KubeObject): { ip: string; port: number } {
  const spec = object['spec'] as { clusterIP: string; ports: { nodePort: number }[] };
  return { ip: spec.clusterIP, port: spec.ports[0]!.nodePort };
}

/** Creates `count` Services, alternating between two replicas, all at once. */
async function createConcurrently(a: Registry, b: Registry, count: number): Promise<KubeObject[]> {
  const results = await Promise.all(Array.from({ length: count }, (_, i) => createService(i % 2 === 0 ? a : b, `s-${i}`)));
  return results.map((r) => {
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    return r.value;
  });
}

test('two replicas on one store allocating concurrently never hand out the same IP or node port', async () => {
  const { a, b } = await setup();
  // 28 of 29 pickable addresses and 28 of 30 ports: without the shared record, two views collide almost surely.
  const services = await createConcurrently(a.registry, b.registry, 28);
  const ips = services.map((s) => held(s).ip);
  const ports = services.map((s) => held(s).port);
  assert.equal(new Set(ips).size, ips.length, `duplicate cluster IPs: ${ips.join(' ')}`);
  assert.equal(new Set(ports).size, ports.length, `duplicate node ports: ${ports.join(' ')}`);
  assert.ok(ips.every((ip) => ipRange.contains(ip) && ip !== ipRange.at(0)));
});

test('without the shared record the same load does collide (the test can fail)', async () => {
  const { a, b } = await setup(false);
  const services = await createConcurrently(a.registry, b.registry, 28);
  const ips = services.map((s) => held(s).ip);
  assert.notEqual(new Set(ips).size, ips.length);
});

test('a requested IP or port another replica holds is rejected; freed on delete; dry run claims nothing', async () => {
  const { backend, a, b } = await setup();
  const first = await createService(a.registry, 'one', { clusterIP: '10.9.0.5', ports: [{ port: 80, nodePort: 30005 }] });
  assert.ok(first.ok);
  // b has not seen the Service (no feed): only the stored record knows.
  const clash = await createService(b.registry, 'two', { clusterIP: '10.9.0.5', ports: [{ port: 80, nodePort: 30006 }] });
  assert.ok(!clash.ok);
  assert.equal(clash.error.code, 422);
  assert.match(clash.error.message ?? '', /spec\.clusterIPs\[0\]: Invalid value: "10\.9\.0\.5": failed to allocate IP 10\.9\.0\.5: provided IP is already allocated/);
  const portClash = await createService(b.registry, 'two', { clusterIP: '10.9.0.6', ports: [{ port: 80, nodePort: 30005 }] });
  assert.ok(!portClash.ok);
  assert.match(portClash.error.message ?? '', /spec\.ports\[0\]\.nodePort: Invalid value: 30005: provided port is already allocated/);
  // The failed port claim gave back its address in the record: another replica can take 10.9.0.6.
  assert.ok((await createService(a.registry, 'three', { clusterIP: '10.9.0.6', ports: [{ port: 80, nodePort: 30007 }] })).ok);

  const before = await backend.currentRevision();
  const dry = await createService(b.registry, 'dry', { clusterIP: '10.9.0.9' }, true);
  assert.ok(dry.ok);
  assert.equal(await backend.currentRevision(), before, 'a dry run writes nothing');
  const dryClash = await createService(b.registry, 'dry', { clusterIP: '10.9.0.5' }, true);
  assert.ok(!dryClash.ok, 'a dry run still checks the stored record');

  const def = a.registry.lookup('', 'v1', 'services');
  assert.ok(def);
  assert.ok((await deleteObject(a.registry, def, 'ns', 'one', ctx())).ok);
  const again = await createService(b.registry, 'four', { clusterIP: '10.9.0.5', ports: [{ port: 80, nodePort: 30005 }] });
  assert.ok(again.ok, 'the deleted Service freed its address and port');
  for (const key of [serviceIpsKey, serviceNodePortsKey]) {
    const got = await backend.get(key);
    assert.ok(got.ok && got.value.kv !== undefined, `${key} is stored`);
  }
});

test('allocations survive a restart: a new replica on the store does not reuse them', async () => {
  const { backend, a } = await setup();
  const taken = new Set((await Promise.all(Array.from({ length: 20 }, (_, i) => createService(a.registry, `s-${i}`)))).map((r) => {
    assert.ok(r.ok);
    return held(r.value).ip;
  }));
  const restarted = replica(backend);
  for (let i = 0; i < 9; i++) {
    const r = await createService(restarted.registry, `new-${i}`);
    assert.ok(r.ok);
    assert.ok(!taken.has(held(r.value).ip), `${held(r.value).ip} was handed out again`);
    taken.add(held(r.value).ip);
  }
  const full = await createService(restarted.registry, 'one-too-many');
  assert.ok(!full.ok);
  assert.match(full.error.message ?? '', /range is full/);
});

test('repair marks what stored Services hold and frees a leak after several passes', async () => {
  const { backend, a } = await setup(false);
  // Services stored by a server without the shared record (an older version): none is in the record.
  for (let i = 0; i < 3; i++) assert.ok((await createService(a.registry, `old-${i}`, { clusterIP: `10.9.0.${10 + i}` })).ok);
  const fresh = replica(backend);
  const feed = await startServiceAllocationFeed(fresh.registry, fresh.allocator);
  try {
    await fresh.allocator.repair();
    const clash = await createService(replica(backend).registry, 'new', { clusterIP: '10.9.0.11' });
    assert.ok(!clash.ok, 'repair marked the address of a stored Service');
    // A claim whose Service never got stored (a server died between the two) is a leak.
    const leaked = createServiceAllocator(ipRange, portRange, Date.now, { backend });
    const ghost: KubeObject = { metadata: { name: 'ghost', namespace: 'ns' }, spec: { clusterIP: '10.9.0.20', ports: [{ port: 1 }] } };
    assert.deepEqual(leaked.allocate(ghost), []);
    assert.deepEqual((await leaked.commit(ghost, { dryRun: false })).errors, []);
    const probe = async () => (await createService(replica(backend).registry, 'probe', { clusterIP: '10.9.0.20' }, true)).ok;
    assert.equal(await probe(), false);
    await fresh.allocator.repair();
    await fresh.allocator.repair();
    assert.equal(await probe(), false, 'not freed before the third pass');
    await fresh.allocator.repair();
    assert.equal(await probe(), true, 'freed after the third pass');
  } finally {
    feed.stop();
  }
});
