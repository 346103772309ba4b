import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';
import { startKubernetesService } from './bootstrap-controller.js';
import { masterLeases } from './master-leases.js';

async function until(what: string, cond: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const addresses = (endpoints: KubeObject): string[] =>
  ((endpoints['subsets'] as { addresses?: { ip: string }[] }[] | undefined)?.[0]?.addresses ?? []).map((a) => a.ip);

test('the kubernetes Service, its Endpoints and EndpointSlice as kube\'s bootstrap controller makes them', async () => {
  const { registry, names, call } = await testRegistry([]);
  const controller = startKubernetesService({ registry, names, serviceIp: '10.0.0.1', publicPort: 6443, advertiseAddress: '192.168.1.10', intervalMs: 50 });
  try {
    await until('the first pass', async () => (await controller.checks[0]!.check()) === undefined);
    assert.equal(controller.checks[0]!.name, 'poststarthook/bootstrap-controller');
    assert.equal((await call({ verb: 'get', resource: 'namespaces', name: 'default' })).code, 200, 'default is created when missing');
    const svc = (await call({ verb: 'get', resource: 'services', namespace: 'default', name: 'kubernetes' })).body as KubeObject;
    assert.deepEqual(svc.metadata?.labels, { provider: 'kubernetes', component: 'apiserver' });
    const spec = svc['spec'] as Record<string, unknown>;
    assert.deepEqual(spec['ports'], [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }]);
    assert.equal(spec['clusterIP'], '10.0.0.1');
    assert.deepEqual(spec['clusterIPs'], ['10.0.0.1']);
    assert.equal(spec['type'], 'ClusterIP');
    assert.equal(spec['selector'], undefined);
    const ep = (await call({ verb: 'get', resource: 'endpoints', namespace: 'default', name: 'kubernetes' })).body as KubeObject;
    assert.deepEqual(ep.metadata?.labels, { 'endpointslice.svc.io/skip-mirror': 'true' });
    assert.deepEqual(ep['subsets'], [{ addresses: [{ ip: '192.168.1.10' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    const slice = (await call({ verb: 'get', group: 'discovery.svc.io', resource: 'endpointslices', namespace: 'default', name: 'kubernetes' })).body as KubeObject;
    assert.deepEqual(slice.metadata?.labels, { 'svc.io/service-name': 'kubernetes' });
    assert.equal(slice['addressType'], 'IPv4');
    assert.deepEqual(slice['endpoints'], [{ addresses: ['192.168.1.10'], conditions: { ready: true } }]);
    assert.deepEqual(slice['ports'], [{ name: 'https', port: 6443, protocol: 'TCP' }]);

    // Deleted: back within an interval, with the same cluster IP.
    assert.equal((await call({ verb: 'delete', resource: 'services', namespace: 'default', name: 'kubernetes' })).code, 200);
    await until('the Service recreated', async () => (await call({ verb: 'get', resource: 'services', namespace: 'default', name: 'kubernetes' })).code === 200);
    const again = (await call({ verb: 'get', resource: 'services', namespace: 'default', name: 'kubernetes' })).body as KubeObject;
    assert.equal((again['spec'] as Record<string, unknown>)['clusterIP'], '10.0.0.1');
    // Endpoints rewritten by hand: the addresses are put back by the next pass.
    await call({ verb: 'patch', resource: 'endpoints', namespace: 'default', name: 'kubernetes', contentType: 'application/merge-patch+json', body: { subsets: [{ addresses: [{ ip: '1.2.3.4' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }] } });
    await until('the address put back', async () => {
      const got = (await call({ verb: 'get', resource: 'endpoints', namespace: 'default', name: 'kubernetes' })).body as KubeObject;
      return addresses(got).join() === '192.168.1.10';
    });
  } finally {
    await controller.stop();
  }
});

test('changed ports and type are put back by the start pass (reconcile), not by the periodic ones', async () => {
  const { registry, names, call } = await testRegistry(['default']);
  const controller = startKubernetesService({ registry, names, serviceIp: '10.0.0.1', publicPort: 6443, advertiseAddress: '10.1.0.1', intervalMs: 60_000 });
  try {
    await until('the first pass', async () => (await controller.checks[0]!.check()) === undefined);
    const patched = await call({ verb: 'patch', resource: 'services', namespace: 'default', name: 'kubernetes', contentType: 'application/merge-patch+json', body: { spec: { ports: [{ name: 'web', port: 80, protocol: 'TCP', targetPort: 8080 }] } } });
    assert.equal(patched.code, 200, JSON.stringify(patched.body));
    const ports = async () => ((await call({ verb: 'get', resource: 'services', namespace: 'default', name: 'kubernetes' })).body as { spec: { ports: unknown } }).spec.ports;
    assert.ok((await controller.sync(false)).ok);
    assert.deepEqual(await ports(), [{ name: 'web', port: 80, protocol: 'TCP', targetPort: 8080 }]);
    assert.ok((await controller.sync(true)).ok);
    assert.deepEqual(await ports(), [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }]);
  } finally {
    await controller.stop();
  }
});

test('several replicas each appear in the Endpoints; one stopping leaves at once, one that died when its lease expires', async () => {
  const { registry, names, call } = await testRegistry(['default']);
  const start = (ip: string) => startKubernetesService({ registry, names, serviceIp: '10.0.0.1', publicPort: 6443, advertiseAddress: ip, intervalMs: 40, leaseTtlMs: 300 });
  const a = start('10.1.0.1');
  const b = start('10.1.0.2');
  const current = async () => addresses((await call({ verb: 'get', resource: 'endpoints', namespace: 'default', name: 'kubernetes' })).body as KubeObject);
  const sliceAddresses = async () => (((await call({ verb: 'get', group: 'discovery.svc.io', resource: 'endpointslices', namespace: 'default', name: 'kubernetes' })).body as KubeObject)['endpoints'] as { addresses: string[] }[] | undefined ?? []).flatMap((e) => e.addresses);
  try {
    await until('both replicas listed', async () => (await current()).join() === '10.1.0.1,10.1.0.2');
    await until('the slice follows', async () => (await sliceAddresses()).join() === '10.1.0.1,10.1.0.2');
    await b.stop();
    assert.deepEqual(await current(), ['10.1.0.1'], 'a replica that stops removes its address itself');
    // A replica that died: its lease is there, and nobody refreshes it.
    await masterLeases(registry.store.backend).updateLease('10.1.0.9');
    await until('the dead replica listed', async () => (await current()).includes('10.1.0.9'));
    await until('the dead replica gone once its lease expired', async () => (await current()).join() === '10.1.0.1');
    await until('and from the slice', async () => (await sliceAddresses()).join() === '10.1.0.1');
  } finally {
    await a.stop();
    await b.stop();
  }
});

test('a Service holding the first address keeps the kubernetes Service out; the hook passes after its first pass and the failure is logged', async () => {
  const { registry, names, call } = await testRegistry(['default']);
  const squatter = await call({ verb: 'create', resource: 'services', namespace: 'default', body: { metadata: { name: 'squatter' }, spec: { clusterIP: '10.0.0.1', ports: [{ port: 80 }] } } });
  assert.equal(squatter.code, 201, JSON.stringify(squatter.body));
  const logged: string[] = [];
  const controller = startKubernetesService({ registry, names, serviceIp: '10.0.0.1', publicPort: 6443, advertiseAddress: '10.1.0.1', intervalMs: 60_000, log: (m) => logged.push(m) });
  try {
    await until('the first pass', async () => (await controller.checks[0]!.check()) === undefined);
    assert.equal((await call({ verb: 'get', resource: 'services', namespace: 'default', name: 'kubernetes' })).code, 404);
    assert.match(logged.join('\n'), /unable to sync kubernetes service: .*10\.0\.0\.1/);
  } finally {
    await controller.stop();
  }
});
