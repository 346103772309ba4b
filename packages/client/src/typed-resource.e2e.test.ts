/**
 * Typed handles against the real server in both flavours: every verb of a core kind, a renamed group spelled in
 * the server's flavour, object and connect subresources, and the namespaces rule.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type Flavour } from '@svc-apiserver/api';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { loadKubeconfig } from './kubeconfig.js';
import { createClient, type RestClient } from './rest-client.js';
import { serverFlavour } from './server-flavour.js';
import { typed } from './typed-resource.js';
import { appsV1, coordinationV1, coreV1, rbacV1 } from './generated/index.js';

for (const flavour of ['svc', 'k8s'] as const satisfies readonly Flavour[]) {
  describe(`typed handles against the ${flavour} flavour`, () => {
    let server: LaunchedServer;
    let client: RestClient;

    before(async () => {
      server = await launchServer({ flavour, storage: 'memory' });
      const loaded = loadKubeconfig({ path: server.kubeconfigPath });
      assert.ok(loaded.ok, loaded.ok ? '' : loaded.error);
      client = createClient(loaded.value);
      assert.ok((await typed(client, coreV1.namespaces).create({ metadata: { name: 'typed' } })).ok);
    });
    after(async () => {
      client?.close();
      await server?.stop();
    });

    test('every verb of ConfigMaps, objects completed with apiVersion and kind', async () => {
      const cms = typed(client, coreV1.configmaps, 'typed');
      const created = await cms.create({ metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v' } });
      assert.ok(created.ok, JSON.stringify(created));
      assert.deepEqual([created.value.apiVersion, created.value.kind, created.value.data?.k], ['v1', 'ConfigMap', 'v']);
      const got = await cms.get('a');
      assert.ok(got.ok);
      const updated = await cms.update({ ...got.value, data: { k: 'v2' } });
      assert.equal(updated.ok && updated.value.data?.k, 'v2');
      const patched = await cms.patch('a', 'merge', { data: { m: '1' } });
      assert.deepEqual(patched.ok && patched.value.data, { k: 'v2', m: '1' });
      const applied = await cms.apply({ metadata: { name: 'b' }, data: { x: '1' } }, { fieldManager: 'typed-test' });
      assert.ok(applied.ok, JSON.stringify(applied));
      const list = await cms.list({ labelSelector: 'app=x' });
      assert.deepEqual(list.ok && list.value.items.map((o) => o.metadata?.name), ['a']);
      const all = await cms.listAll({ limit: 1 });
      assert.ok(all.ok && all.value.items.length >= 2);
      let pages = 0;
      for await (const page of cms.listPages({ limit: 1 })) {
        assert.ok(page.ok);
        pages++;
      }
      assert.ok(pages >= 2);

      const watch = cms.watch({ resourceVersion: list.ok ? list.value.metadata.resourceVersion ?? '' : '' });
      const seen: string[] = [];
      const reading = (async () => {
        for await (const e of watch) {
          seen.push(`${e.type} ${e.object.metadata?.name ?? ''}`);
          if (e.type === 'DELETED') break;
        }
      })();
      assert.ok((await cms.delete('a')).ok);
      await reading;
      watch.close();
      assert.deepEqual(seen.filter((s) => s.endsWith(' a')), ['DELETED a']);
      assert.ok((await cms.deleteCollection({ labelSelector: 'app' })).ok);
      const gone = await cms.get('a');
      assert.equal(gone.ok ? 0 : gone.error.code, 404);
    });

    test('a renamed group is spelled in the server\'s flavour; subresources; a namespaced name needs a namespace', async () => {
      assert.deepEqual(await serverFlavour(client), { ok: true, value: flavour });
      const leases = typed(client, coordinationV1.leases, 'typed');
      const lease = await leases.create({ metadata: { name: 'l' }, spec: { holderIdentity: 'me' } });
      assert.ok(lease.ok, JSON.stringify(lease));
      assert.equal(lease.value.apiVersion, `coordination.${flavour}.io/v1`);
      const ref = await leases.ref();
      assert.deepEqual(ref.ok && ref.value, { group: `coordination.${flavour}.io`, version: 'v1', resource: 'leases', namespace: 'typed' });
      const role = await typed(client, rbacV1.clusterroles).create({ metadata: { name: 'typed-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
      assert.equal(role.ok && role.value.apiVersion, `rbac.authorization.${flavour}.io/v1`);

      const deployments = typed(client, appsV1.deployments, 'typed');
      const d = await deployments.create({
        metadata: { name: 'web' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      });
      assert.ok(d.ok, JSON.stringify(d));
      const scale = deployments.subresource('scale');
      const s = await scale.get('web');
      assert.equal(s.ok && s.value.spec?.replicas, 1);
      const scaled = await scale.update('web', { spec: { replicas: 3 } });
      assert.equal(scaled.ok && scaled.value.spec?.replicas, 3, JSON.stringify(scaled));
      const status = await deployments.subresource('status').patch('web', 'merge', { status: { observedGeneration: 1 } });
      assert.ok(status.ok, JSON.stringify(status));

      const sa = await typed(client, coreV1.serviceaccounts, 'typed').create({ metadata: { name: 'robot' } });
      assert.ok(sa.ok);
      const token = await typed(client, coreV1.serviceaccounts, 'typed').subresource('token').create('robot', { spec: { audiences: [], expirationSeconds: 600 } });
      assert.ok(token.ok, JSON.stringify(token));
      assert.equal(token.value.status?.token.split('.').length, 3);

      // a pod on no node has no log to read: the server's Status comes back, not a body
      const pods = typed(client, coreV1.pods, 'typed');
      assert.ok((await pods.create({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })).ok);
      const log = await pods.subresource('log').request('p');
      assert.ok(!log.ok && log.error.code >= 400, JSON.stringify(log));

      const everywhere = typed(client, coreV1.configmaps);
      assert.ok((await everywhere.list()).ok, 'lists span every namespace');
      const unnamed = await everywhere.get('x');
      assert.ok(!unnamed.ok && unnamed.error.code === 0 && /namespaced/.test(unnamed.error.message ?? ''));
    });
  });
}

/** Compile-time checks (never run): the handle shows only what the resource serves, and objects are typed. */
export function typeChecks(client: RestClient): void {
  // @ts-expect-error ComponentStatuses are read-only: no create
  void typed(client, coreV1.componentstatuses).create;
  // @ts-expect-error pods have no scale subresource
  void typed(client, coreV1.pods).subresource('scale');
  // @ts-expect-error a Lease's spec has no field `holder`
  void typed(client, coordinationV1.leases).create({ spec: { holder: 'x' } });
  // @ts-expect-error restartPolicy is one of the published enum values
  void typed(client, coreV1.pods).create({ spec: { containers: [], restartPolicy: 'Sometimes' } });
}
