/**
 * The aggregation layer end to end over HTTPS: APIServices registered for every built-in group-version (Local,
 * Available) and for custom resource group-versions; a small extension API server started here on loopback,
 * registered by an APIService whose Service's Endpoints point at it — requests proxied to it (get, list, a
 * streamed watch) with the caller's identity in X-Remote-* headers on the front-proxy client certificate, which
 * the extension server verifies against the CA published in `extension-apiserver-authentication`; its group in
 * discovery and OpenAPI (its v3 document listed, its v2 document merged); Available going False when it stops (503 for its resources, stale in aggregated discovery,
 * kubectl warning of an incomplete list of APIs) and True when it returns.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { namesFor } from '@svc-apiserver/api';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { startServer, type RunningServer } from '../server.js';
import { createCa, issueLeaf } from '../pki/certificates.js';
import { call, eventually } from './http.js';
import { cronTabCrd } from './crd-fixtures.js';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

const names = namesFor('svc');
const reg = names.group('apiregistration');
const group = 'metrics.example.com';
let server: RunningServer;
let client: RestClient;
let extension: Http2SecureServer | undefined;
/** The extension server's connections, ended when it stops. */
const extensionSockets = new Set<TLSSocket>();
let extensionPort = 0;
let extensionCerts: { cert: string; key: string; ca: string };
let trustedCa = '';
let allowedNames: string[] = [];
const seen: { user: string; groups: string[]; path: string; verifiedName: string; httpVersion: string }[] = [];

const widget = (name: string) => ({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, namespace: 'default', resourceVersion: '7' }, spec: { size: name.length } });

/**
 * The extension server's Swagger document: its widgets path, a path outside `/apis/` (not merged), a path the API
 * server serves already (not merged), and a definition named like one of the server's but different (renamed).
 */
const extensionSwagger = {
  swagger: '2.0', info: { title: 'widgets', version: 'v1' },
  paths: {
    [`/apis/${group}/v1/namespaces/{namespace}/widgets`]: {
      get: { operationId: 'listWidgets', responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/com.example.metrics.v1.WidgetList' } } } },
    },
    '/extension/status': { get: { operationId: 'getExtensionStatus', responses: { 200: { description: 'OK' } } } },
    '/api/v1/namespaces': { get: { operationId: 'hijacked', responses: { 200: { description: 'OK' } } } },
  },
  definitions: {
    'com.example.metrics.v1.WidgetList': { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/definitions/com.example.metrics.v1.Widget' } }, metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' } } },
    'com.example.metrics.v1.Widget': { type: 'object', properties: { spec: { type: 'object' } } },
    'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': { type: 'object', description: 'an older ListMeta' },
    'com.example.metrics.v1.Unused': { type: 'object' },
  },
};

/** Requests of both protocols (HTTP/1.1 ones come as node's HTTP/1.1 objects, which have the members used here). */
function handle(req: Http2ServerRequest, res: Http2ServerResponse): void {
  const socket = req.socket as TLSSocket;
  const peer = socket.getPeerCertificate();
  const cn = peer?.subject?.CN ?? '';
  // The request-header authenticator of an extension server: identity headers only from a front-proxy certificate.
  if (!socket.authorized || !allowedNames.includes(String(cn))) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 }));
    return;
  }
  // Every X-Remote-Group field, as sent (HTTP/2 and HTTP/1.1 alike).
  const groupsHeader = req.rawHeaders.filter((_, i) => i % 2 === 1 && req.rawHeaders[i - 1]!.toLowerCase() === 'x-remote-group');
  const url = new URL(req.url ?? '/', 'https://x');
  seen.push({ user: String(req.headers['x-remote-user'] ?? ''), groups: groupsHeader, path: url.pathname, verifiedName: String(cn), httpVersion: req.httpVersion });
  const json = (code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const base = `/apis/${group}/v1`;
  if (url.pathname === base) {
    return json(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/v1`, resources: [{ name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['get', 'list', 'watch'], shortNames: ['wd'] }] });
  }
  if (url.pathname === `/openapi/v3${base}`) return json(200, { openapi: '3.0.0', info: { title: 'widgets', version: 'v1' }, paths: {}, components: { schemas: {} } });
  if (url.pathname === '/openapi/v2') return json(200, extensionSwagger);
  if (url.pathname === `${base}/namespaces/default/widgets` && ['1', 'true'].includes(url.searchParams.get('watch') ?? '')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`${JSON.stringify({ type: 'ADDED', object: widget('w1') })}\n`);
    setTimeout(() => res.write(`${JSON.stringify({ type: 'MODIFIED', object: widget('w1') })}\n`), 300);
    return;
  }
  if (url.pathname === `${base}/namespaces/default/widgets`) {
    return json(200, { kind: 'WidgetList', apiVersion: `${group}/v1`, metadata: { resourceVersion: '7' }, items: [widget('w1'), widget('w22')] });
  }
  if (url.pathname === `${base}/namespaces/default/widgets/w1`) return json(200, widget('w1'));
  if (url.pathname === `${base}/namespaces/default/widgets/cut`) {
    // Part of the announced answer, then the connection goes.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"kind":"Widget",');
    setTimeout(() => socket.destroy(), 20);
    return;
  }
  json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
}

async function startExtension(port: number): Promise<void> {
  // HTTP/2 offered by ALPN beside HTTP/1.1, as API servers do.
  extension = createSecureServer({ cert: extensionCerts.cert, key: extensionCerts.key, ca: trustedCa, requestCert: true, rejectUnauthorized: false, allowHTTP1: true }, handle);
  extension.on('secureConnection', (socket: TLSSocket) => {
    extensionSockets.add(socket);
    socket.on('close', () => extensionSockets.delete(socket));
  });
  await new Promise<void>((r) => extension!.listen(port, '127.0.0.1', r));
  extensionPort = (extension.address() as { port: number }).port;
}

async function stopExtension(): Promise<void> {
  const s = extension;
  extension = undefined;
  if (s === undefined) return;
  for (const socket of extensionSockets) socket.destroy();
  await new Promise((r) => s.close(r));
}

async function availability(): Promise<{ status: string; reason: string; message: string } | undefined> {
  const a = await call(client, 'GET', `/apis/${reg}/v1/apiservices/v1.${group}`);
  return (a.body?.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Available');
}

const dir = tempDir({ after }, 'aggregator-');
before(async () => {
  server = await startServer({ dataDir: dir, securePort: 0, storage: 'memory', log: () => {}, apiServiceCheckIntervalMs: 300 });
  await server.ready();
  const kc = loadKubeconfig({ path: server.kubeconfigPath });
  if (!kc.ok) throw new Error(kc.error);
  client = createClient(kc.value);
  const ca = await createCa('extension-ca');
  const leaf = await issueLeaf(ca, { commonName: 'ext', usage: 'server', sans: [`ext.ext.svc`] });
  extensionCerts = { cert: leaf.certPem, key: leaf.keyPem, ca: ca.certPem };
});
after(async () => {
  await stopExtension();
  await server?.close();
});

test('every built-in group-version has a Local, Available APIService; custom resource groups get one too', async () => {
  assert.ok(await eventually(async () => {
    const list = await call(client, 'GET', `/apis/${reg}/v1/apiservices`);
    const apps = list.body?.items?.find((a: { metadata: { name: string } }) => a.metadata.name === 'v1.apps');
    return apps !== undefined && apps.status?.conditions?.some((c: { type: string; status: string; reason: string }) => c.type === 'Available' && c.status === 'True' && c.reason === 'Local');
  }), 'v1.apps Local and Available');
  const list = (await call(client, 'GET', `/apis/${reg}/v1/apiservices`)).body.items;
  const byName = new Map(list.map((a: { metadata: { name: string } }) => [a.metadata.name, a]));
  assert.ok(byName.has('v1.'), 'the core group');
  assert.ok(byName.has(`v1.${names.group('coordination')}`));
  const apps = byName.get('v1.apps') as { spec: Record<string, unknown>; metadata: { labels: Record<string, string> } };
  assert.deepEqual(apps.spec, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
  assert.equal(apps.metadata.labels['kube-aggregator.svc.io/automanaged'], 'onstart');
  assert.equal((await call(client, 'DELETE', `/apis/${reg}/v1/apiservices/v1.apps`)).status, 200);
  assert.ok(await eventually(async () => (await call(client, 'GET', `/apis/${reg}/v1/apiservices/v1.apps`)).status === 200), 'put back');

  assert.equal((await call(client, 'POST', `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`, cronTabCrd('tabs.example.com'))).status, 201);
  assert.ok(await eventually(async () => (await call(client, 'GET', `/apis/${reg}/v1/apiservices/v1.tabs.example.com`)).status === 200), 'a CRD group-version registered');
  const table = await call(client, 'GET', `/apis/${reg}/v1/apiservices/v1.apps`, undefined, { accept: `application/json;as=Table;g=${names.group('meta')};v=v1` });
  assert.deepEqual(table.body.rows[0].cells.slice(0, 3), ['v1.apps', 'Local', 'True']);
  const bad = await call(client, 'POST', `/apis/${reg}/v1/apiservices`, { apiVersion: `${reg}/v1`, kind: 'APIService', metadata: { name: 'wrong' }, spec: { group: 'x.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 5 } });
  assert.equal(bad.status, 422);
  assert.match(bad.body.message, /metadata\.name: Invalid value: "wrong": must be `spec\.version\+"\."\+spec\.group`/);
  assert.match(bad.body.message, /spec\.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000/);
});

test('an extension API server behind an APIService: proxied with the caller identity, discovered, watched', async () => {
  // What an extension server reads to trust the aggregator.
  const auth = await call(client, 'GET', `/api/v1/namespaces/${names.name('systemNamespace')}/configmaps/extension-apiserver-authentication`);
  assert.equal(auth.status, 200, auth.text);
  trustedCa = auth.body.data['requestheader-client-ca-file'];
  allowedNames = JSON.parse(auth.body.data['requestheader-allowed-names']);
  assert.deepEqual(JSON.parse(auth.body.data['requestheader-username-headers']), ['X-Remote-User']);
  assert.deepEqual(JSON.parse(auth.body.data['requestheader-group-headers']), ['X-Remote-Group']);
  assert.deepEqual(JSON.parse(auth.body.data['requestheader-extra-headers-prefix']), ['X-Remote-Extra-']);
  assert.ok(new X509Certificate(auth.body.data['client-ca-file'].split(/(?=-----BEGIN)/)[0]).subject.includes('CN='));
  await startExtension(0);

  assert.equal((await call(client, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ext' } })).status, 201);
  assert.equal((await call(client, 'POST', '/api/v1/namespaces/ext/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { ports: [{ name: 'https', port: 443, targetPort: extensionPort }] } })).status, 201);
  assert.equal((await call(client, 'POST', '/api/v1/namespaces/ext/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ext' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: extensionPort }] }] })).status, 201);
  const created = await call(client, 'POST', `/apis/${reg}/v1/apiservices`, {
    apiVersion: `${reg}/v1`, kind: 'APIService', metadata: { name: `v1.${group}` },
    spec: { group, version: 'v1', service: { namespace: 'ext', name: 'ext', port: 443 }, caBundle: Buffer.from(extensionCerts.ca).toString('base64'), groupPriorityMinimum: 100, versionPriority: 10 },
  });
  assert.equal(created.status, 201, created.text);
  assert.ok(await eventually(async () => (await availability())?.status === 'True'), `Available: ${JSON.stringify(await availability())}`);
  assert.equal((await availability())?.reason, 'Passed');

  const got = await call(client, 'GET', `/apis/${group}/v1/namespaces/default/widgets/w1`);
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body.kind, 'Widget');
  // The availability checks reach the server too (as system:kube-aggregator): find the proxied request itself.
  const last = [...seen].reverse().find((r) => r.path.endsWith('/widgets/w1'))!;
  assert.equal(last.user, 'admin');
  assert.ok(last.groups.includes('system:masters') && last.groups.includes('system:authenticated'), JSON.stringify(last.groups));
  assert.equal(last.verifiedName, 'front-proxy-client');
  assert.equal(last.httpVersion, '2.0', 'proxied over HTTP/2, which the extension server offers');
  assert.ok(seen.some((r) => r.user === 'system:kube-aggregator' && r.groups.includes('system:masters') && r.path === `/apis/${group}/v1`),
    'the availability check asks for discovery as system:kube-aggregator');
  const cut = await call(client, 'GET', `/apis/${group}/v1/namespaces/default/widgets/cut`);
  assert.equal(cut.status, 503, 'an answer cut off is never relayed as a whole one');
  assert.equal(cut.body.reason, 'ServiceUnavailable');
  assert.equal((await call(client, 'GET', `/apis/${group}/v1/namespaces/default/widgets/w1`)).status, 200, 'the next request reconnects');
  const listed = await call(client, 'GET', `/apis/${group}/v1/namespaces/default/widgets`);
  assert.deepEqual(listed.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['w1', 'w22']);

  const watch = client.watch({ group, version: 'v1', resource: 'widgets', namespace: 'default' }, { resourceVersion: '7', reconnect: false });
  const events: string[] = [];
  for await (const e of watch) {
    events.push(e.type === 'ERROR' ? JSON.stringify(e.object) : e.type);
    if (events.length === 2) break;
  }
  watch.close();
  assert.deepEqual(events, ['ADDED', 'MODIFIED'], 'events streamed as they come');

  const apis = await call(client, 'GET', '/apis');
  const entry = apis.body.groups.find((g: { name: string }) => g.name === group);
  assert.deepEqual(entry?.preferredVersion, { groupVersion: `${group}/v1`, version: 'v1' });
  const aggregated = await call(client, 'GET', '/apis', undefined, { accept: `application/json;g=${names.group('apidiscovery')};v=v2beta1;as=APIGroupDiscoveryList` });
  const item = aggregated.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === group);
  assert.equal(item?.versions[0].resources[0].resource, 'widgets');
  const groupDoc = await call(client, 'GET', `/apis/${group}`);
  assert.equal(groupDoc.body.kind, 'APIGroup');
  const index = await call(client, 'GET', '/openapi/v3');
  assert.ok(index.body.paths[`apis/${group}/v1`], 'the extension server\'s OpenAPI v3 document');

  // The extension server's OpenAPI v2 merged into the server's: its /apis/ paths, the definitions they reach, a
  // conflicting definition renamed with its references; nothing outside /apis/, no path the server serves itself.
  const v2 = await call(client, 'GET', '/openapi/v2');
  assert.equal(v2.status, 200);
  const widgets = v2.body.paths[`/apis/${group}/v1/namespaces/{namespace}/widgets`];
  assert.equal(widgets?.get?.operationId, 'listWidgets');
  assert.equal(v2.body.paths['/extension/status'], undefined);
  assert.notEqual(v2.body.paths['/api/v1/namespaces'].get.operationId, 'hijacked');
  const widgetList = v2.body.definitions['com.example.metrics.v1.WidgetList'];
  assert.equal(widgetList?.properties.metadata.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v2');
  assert.equal(v2.body.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta_v2']?.description, 'an older ListMeta');
  assert.notEqual(v2.body.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta']?.description, 'an older ListMeta');
  assert.ok(v2.body.definitions['com.example.metrics.v1.Widget']);
  assert.equal(v2.body.definitions['com.example.metrics.v1.Unused'], undefined);
});

test('availability follows the extension server: False with a 503 while it is down, True when it returns', async () => {
  const port = extensionPort;
  await stopExtension();
  assert.ok(await eventually(async () => (await availability())?.status === 'False'), 'Available goes False');
  const cond = await availability();
  assert.equal(cond?.reason, 'FailedDiscoveryCheck');
  assert.match(cond?.message ?? '', /^failing or missing response from https:\/\/127\.0\.0\.1:\d+\/apis\/metrics\.example\.com\/v1: /);
  const down = await call(client, 'GET', `/apis/${group}/v1/namespaces/default/widgets`);
  assert.equal(down.status, 503);
  assert.equal(down.body.reason, 'ServiceUnavailable');
  const aggregated = await call(client, 'GET', '/apis', undefined, { accept: `application/json;g=${names.group('apidiscovery')};v=v2beta1;as=APIGroupDiscoveryList` });
  const stale = aggregated.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === group);
  assert.equal(stale?.versions[0].freshness, 'Stale', 'marked stale in aggregated discovery');
  const legacy = await call(client, 'GET', '/apis');
  assert.ok(legacy.body.groups.some((g: { name: string }) => g.name === group), 'still listed in /apis, so clients learn it is unavailable');
  const v2 = await call(client, 'GET', '/openapi/v2');
  assert.equal(v2.body.paths[`/apis/${group}/v1/namespaces/{namespace}/widgets`], undefined, 'an unavailable server\'s paths leave OpenAPI v2');
  const kubectl = findKubectls()[0];
  if (kubectl !== undefined) {
    const run = await runKubectl(kubectl, server.kubeconfigPath, join(dir, 'kubectl-home'), ['api-resources']);
    assert.match(run.stderr, /unable to retrieve the complete list of server APIs: metrics\.example\.com\/v1/);
  }

  await startExtension(port);
  assert.ok(await eventually(async () => (await availability())?.status === 'True'), 'Available again');
  assert.equal((await call(client, 'GET', `/apis/${group}/v1/namespaces/default/widgets/w1`)).status, 200);

  assert.equal((await call(client, 'DELETE', '/api/v1/namespaces/ext/endpoints/ext')).status, 200);
  assert.ok(await eventually(async () => (await availability())?.reason === 'MissingEndpoints'));
  assert.equal((await availability())?.message, 'endpoints for service/ext in "ext" have no addresses with port name "https"');
  assert.equal((await call(client, 'DELETE', '/api/v1/namespaces/ext/services/ext')).status, 200);
  assert.ok(await eventually(async () => (await availability())?.reason === 'ServiceNotFound'));
  assert.equal((await availability())?.message, 'service/ext in "ext" is not present');
});
