import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { run } from './cli.js';

/** A tiny in-memory API with discovery for configmaps and (cluster-scoped) nodes. */
async function startApi(): Promise<{ url: string; log: string[]; store: Map<string, Record<string, unknown>>; close: () => Promise<void> }> {
  const store = new Map<string, Record<string, unknown>>();
  const log: string[] = [];
  let rv = 1;
  const docs: Record<string, unknown> = {
    '/api': { kind: 'APIVersions', versions: ['v1'] },
    '/apis': { kind: 'APIGroupList', groups: [] },
    '/api/v1': {
      kind: 'APIResourceList', groupVersion: 'v1', resources: [
        { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['create', 'get', 'list', 'update', 'patch', 'delete'], shortNames: ['cm'] },
        { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['get', 'list'], shortNames: ['no'] },
      ],
    },
    '/version': { major: '1', minor: '27', gitVersion: 'v1.27.0' },
  };
  const send = (res: http.ServerResponse, code: number, body: unknown): void => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const notFound = (name: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `configmaps "${name}" not found`, reason: 'NotFound', details: { name, kind: 'configmaps' }, code: 404 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      log.push(`${req.method} ${url.pathname}${url.search} ${req.headers['content-type'] ?? ''}`);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) as Record<string, any> : undefined;
      const doc = docs[url.pathname];
      if (doc) return send(res, 200, doc);
      const m = /^\/api\/v1\/namespaces\/([^/]+)\/configmaps(?:\/([^/]+))?$/.exec(url.pathname);
      if (!m) return send(res, 404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', message: 'the server could not find the requested resource', code: 404 });
      const [, ns, name] = m;
      const key = `${ns}/${name ?? body?.metadata?.name}`;
      if (req.method === 'GET' && !name) {
        const items = [...store.entries()].filter(([k]) => k.startsWith(`${ns}/`)).map(([, v]) => v);
        return send(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(rv) }, items });
      }
      if (req.method === 'POST') {
        if (store.has(key)) return send(res, 409, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'AlreadyExists', message: `configmaps "${body?.metadata?.name}" already exists`, code: 409 });
        const obj = { ...body, metadata: { ...body?.metadata, namespace: ns, resourceVersion: String(++rv), creationTimestamp: new Date().toISOString() } };
        store.set(key, obj);
        return send(res, 201, obj);
      }
      const cur = store.get(key);
      if (!cur) return send(res, 404, notFound(name ?? ''));
      if (req.method === 'GET') return send(res, 200, cur);
      if (req.method === 'PUT') {
        const obj = { ...body, metadata: { ...body?.metadata, resourceVersion: String(++rv) } };
        store.set(key, obj);
        return send(res, 200, obj);
      }
      if (req.method === 'PATCH') {
        const meta = cur.metadata as Record<string, any>;
        const labels = { ...meta.labels };
        for (const [k, v] of Object.entries(body?.metadata?.labels ?? {})) {
          if (v === null) delete labels[k];
          else labels[k] = v;
        }
        const obj = { ...cur, metadata: { ...meta, labels, resourceVersion: String(++rv) } };
        store.set(key, obj);
        return send(res, 200, obj);
      }
      if (req.method === 'DELETE') {
        store.delete(key);
        return send(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 });
      }
      send(res, 405, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, log, store, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

test('svcctl create, get, label, replace, delete, api-resources and version against a stub API', async (t) => {
  const api = await startApi();
  const dir = tempDir(t, 'svcctl-');
  const kubeconfig = join(dir, 'config');
  writeFileSync(kubeconfig, `clusters: [{name: c, cluster: {server: '${api.url}'}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u, namespace: team}}]\ncurrent-context: x\n`);
  const cli = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const code = await run(['--kubeconfig', kubeconfig, ...argv], { stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, readStdin: async () => '', env: {} });
    return { code, out, err };
  };
  try {
    const manifest = join(dir, 'cm.yaml');
    writeFileSync(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: team}\n');
    let r = await cli('create', '-f', manifest);
    assert.deepEqual([r.code, r.out, r.err], [0, 'configmap/a created\nconfigmap/b created\n', '']);
    assert.ok(api.store.has('team/a'), 'created in the context namespace');

    r = await cli('create', '-f', manifest);
    assert.equal(r.code, 1);
    assert.match(r.err, /^Error from server \(AlreadyExists\): configmaps "a" already exists\n/);

    r = await cli('get', 'cm');
    assert.equal(r.code, 0);
    assert.match(r.out, /^NAME   AGE\na      \d+s\nb      \d+s\n$/);

    r = await cli('get', 'configmap', 'a', '-o', 'yaml');
    assert.equal(r.code, 0);
    const doc = parse(r.out) as { data: { k: string }; metadata: { name: string } };
    assert.equal(doc.data.k, 'v');

    r = await cli('get', 'ConfigMap', '-o', 'json');
    const list = JSON.parse(r.out) as { kind: string; items: Array<{ kind: string }> };
    assert.equal(list.kind, 'List');
    assert.deepEqual(list.items.map((i) => i.kind), ['ConfigMap', 'ConfigMap']);

    r = await cli('get', 'configmaps', '-o', 'name', '-n', 'other');
    assert.deepEqual([r.code, r.out, r.err], [0, '', '']);
    r = await cli('get', 'configmaps', '-n', 'other');
    assert.equal(r.err, 'No resources found in other namespace.\n');

    r = await cli('get', 'cm', 'missing');
    assert.deepEqual([r.code, r.err], [1, 'Error from server (NotFound): configmaps "missing" not found\n']);
    r = await cli('get', 'widgets');
    assert.deepEqual([r.code, r.err], [1, 'error: the server doesn\'t have a resource type "widgets"\n']);

    r = await cli('label', 'cm', 'a', 'tier=web', 'gone-');
    assert.deepEqual([r.code, r.out], [0, 'configmap/a labeled\n']);
    assert.deepEqual((api.store.get('team/a')?.metadata as { labels: unknown }).labels, { tier: 'web' });
    assert.ok(api.log.some((l) => l.startsWith('PATCH /api/v1/namespaces/team/configmaps/a application/merge-patch+json')));
    r = await cli('label', 'cm', 'a', 'tier=db');
    assert.deepEqual([r.code, r.err], [1, "error: 'tier' already has a value (web), and --overwrite is false\n"]);
    r = await cli('label', 'cm', 'a', 'tier=db', '--overwrite');
    assert.equal(r.code, 0);

    writeFileSync(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: changed}\n');
    r = await cli('replace', '-f', manifest);
    assert.deepEqual([r.code, r.out], [0, 'configmap/a replaced\n']);
    assert.deepEqual(api.store.get('team/a')?.data, { k: 'changed' });

    r = await cli('apply', '--server-side', '-f', manifest);
    assert.ok(api.log.some((l) => l === 'PATCH /api/v1/namespaces/team/configmaps/a?fieldManager=svcctl application/apply-patch+yaml'));

    r = await cli('delete', 'cm', 'a', 'b');
    assert.deepEqual([r.code, r.out], [0, 'configmap "a" deleted\nconfigmap "b" deleted\n']);
    assert.equal(api.store.size, 0);

    r = await cli('api-resources');
    assert.equal(r.code, 0);
    assert.match(r.out, /^NAME +SHORTNAMES +APIVERSION +NAMESPACED +KIND\nconfigmaps +cm +v1 +true +ConfigMap\nnodes +no +v1 +false +Node\n$/);

    r = await cli('version');
    assert.deepEqual([r.code, r.out], [0, 'Client Version: v0.1.0\nServer Version: v1.27.0\n']);

    r = await cli('frobnicate');
    assert.equal(r.code, 1);
  } finally {
    await api.close();
  }
});
