/**
 * The objects kube-apiserver creates at start, on two replicas sharing one etcd: each replica (advertising its own
 * address) appears in the `kubernetes` Service's Endpoints and EndpointSlice, the Service and the system
 * PriorityClasses exist once, the identity Lease is there, and ComponentStatus probes etcd. A replica killed with
 * SIGKILL leaves the Endpoints once its master lease expires. Skips when etcd is not installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { findEtcdBinary, startEtcdCluster, type EtcdTestCluster } from '@svc-apiserver/testing/etcd-test-cluster';
import { call, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const binary = findEtcdBinary();

const endpointIps = async (s: ServerProcess): Promise<string> => {
  const ep = (await call(s.client, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes')).body as KubeObject;
  return ((ep['subsets'] as { addresses?: { ip: string }[] }[] | undefined)?.[0]?.addresses ?? []).map((a) => a.ip).join();
};
const sliceIps = async (s: ServerProcess): Promise<string> => {
  const slice = (await call(s.client, 'GET', '/apis/discovery.svc.io/v1/namespaces/default/endpointslices/kubernetes')).body as KubeObject;
  return ((slice['endpoints'] as { addresses: string[] }[] | undefined) ?? []).flatMap((e) => e.addresses).join();
};

if (binary === undefined) {
  describe('bootstrap objects on etcd', () => {
    test('needs an etcd binary', (t) => t.skip('etcd not installed (no etcd on PATH or in /usr/bin): the etcd bootstrap test did not run'));
  });
} else {
  describe('bootstrap objects on two replicas sharing etcd', { timeout: 120_000 }, () => {
    let cluster: EtcdTestCluster;
    let a: ServerProcess;
    let b: ServerProcess;
    before(async () => {
      cluster = await startEtcdCluster({ binary, members: 1 });
      const args = (ip: string) => [`--etcd-servers=${cluster.endpoints.join(',')}`, `--advertise-address=${ip}`];
      [a, b] = await Promise.all([startServerProcess({ extraArgs: args('127.0.0.2') }), startServerProcess({ extraArgs: args('127.0.0.3') })]);
    });
    after(async () => {
      await Promise.allSettled([a?.stop(), b?.stop()]);
      await cluster?.close();
    });

    test('both replicas in the Endpoints and the slice; one Service, one set of PriorityClasses; a killed replica leaves once its lease expires', async () => {
      assert.ok(await eventually(async () => (await endpointIps(a)) === '127.0.0.2,127.0.0.3', 30_000), `endpoints: ${await endpointIps(a)}`);
      assert.ok(await eventually(async () => (await sliceIps(b)) === '127.0.0.2,127.0.0.3', 15_000), `slice: ${await sliceIps(b)}`);
      const services = (await call(b.client, 'GET', '/api/v1/namespaces/default/services?fieldSelector=metadata.name%3Dkubernetes')).body as { items: KubeObject[] };
      assert.equal(services.items.length, 1);
      assert.equal((services.items[0]!['spec'] as { clusterIP: string }).clusterIP, '10.0.0.1');
      const pcs = (await call(a.client, 'GET', '/apis/scheduling.svc.io/v1/priorityclasses')).body as { items: KubeObject[] };
      assert.deepEqual(pcs.items.map((pc) => pc.metadata?.name), ['system-cluster-critical', 'system-node-critical']);
      // Both replicas run on this host: they share the host's identity, as two kube-apiservers on one host would.
      const leases = (await call(a.client, 'GET', '/apis/coordination.svc.io/v1/namespaces/svc-system/leases?labelSelector=apiserver.svc.io%2Fidentity%3Dsvc-apiserver')).body as { items: KubeObject[] };
      assert.equal(leases.items.length, 1);
      const etcd = await call(b.client, 'GET', '/api/v1/componentstatuses/etcd-0');
      assert.deepEqual(etcd.body['conditions'], [{ type: 'Healthy', status: 'True', message: 'ok' }]);

      await b.kill();
      // 15 s of lease time as replica a observes it, found by a pass every 10 s.
      assert.ok(await eventually(async () => (await endpointIps(a)) === '127.0.0.2', 45_000, 500), `endpoints: ${await endpointIps(a)}`);
      assert.ok(await eventually(async () => (await sliceIps(a)) === '127.0.0.2', 10_000), `slice: ${await sliceIps(a)}`);
    });
  });
}
