/**
 * The client against the real server in both flavours: verbs, patches, apply, pages, YAML, warnings, the RESTMapper,
 * watches, informers (WatchList in the svc flavour, list+watch in k8s), leader election and exec credential
 * plugins that hand out tokens and client certificates.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesFor, type Flavour, type KubeObject } from '@svc-apiserver/api';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { loadKubeconfig, readKubeconfig, resolveContext, parseKubeconfig, type ConnectionConfig } from './kubeconfig.js';
import { createClient, type RestClient } from './rest-client.js';
import { createRestMapper, refOf } from './rest-mapper.js';
import { createInformer } from './informer.js';
import { runLeaderElection } from './leader-election.js';
import { createWorkQueue } from '@svc-apiserver/api';

const tokens = (dir: string): string => {
  const path = join(dir, 'tokens.csv');
  writeFileSync(path, 'good-2,plugin-user,u2,"system:masters"\nstatic-1,static-user,u1,"system:masters"\n');
  return path;
};

/** A plugin script printing an ExecCredential: a token `tok-<run>` or the admin certificate of `dataDir`. */
function plugin(dir: string, apiVersion: string, kind: 'token' | 'cert', dataDir: string): string {
  const path = join(dir, `${kind}-plugin`);
  writeFileSync(path, `#!${process.execPath}
const fs = require('node:fs');
const count = ${JSON.stringify(join(dir, `${kind}-runs`))};
const n = (fs.existsSync(count) ? Number(fs.readFileSync(count, 'utf8')) : 0) + 1;
fs.writeFileSync(count, String(n));
const status = ${kind === 'token'
    ? `{ token: 'good-' + n }`
    : `{ clientCertificateData: fs.readFileSync(${JSON.stringify(join(dataDir, 'admin.crt'))}, 'utf8'), clientKeyData: fs.readFileSync(${JSON.stringify(join(dataDir, 'admin.key'))}, 'utf8') }`};
console.log(JSON.stringify({ kind: 'ExecCredential', apiVersion: ${JSON.stringify(apiVersion)}, status }));
`);
  chmodSync(path, 0o755);
  return path;
}

for (const flavour of ['svc', 'k8s'] as const satisfies readonly Flavour[]) {
  describe(`client against the ${flavour} flavour`, () => {
    const names = namesFor(flavour);
    const owner = { after: (fn: () => void) => after(fn) };
    const dir = tempDir(owner, `client-e2e-${flavour}-`);
    let server: LaunchedServer;
    let admin: ConnectionConfig;
    let client: RestClient;
    const warnings: string[] = [];
    const cm = (ns: string) => ({ group: '', version: 'v1', resource: 'configmaps', namespace: ns });

    before(async () => {
      server = await launchServer({
        flavour,
        storage: flavour === 'svc' ? 'sqlite' : 'memory',
        extraArgs: [`--token-auth-file=${tokens(dir)}`, `--runtime-config=${names.group('authentication')}/v1alpha1=true`, ...(flavour === 'svc' ? ['--feature-gates=WatchList=true'] : [])],
      });
      const loaded = loadKubeconfig({ path: server.kubeconfigPath });
      assert.ok(loaded.ok, loaded.ok ? '' : loaded.error);
      admin = loaded.value;
      client = createClient(admin, { onWarning: (w) => warnings.push(w) });
      for (const ns of ['one', 'two']) assert.ok((await client.create({ group: '', version: 'v1', resource: 'namespaces' }, { metadata: { name: ns } })).ok);
    });
    after(async () => {
      client?.close();
      await server?.stop();
    });

    test('every verb, every patch type, apply with conflicts and force, YAML, pages and warnings', async () => {
      const ref = cm('one');
      const created = await client.create(ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v' } });
      assert.ok(created.ok, JSON.stringify(created));
      const got = await client.get(ref, 'a');
      assert.ok(got.ok);
      assert.equal(got.value.metadata?.uid, (created.value as KubeObject).metadata?.uid);
      const updated = await client.update(ref, { ...got.value, data: { k: 'v2' } });
      assert.ok(updated.ok);
      const stale = await client.update(ref, { ...got.value, data: { k: 'v3' } });
      assert.equal(stale.ok ? 0 : stale.error.reason, 'Conflict');
      assert.ok((await client.patch(ref, 'a', 'merge', { data: { m: '1' } })).ok);
      assert.ok((await client.patch(ref, 'a', 'json', [{ op: 'add', path: '/data/j', value: '2' }])).ok);
      const smp = await client.patch<KubeObject & { data?: Record<string, string> }>(ref, 'a', 'strategic', { data: { s: '3' } });
      assert.ok(smp.ok);
      assert.deepEqual(smp.value.data, { k: 'v2', m: '1', j: '2', s: '3' });
      const applied = await client.apply(ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'mine' } }, { fieldManager: 'tool' });
      assert.equal(applied.ok ? '' : applied.error.reason, 'Conflict', 'k is owned by the updater');
      const forced = await client.apply<KubeObject & { data?: Record<string, string> }>(ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'mine' } }, { fieldManager: 'tool', force: true });
      assert.ok(forced.ok, JSON.stringify(forced));
      assert.equal(forced.value.data?.k, 'mine');
      assert.ok(forced.value.metadata?.managedFields?.some((f) => f.manager === 'tool' && f.operation === 'Apply'));

      const yamlClient = createClient(admin, { encoding: 'yaml' });
      try {
        const y = await yamlClient.create(ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-yaml' }, data: { on: 'yes' } });
        assert.ok(y.ok, JSON.stringify(y));
        assert.equal((y.value as { data?: Record<string, string> }).data?.on, 'yes');
      } finally {
        yamlClient.close();
      }

      for (let i = 0; i < 7; i++) assert.ok((await client.create(ref, { metadata: { name: `p${i}`, labels: { page: 'yes' } } })).ok);
      const pages: number[] = [];
      for await (const p of client.listPages(ref, { limit: 3, labelSelector: 'page=yes' })) {
        assert.ok(p.ok);
        pages.push(p.value.items.length);
      }
      assert.deepEqual(pages, [3, 3, 1]);
      const all = await client.listAll(ref, { limit: 2, labelSelector: 'page=yes' });
      assert.ok(all.ok);
      assert.equal(all.value.items.length, 7);

      warnings.length = 0;
      assert.ok((await client.create(ref, { metadata: { name: 'w' }, unknownField: 1 } as KubeObject, { fieldValidation: 'Warn' })).ok);
      assert.ok(warnings.some((w) => w.includes('unknownField')), JSON.stringify(warnings));

      const dryRun = await client.delete(ref, 'a', { dryRun: true });
      assert.ok(dryRun.ok);
      assert.ok((await client.get(ref, 'a')).ok);
      assert.ok((await client.delete(ref, 'a', { propagationPolicy: 'Background' })).ok);
      assert.equal((await client.get(ref, 'a')).ok, false);
      assert.ok((await client.deleteCollection(ref, { labelSelector: 'page=yes' })).ok);
      const left = await client.list(ref, { labelSelector: 'page=yes' });
      assert.ok(left.ok);
      assert.equal(left.value.items.length, 0);
    });

    test('RESTMapper: short names, kinds, preferred versions, the flavour\'s groups', async () => {
      const mapper = createRestMapper(client);
      const byShort = await mapper.resourceFor('cm');
      assert.ok(byShort.ok);
      assert.deepEqual([byShort.value.resource, byShort.value.kind, byShort.value.namespaced], ['configmaps', 'ConfigMap', true]);
      const lease = await mapper.resourceFor('leases');
      assert.ok(lease.ok);
      assert.equal(lease.value.group, names.group('coordination'));
      const deploy = await mapper.mappingFor('apps/v1', 'Deployment');
      assert.ok(deploy.ok);
      assert.equal(deploy.value.resource, 'deployments');
      const hpa = await mapper.kindFor('autoscaling', 'horizontalpodautoscalers');
      assert.ok(hpa.ok);
      assert.equal(hpa.value.version, 'v2', 'the preferred version of autoscaling');
      assert.equal((await mapper.preferredVersion('')).ok, true);
      const missing = await mapper.resourceFor('nosuchthings');
      assert.equal(missing.ok ? 0 : missing.error.code, 404);
      assert.deepEqual(refOf(byShort.value, 'x'), { group: '', version: 'v1', resource: 'configmaps', namespace: 'x' });
    });

    test('protobuf: every verb and a watch in the flavour\'s binary encoding, its RBAC group included, the flavour read from the server', async () => {
      const pb = createClient(admin, { encoding: 'protobuf' });
      try {
        assert.ok((await client.create({ group: '', version: 'v1', resource: 'namespaces' }, { metadata: { name: 'binary' } })).ok);
        const ref = cm('binary');
        // Strict field validation refuses an unknown field sent as JSON; in protobuf it has no field to travel in,
        // so its acceptance shows the body went in the binary encoding.
        const odd = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' }, unknownField: 1 } as KubeObject;
        assert.equal((await client.create(ref, odd, { fieldValidation: 'Strict', dryRun: true })).ok, false, 'JSON carries the unknown field');
        const before = await pb.list(ref);
        assert.ok(before.ok);
        const created = await pb.create<KubeObject & { data?: Record<string, string> }>(ref, odd, { fieldValidation: 'Strict' });
        assert.ok(created.ok, JSON.stringify(created));
        assert.deepEqual(created.value.data, { k: 'v' });
        const got = await pb.get<KubeObject & { data?: Record<string, string> }>(ref, 'a');
        assert.ok(got.ok);
        assert.equal(got.value.metadata?.uid, created.value.metadata?.uid);
        const updated = await pb.update(ref, { ...got.value, data: { k: 'w' } });
        assert.ok(updated.ok, JSON.stringify(updated));
        assert.ok((await pb.patch(ref, 'a', 'strategic', { data: { m: '1' } })).ok);
        const listed = await pb.list<KubeObject & { data?: Record<string, string> }>(ref, { fieldSelector: 'metadata.name=a' });
        assert.ok(listed.ok);
        assert.deepEqual(listed.value.items.map((i) => i.data), [{ k: 'w', m: '1' }]);
        assert.equal((await pb.get(ref, 'missing')).ok ? 0 : 404, 404);
        assert.ok((await pb.delete(ref, 'a')).ok);
        // The watch replays every change after the list's version, in protobuf frames.
        const w = pb.watch(ref, { resourceVersion: before.value.metadata.resourceVersion ?? '', fieldSelector: 'metadata.name=a' });
        const events: string[] = [];
        for await (const e of w) {
          events.push(e.type);
          if (e.type === 'DELETED') break;
        }
        assert.deepEqual(events, ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
        const role = { apiVersion: `${names.group('rbac.authorization')}/v1`, kind: 'Role', metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
        const rbac = await pb.create({ group: names.group('rbac.authorization'), version: 'v1', resource: 'roles', namespace: 'binary' }, role as KubeObject);
        assert.ok(rbac.ok, JSON.stringify(rbac));
      } finally {
        pb.close();
      }
    });

    test('an informer: initial list, add/update/delete with old and new, indexes, late handlers, in order', async () => {
      const ref = cm('two');
      for (const n of ['i1', 'i2']) assert.ok((await client.create(ref, { metadata: { name: n, labels: { tier: n === 'i1' ? 'a' : 'b' } } })).ok);
      const informer = createInformer(client, { group: '', version: 'v1', resource: 'configmaps' }, { labelSelector: 'tier', watchList: 'auto' });
      const events: string[] = [];
      informer.addEventHandler({
        onAdd: (o, initial) => events.push(`add ${o.metadata?.name}${initial ? ' (initial)' : ''}`),
        onUpdate: (o, n) => events.push(`update ${n.metadata?.name} ${o.metadata?.labels?.tier}->${n.metadata?.labels?.tier}`),
        onDelete: (o) => events.push(`delete ${o.metadata?.name}`),
      });
      informer.start();
      try {
        assert.equal(await informer.waitForSync(), true);
        assert.equal(informer.hasSynced(), true);
        assert.equal(informer.usingWatchList, flavour === 'svc', 'WatchList where the server offers it');
        assert.deepEqual(events.sort(), ['add i1 (initial)', 'add i2 (initial)']);
        events.length = 0;
        assert.ok((await client.patch(ref, 'i1', 'merge', { metadata: { labels: { tier: 'b' } } })).ok);
        assert.ok((await client.create(ref, { metadata: { name: 'i3', labels: { tier: 'c' } } })).ok);
        assert.ok((await client.delete(ref, 'i2')).ok);
        await until(() => events.length >= 3);
        assert.deepEqual(events, ['update i1 a->b', 'add i3', 'delete i2']);
        assert.deepEqual(informer.store.listByLabels({ tier: 'b' }).map((o) => o.metadata?.name), ['i1']);
        assert.deepEqual(informer.store.listInNamespace('two').map((o) => o.metadata?.name).sort(), ['i1', 'i3']);
        assert.ok(informer.store.getByName('i3', 'two'));
        const late: string[] = [];
        informer.addEventHandler({ onAdd: (o) => late.push(o.metadata?.name ?? '') });
        assert.deepEqual(late.sort(), ['i1', 'i3']);
      } finally {
        await informer.stop();
      }
    });

    test('leader election on a Lease: one leader, a handover when it stops', async () => {
      const mapper = createRestMapper(client);
      const leaders: string[] = [];
      const elect = (identity: string) => runLeaderElection(client, {
        mapper, namespace: 'one', name: 'ctrl', identity, leaseDurationSeconds: 2, renewDeadlineMs: 1500, retryPeriodMs: 200,
        releaseOnCancel: true, onStartedLeading: () => leaders.push(identity),
      });
      const a = elect('a');
      await until(() => leaders.length === 1);
      const b = elect('b');
      await new Promise((r) => setTimeout(r, 600));
      assert.deepEqual(leaders, ['a']);
      assert.equal(b.leader(), 'a');
      await a.stop();
      await until(() => leaders.length === 2);
      assert.deepEqual(leaders, ['a', 'b']);
      await b.stop();
      const lease = await client.get<KubeObject & { spec?: { leaseTransitions?: number } }>({ group: names.group('coordination'), version: 'v1', resource: 'leases', namespace: 'one' }, 'ctrl');
      assert.ok(lease.ok);
      assert.equal(lease.value.spec?.leaseTransitions, 0, 'a released lease is taken without a transition');
      const q = createWorkQueue();
      q.add('x');
      q.add('x');
      assert.equal(q.len(), 1);
      await q.shutDown();
    });

    test('exec plugins: a token plugin refreshed after a 401, a certificate plugin, in the flavour\'s group', async () => {
      const apiVersion = `${names.group('client.authentication')}/v1`;
      const token = plugin(dir, apiVersion, 'token', server.dataDir);
      const cert = plugin(dir, apiVersion, 'cert', server.dataDir);
      const kubeconfig = join(dir, 'exec.kubeconfig');
      const ca = admin.ca?.toString('base64') ?? '';
      writeFileSync(kubeconfig, `
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: '${admin.server}', certificate-authority-data: ${ca}}}]
users:
- {name: token, user: {exec: {command: ./token-plugin, apiVersion: ${apiVersion}, interactiveMode: Never}}}
- {name: cert, user: {exec: {command: ${cert}, apiVersion: ${apiVersion}, interactiveMode: IfAvailable}}}
contexts: [{name: token, context: {cluster: c, user: token}}, {name: cert, context: {cluster: c, user: cert}}]
current-context: token
`);
      const kc = readKubeconfig({ path: kubeconfig });
      assert.ok(kc.ok, kc.ok ? '' : kc.error);
      const review = { group: names.group('authentication'), version: 'v1alpha1', resource: 'selfsubjectreviews' };
      const whoami = async (context: string): Promise<string> => {
        const conn = resolveContext(kc.value, context);
        assert.ok(conn.ok, conn.ok ? '' : conn.error);
        const c = createClient(conn.value);
        try {
          const r = await c.create<KubeObject & { status?: { userInfo?: { username?: string } } }>(review, { apiVersion: `${review.group}/${review.version}`, kind: 'SelfSubjectReview' });
          assert.ok(r.ok, JSON.stringify(r));
          return r.value.status?.userInfo?.username ?? '';
        } finally {
          c.close();
        }
      };
      // good-1 is unknown to the server: its 401 makes the client run the plugin again and get good-2
      assert.equal(await whoami('token'), 'plugin-user');
      assert.equal(readFileSync(join(dir, 'token-runs'), 'utf8'), '2');
      assert.equal(await whoami('token'), 'plugin-user');
      assert.equal(readFileSync(join(dir, 'token-runs'), 'utf8'), '2', 'cached for the process');
      assert.equal(await whoami('cert'), 'admin', 'the admin certificate names user admin');
      assert.ok(token);
      const missing = parseKubeconfig(`
clusters: [{name: c, cluster: {server: '${admin.server}', certificate-authority-data: ${ca}}}]
users: [{name: u, user: {exec: {command: ./not-installed, apiVersion: ${apiVersion}, interactiveMode: Never, installHint: 'install it from the project page'}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`, dir);
      assert.ok(missing.ok);
      const conn = resolveContext(missing.value);
      assert.ok(conn.ok);
      const c = createClient(conn.value);
      const r = await c.list(cm('one'));
      c.close();
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.error.message ?? '', /executable .*not-installed not found[\s\S]*install it from the project page/);
    });
  });
}

async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) assert.fail('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
