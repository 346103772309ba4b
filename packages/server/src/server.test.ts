import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { readFile } from 'node:fs/promises';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { startServer, type RunningServer } from './server.js';

function get(server: RunningServer, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${server.url}${path}`, {
      ca: server.ca, cert: server.adminCert, key: server.adminKey, agent: false, headers,
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('in-process server on memory storage: version, health, discovery, openapi, system namespaces', async (t) => {
  const dir = tempDir(t, 'server-');
  const server = await startServer({ dataDir: dir, securePort: 0, storage: 'memory', log: () => {} });
  try {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(server.startupMs < 10_000, `startup took ${server.startupMs}ms`);
    assert.equal(JSON.parse((await get(server, '/version')).body).minor, '27');
    // Post-start hooks (the default RBAC policy) are livez checks too and may still run when startServer resolves.
    await server.ready();
    const livez = await get(server, '/livez?verbose');
    assert.equal(livez.status, 200, livez.body);
    assert.match(livez.body, /^\[\+\]ping ok\n\[\+\]log ok\n\[\+\]etcd ok\n/);
    assert.match(livez.body, /livez check passed\n$/);
    const readyz = await get(server, '/readyz?verbose');
    assert.equal(readyz.status, 200, readyz.body);
    assert.match(readyz.body, /\[\+\]informer-sync ok\n/);
    assert.match(readyz.body, /\[\+\]shutdown ok\nreadyz check passed\n$/);
    const v1 = JSON.parse((await get(server, '/api/v1')).body);
    assert.ok(v1.resources.some((r: { name: string }) => r.name === 'namespaces'));
    assert.ok(v1.resources.some((r: { name: string }) => r.name === 'namespaces/status'));
    const ns = await get(server, '/api/v1/namespaces');
    assert.equal(ns.status, 200, ns.body);
    const nsNames = JSON.parse(ns.body).items.map((i: { metadata: { name: string } }) => i.metadata.name);
    for (const n of ['default', 'svc-system', 'svc-public']) assert.ok(nsNames.includes(n), `${n} in ${nsNames}`);
    const v3 = await get(server, '/openapi/v3');
    assert.equal(v3.status, 200);
    assert.ok(JSON.parse(v3.body).paths['api/v1']);
    const v2 = await get(server, '/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    assert.equal(v2.status, 200);
    assert.equal(v2.type, 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'the form without @: Go clients cannot parse @');
    const missing = await get(server, '/api/v1/namespaces/default/nothings');
    assert.equal(missing.status, 404);
  } finally {
    await server.close();
  }
});

test('sqlite storage: a second start reuses the data directory and certificates', async (t) => {
  const dir = tempDir(t, 'server-');
  const first = await startServer({ dataDir: dir, securePort: 0, log: () => {} });
  const kubeconfig = await readFile(first.kubeconfigPath, 'utf8');
  const page = JSON.parse((await get(first, '/api/v1/namespaces?limit=1')).body) as { metadata: { continue?: string }; items: { metadata: { name: string } }[] };
  assert.ok(page.metadata.continue);
  await first.close();
  const second = await startServer({ dataDir: dir, securePort: 0, log: () => {} });
  try {
    assert.equal(second.ca, first.ca);
    assert.equal(second.adminCert, first.adminCert);
    assert.notEqual(await readFile(second.kubeconfigPath, 'utf8'), '', 'kubeconfig rewritten');
    assert.ok(kubeconfig.includes('current-context: svc-apiserver'));
    // The server serves before its post-start hooks are done, as kube-apiserver does: ready once they are.
    await second.ready();
    assert.equal((await get(second, '/readyz')).body, 'ok');
    // The continue-token key is kept in the data directory: a token issued before the restart still continues.
    const next = await get(second, `/api/v1/namespaces?limit=1&continue=${page.metadata.continue}`);
    assert.equal(next.status, 200, next.body);
    assert.notEqual(JSON.parse(next.body).items[0].metadata.name, page.items[0]!.metadata.name);
  } finally {
    await second.close();
  }
});

test('an unknown controller fails the start, naming it', async (t) => {
  const dir = tempDir(t, 'server-');
  await assert.rejects(startServer({ dataDir: dir, securePort: 0, storage: 'memory', controllers: ['*', '-nosuch'], log: () => {} }),
    /--controllers: "nosuch" is not in the list of known controllers \(namespace, garbagecollector, clusterrole-aggregation, serviceaccount, serviceaccount-token, root-ca-cert-publisher, csrsigning, csrapproving, csrcleaner, bootstrapsigner, tokencleaner, resourcequota, pvc-protection, pv-protection\)/);
});

test('an unknown admission plugin fails the start', async (t) => {
  const dir = tempDir(t, 'server-');
  await assert.rejects(startServer({ dataDir: dir, securePort: 0, storage: 'memory', enableAdmissionPlugins: ['NoSuchPlugin'], log: () => {} }));
});
