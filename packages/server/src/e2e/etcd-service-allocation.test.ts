/**
 * Service cluster IPs and node ports with two replicas on one etcd (kube's shared `/registry/ranges/*` records):
 * Services created through both replicas at once never share an address or a port, a deleted Service's address
 * can be requested through the other replica, and a dry run claims nothing. Skips when etcd is not installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findEtcdBinary, startEtcdCluster, type EtcdTestCluster } from '@svc-apiserver/testing/etcd-test-cluster';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const binary = findEtcdBinary();

if (binary === undefined) {
  describe('service allocation on etcd', () => {
    test('needs an etcd binary', (t) => t.skip('etcd not installed (no etcd on PATH or in /usr/bin): the service allocation test on etcd did not run'));
  });
} else {
  describe('service allocation with two replicas on one etcd', { timeout: 60_000 }, () => {
    let cluster: EtcdTestCluster;
    let a: ServerProcess;
    let b: ServerProcess;
    before(async () => {
      cluster = await startEtcdCluster({ binary, members: 1 });
      // Small ranges, so that two replicas picking on their own would collide.
      const args = [`--etcd-servers=${cluster.endpoints.join(',')}`, '--service-cluster-ip-range=10.96.0.0/27', '--service-node-port-range=30000-30029'];
      [a, b] = await Promise.all([startServerProcess({ extraArgs: args }), startServerProcess({ extraArgs: args })]);
    });
    after(async () => {
      await Promise.allSettled([a?.stop(), b?.stop()]);
      await cluster?.close();
    });

    const service = (name: string, spec: Record<string, unknown> = {}) =>
      ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'NodePort', ports: [{ port: 80 }], ...spec } });

    test('concurrent creates through both replicas get distinct addresses and ports; delete frees; dry run claims nothing', async () => {
      const ns = 'alloc';
      await createNamespace(a.client, ns);
      assert.ok(await eventually(async () => (await call(b.client, 'GET', `/api/v1/namespaces/${ns}`)).status === 200));
      const path = `/api/v1/namespaces/${ns}/services`;
      const replies = await Promise.all(Array.from({ length: 24 }, (_, i) => call(i % 2 === 0 ? a.client : b.client, 'POST', path, service(`s-${i}`))));
      for (const r of replies) assert.equal(r.status, 201, r.text);
      const ips = replies.map((r) => r.body.spec.clusterIP as string);
      const ports = replies.map((r) => r.body.spec.ports[0].nodePort as number);
      assert.equal(new Set(ips).size, ips.length, `duplicate cluster IPs: ${ips.join(' ')}`);
      assert.equal(new Set(ports).size, ports.length, `duplicate node ports: ${ports.join(' ')}`);

      // Through the other replica, right away: the stored record answers, not that replica's view.
      const taken = replies[0]!.body;
      const clash = await call(b.client, 'POST', path, service('clash', { clusterIP: taken.spec.clusterIP }));
      assert.equal(clash.status, 422, clash.text);
      assert.match(clash.body.message, /provided IP is already allocated/);
      const dry = await call(a.client, 'POST', `${path}?dryRun=All`, service('dry'));
      assert.equal(dry.status, 201, dry.text);
      assert.equal(ips.includes(dry.body.spec.clusterIP), false);
      const afterDry = await call(b.client, 'POST', path, service('after-dry', { clusterIP: dry.body.spec.clusterIP }));
      assert.equal(afterDry.status, 201, `a dry run left ${dry.body.spec.clusterIP} free: ${afterDry.text}`);

      assert.equal((await call(a.client, 'DELETE', `${path}/${taken.metadata.name}`)).status, 200);
      const reuse = await call(b.client, 'POST', path, service('reuse', { clusterIP: taken.spec.clusterIP, ports: [{ port: 80, nodePort: taken.spec.ports[0].nodePort }] }));
      assert.equal(reuse.status, 201, reuse.text);
    });
  });
}
