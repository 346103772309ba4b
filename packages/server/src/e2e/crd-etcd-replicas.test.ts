/**
 * Custom resources on two API server replicas sharing one etcd: a CRD created through one replica is established
 * and served by both — discovery, creates through one, reads, lists and watches through the other — and its
 * deletion through the second takes the resource away from both. Skips when etcd is not installed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { findEtcdBinary, startEtcdCluster, type EtcdTestCluster } from '@svc-apiserver/testing/etcd-test-cluster';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { cronTabCrd, establish } from './crd-fixtures.js';

const binary = findEtcdBinary();
const names = namesFor('svc');
const crdPath = `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`;

if (binary === undefined) {
  describe('custom resources on two etcd replicas', () => {
    test('needs an etcd binary', (t) => t.skip('etcd not installed (no etcd on PATH or in /usr/bin): the test did not run'));
  });
} else {
  describe('custom resources on two etcd replicas', { timeout: 60_000 }, () => {
    let cluster: EtcdTestCluster;
    let a: ServerProcess;
    let b: ServerProcess;
    before(async () => {
      cluster = await startEtcdCluster({ binary, members: 1 });
      const args = [`--etcd-servers=${cluster.endpoints.join(',')}`];
      [a, b] = await Promise.all([startServerProcess({ extraArgs: args }), startServerProcess({ extraArgs: args })]);
    });
    after(async () => {
      await Promise.allSettled([a?.stop(), b?.stop()]);
      await cluster?.close();
    });

    test('a CRD created through one replica is served by the other', async () => {
      const group = 'replicated.example.com';
      await establish(a, cronTabCrd(group));
      assert.ok(await eventually(async () => (await call(b.client, 'GET', `/apis/${group}/v1`)).status === 200), 'discovered on the other replica');
      await createNamespace(a.client, 'rep');
      const path = `/apis/${group}/v1/namespaces/rep/crontabs`;
      const listed = await call(b.client, 'GET', path);
      assert.equal(listed.status, 200, listed.text);
      const watch = b.client.watch({ group, version: 'v1', resource: 'crontabs', namespace: 'rep' }, { resourceVersion: listed.body.metadata.resourceVersion });
      const first = (async () => {
        for await (const e of watch) return e;
        return undefined;
      })();
      const made = await call(a.client, 'POST', path, { apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'x' }, spec: { cronSpec: '* * * * *' } });
      assert.equal(made.status, 201, made.text);
      const event = await first;
      watch.close();
      assert.equal(event?.type, 'ADDED');
      assert.equal((event?.object as any).spec.image, 'busybox', 'defaulted by the replica that wrote it');
      const read = await call(b.client, 'GET', `${path}/x?resourceVersion=${made.body.metadata.resourceVersion}`);
      assert.equal(read.status, 200, read.text);
      const bad = await call(b.client, 'POST', path, { apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'y' }, spec: {} });
      assert.equal(bad.status, 422, 'the other replica validates by the same schema');

      assert.equal((await call(b.client, 'DELETE', `${crdPath}/crontabs.${group}`)).status, 200);
      for (const s of [a, b]) {
        assert.ok(await eventually(async () => (await call(s.client, 'GET', `/apis/${group}/v1`)).status === 404), 'gone from both');
      }
    });
  });
}
