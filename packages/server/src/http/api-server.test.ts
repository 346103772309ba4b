import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { connect as http2Connect } from 'node:http2';
import { mkdtemp, rm, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { namesFor } from '@svc-apiserver/api';
import type { ApiResource } from '../schema/catalog.js';
import { startApiServer, type ApiServer } from './api-server.js';
import type { RequestContext } from './context.js';
import { addWarning, startWatch, writeObject, writeStatus } from './response-writer.js';
import { decodeBody } from './decode-body.js';

const names = namesFor('svc');
const configmaps: ApiResource = {
  groupKey: '', group: '', version: 'v1', resource: 'configmaps', singularName: 'configmap', kind: 'ConfigMap',
  listKind: 'ConfigMapList', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['cm'], categories: [], subresources: [], schemaName: 'io.k8s.api.core.v1.ConfigMap',
};
const leases: ApiResource = {
  groupKey: 'coordination', group: 'coordination.svc.io', version: 'v1', resource: 'leases', singularName: 'lease',
  kind: 'Lease', listKind: 'LeaseList', namespaced: true, verbs: ['get', 'list'], shortNames: [], categories: [],
  subresources: [{ name: 'status', kind: 'Lease', verbs: ['get', 'patch', 'update'] }], schemaName: 'x',
};

/** A stand-in for the resource handler: echoes what the context decoded, or exercises one feature by name. */
async function fakeResourceHandler(ctx: RequestContext): Promise<void> {
  const { info } = ctx;
  if (info.name === 'panic') throw new Error('boom');
  if (info.name === 'stuck') {
    // Never answers: the request deadline must.
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    writeObject(ctx, 200, { late: true });
    return;
  }
  if (info.verb === 'watch') {
    const w = startWatch(ctx);
    w.send({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'a' } } });
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    w.end();
    return;
  }
  if (info.verb === 'create') {
    const body = await decodeBody(ctx, ['application/json', 'application/yaml']);
    if (!body.ok) return writeStatus(ctx, body.error);
    addWarning(ctx, 'this is a "warning"');
    return writeObject(ctx, 201, { echoed: body.value.object, mediaType: body.value.mediaType });
  }
  writeObject(ctx, 200, { info, user: ctx.user });
}

let server: ApiServer;
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'api-server-'));
  const started = Date.now();
  server = await startApiServer({
    dataDir: dir, bindAddress: '127.0.0.1', port: 0, tlsSans: [], names, maxRequestBodyBytes: 1024,
    livezGracePeriodMs: 0, shutdownDelayMs: 0, resourceHandler: fakeResourceHandler,
    resources: () => [configmaps, leases], checks: [{ name: 'etcd', check: async () => undefined }], readyChecks: [],
    log: () => {},
  });
  assert.ok(Date.now() - started < 5000);
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

interface Reply { status: number; headers: Record<string, string | string[] | undefined>; body: string }

function call(method: string, path: string, options: { body?: string | Buffer; headers?: Record<string, string>; admin?: boolean; chunked?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${server.url}${path}`, {
      method, ca: server.ca, agent: false, headers: options.headers ?? {},
      ...(options.admin ? { cert: server.adminCert, key: server.adminKey } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        const buf = Buffer.from(options.body);
        for (let i = 0; i < buf.length; i += 512) req.write(buf.subarray(i, i + 512));
        req.end();
      } else req.end(options.body);
    } else req.end();
  });
}

test('/version over HTTPS/1.1', async () => {
  const r = await call('GET', '/version');
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-type'], 'application/json');
  const v = JSON.parse(r.body);
  assert.equal(v.major, '1');
  assert.equal(v.minor, '27');
  assert.match(v.gitVersion, /^v1\.27\.\d+\+svc-apiserver\./);
});

test('/version over HTTP/2', async () => {
  const session = http2Connect(server.url, { ca: server.ca });
  try {
    const body = await new Promise<string>((resolve, reject) => {
      const s = session.request({ ':path': '/version' });
      let data = '';
      s.setEncoding('utf8');
      s.on('data', (c: string) => (data += c));
      s.on('end', () => resolve(data));
      s.on('error', reject);
    });
    assert.equal(JSON.parse(body).major, '1');
  } finally {
    session.close();
  }
});

test('413 over HTTP/2 for a streamed body, and the session stays usable', async () => {
  const session = http2Connect(server.url, { ca: server.ca });
  try {
    const post = (body: Buffer): Promise<{ status: number; body: string }> => new Promise((resolve, reject) => {
      const s = session.request({ ':method': 'POST', ':path': '/api/v1/namespaces/d/configmaps', 'content-type': 'application/json' });
      let status = 0;
      let data = '';
      s.on('response', (h) => (status = Number(h[':status'])));
      s.setEncoding('utf8');
      s.on('data', (c: string) => (data += c));
      s.on('end', () => resolve({ status, body: data }));
      s.on('error', reject);
      for (let i = 0; i < body.length; i += 1000) s.write(body.subarray(i, i + 1000));
      s.end();
    });
    const r = await post(Buffer.alloc(200_000, 'x'));
    assert.equal(r.status, 413);
    assert.equal(JSON.parse(r.body).reason, 'RequestEntityTooLarge');
    const ok = await post(Buffer.from('{"kind":"ConfigMap"}'));
    assert.equal(ok.status, 201);
  } finally {
    session.close();
  }
});

test('/livez?verbose lists checks; /readyz/shutdown answers; health needs no credentials', async () => {
  const r = await call('GET', '/livez?verbose');
  assert.equal(r.status, 200);
  assert.equal(r.body, '[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n');
  assert.match(String(r.headers['content-type']), /^text\/plain/);
  assert.equal((await call('GET', '/readyz')).body, 'ok');
  assert.equal((await call('GET', '/readyz/shutdown')).body, 'ok');
  assert.equal((await call('GET', '/healthz/nope')).status, 404);
});

test('Cache-Control: no-cache, private on every answer through the chain: objects, health, discovery, 404, 500, 400, 504, 406, watches', async () => {
  const expected = 'no-cache, private';
  const answers = await Promise.all([
    call('GET', '/api/v1/namespaces/default/configmaps/a', { admin: true }),
    call('GET', '/livez'),
    call('GET', '/version'),
    call('GET', '/api'),
    call('GET', '/nope'),
    call('GET', '/api/v1/namespaces/default/configmaps/panic', { admin: true }),
    call('POST', '/api/v1/namespaces/default/configmaps', { admin: true, body: '{', headers: { 'Content-Type': 'application/json' } }),
    call('GET', '/api/v1/namespaces/default/configmaps/stuck?timeout=100ms', { admin: true }),
    call('GET', '/api/v1/namespaces/default/configmaps/a', { admin: true, headers: { Accept: 'application/nope' } }),
  ]);
  for (const r of answers) assert.equal(r.headers['cache-control'], expected, `${r.status} ${r.body.slice(0, 80)}`);
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 404, 500, 400, 504, 406]);
});

test('unknown path: 404 in kube-apiserver 1.27 form (Status under the API, Go\'s plain text elsewhere); wrong method on a known path: 405', async () => {
  const api = await call('GET', '/apis/nope.example/v1');
  assert.equal(api.status, 404);
  assert.deepEqual(JSON.parse(api.body), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404,
  });
  for (const [method, path] of [['GET', '/nope'], ['POST', '/nope/deeper'], ['GET', '/healthz/nope']] as const) {
    const r = await call(method, path, method === 'POST' ? { body: '{}' } : {});
    assert.equal(r.status, 404, path);
    assert.equal(r.body, '404 page not found\n', path);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8', path);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
  }
  const m = await call('POST', '/version', { body: '{}' });
  assert.equal(m.status, 405);
  assert.equal(JSON.parse(m.body).reason, 'MethodNotAllowed');
});

test('413 for a declared body over the limit and for a streamed one', async () => {
  const big = JSON.stringify({ data: 'x'.repeat(4096) });
  for (const chunked of [false, true]) {
    const r = await call('POST', '/api/v1/namespaces/d/configmaps', { body: big, chunked, headers: { 'Content-Type': 'application/json' } });
    assert.equal(r.status, 413, `chunked=${chunked}`);
    const s = JSON.parse(r.body);
    assert.equal(s.reason, 'RequestEntityTooLarge');
    assert.equal(s.message, 'Request entity too large: limit is 1024');
  }
  // the server still serves afterwards
  assert.equal((await call('GET', '/version')).status, 200);
});

test('malformed JSON and YAML are 400, unknown content types 415, multi-document YAML 400', async () => {
  const bad = await call('POST', '/api/v1/namespaces/d/configmaps', { body: '{"a":', headers: { 'Content-Type': 'application/json' } });
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.body).reason, 'BadRequest');
  assert.match(JSON.parse(bad.body).message, /json parse error/);
  const badYaml = await call('POST', '/api/v1/namespaces/d/configmaps', { body: 'a: [', headers: { 'Content-Type': 'application/yaml' } });
  assert.equal(badYaml.status, 400);
  const multi = await call('POST', '/api/v1/namespaces/d/configmaps', { body: 'a: 1\n---\nb: 2\n', headers: { 'Content-Type': 'application/yaml' } });
  assert.equal(multi.status, 400);
  const unknown = await call('POST', '/api/v1/namespaces/d/configmaps', { body: 'x', headers: { 'Content-Type': 'text/plain' } });
  assert.equal(unknown.status, 415);
  assert.equal(JSON.parse(unknown.body).reason, 'UnsupportedMediaType');
});

test('YAML bodies decode as kube-apiserver reads them; warnings become Warning headers', async () => {
  const r = await call('POST', '/api/v1/namespaces/d/configmaps', {
    body: 'kind: ConfigMap\nflag: yes\nmode: 0644\nwhen: 2020-01-01\n', headers: { 'Content-Type': 'application/yaml; charset=utf-8' },
  });
  assert.equal(r.status, 201);
  const out = JSON.parse(r.body);
  assert.deepEqual(out.echoed, { kind: 'ConfigMap', flag: true, mode: 420, when: '2020-01-01' });
  assert.equal(out.mediaType, 'application/yaml');
  assert.equal(r.headers['warning'], '299 - "this is a \\"warning\\""');
});

test('negotiation: YAML, pretty, kubectl Table Accept falls back to JSON, 406 otherwise', async () => {
  const y = await call('GET', '/api/v1/namespaces/d/configmaps/x', { headers: { Accept: 'application/yaml' } });
  assert.equal(y.headers['content-type'], 'application/yaml');
  assert.equal(parseYaml(y.body).info.name, 'x');
  const p = await call('GET', '/version?pretty=true');
  assert.match(p.body, /^\{\n {2}"major": "1"/);
  const table = await call('GET', '/api/v1/namespaces/d/configmaps', {
    headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
  });
  assert.equal(table.status, 200);
  assert.equal(table.headers['content-type'], 'application/json');
  const none = await call('GET', '/api/v1/namespaces/d/configmaps/x', { headers: { Accept: 'text/html' } });
  assert.equal(none.status, 406);
  assert.equal(JSON.parse(none.body).reason, 'NotAcceptable');
});

test('authentication: the admin certificate is system:masters; no certificate is anonymous', async () => {
  const admin = JSON.parse((await call('GET', '/api/v1/namespaces/d/configmaps/x', { admin: true })).body);
  assert.deepEqual(admin.user, { username: 'admin', groups: ['system:masters', 'system:authenticated'] });
  const anon = JSON.parse((await call('GET', '/api/v1/namespaces/d/configmaps/x')).body);
  assert.deepEqual(anon.user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
  assert.equal(anon.info.verb, 'get');
  assert.equal(anon.info.namespace, 'd');
});

test('a handler throw is a 500 InternalError and the server keeps serving', async () => {
  const r = await call('GET', '/api/v1/namespaces/d/configmaps/panic');
  assert.equal(r.status, 500);
  assert.equal(JSON.parse(r.body).reason, 'InternalError');
  assert.equal((await call('GET', '/version')).status, 200);
});

test('watch: headers at once, one JSON document per line, chunked on HTTP/1.1', async () => {
  await new Promise<void>((resolve, reject) => {
    const req = httpsRequest(`${server.url}/api/v1/namespaces/d/configmaps?watch=true`, { ca: server.ca, agent: false }, (res) => {
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json');
      assert.equal(res.headers['transfer-encoding'], 'chunked');
      assert.equal(res.headers['cache-control'], 'no-cache, private');
      res.setEncoding('utf8');
      res.once('data', (line: string) => {
        assert.deepEqual(JSON.parse(line.trim()), { type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'a' } } });
        assert.ok(line.endsWith('\n'));
        req.destroy();
        resolve();
      });
    });
    req.on('error', reject);
    req.end();
  });
});

test('discovery: /api, /api/v1, /apis, /apis/<g>/<v>, aggregated', async () => {
  const api = JSON.parse((await call('GET', '/api')).body);
  assert.equal(api.kind, 'APIVersions');
  assert.deepEqual(api.versions, ['v1']);
  const v1 = JSON.parse((await call('GET', '/api/v1')).body);
  assert.equal(v1.kind, 'APIResourceList');
  assert.equal(v1.resources[0].name, 'configmaps');
  assert.deepEqual(v1.resources[0].shortNames, ['cm']);
  assert.equal(typeof v1.resources[0].storageVersionHash, 'string');
  const apis = JSON.parse((await call('GET', '/apis')).body);
  assert.deepEqual(apis.groups, [{ name: 'coordination.svc.io', versions: [{ groupVersion: 'coordination.svc.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'coordination.svc.io/v1', version: 'v1' } }]);
  const gv = JSON.parse((await call('GET', '/apis/coordination.svc.io/v1')).body);
  assert.deepEqual(gv.resources.map((r: { name: string }) => r.name), ['leases', 'leases/status']);
  assert.equal((await call('GET', '/apis/nope/v1')).status, 404);
  const accept = 'application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
  const agg = await call('GET', '/apis', { headers: { Accept: accept } });
  assert.equal(agg.headers['content-type'], 'application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList');
  const list = JSON.parse(agg.body);
  assert.equal(list.kind, 'APIGroupDiscoveryList');
  assert.equal(list.items[0].metadata.name, 'coordination.svc.io');
  assert.deepEqual(list.items[0].versions[0].resources[0].subresources, [{ subresource: 'status', responseKind: { group: 'coordination.svc.io', version: 'v1', kind: 'Lease' }, verbs: ['get', 'patch', 'update'] }]);
  const core = JSON.parse((await call('GET', '/api', { headers: { Accept: accept } })).body);
  assert.equal(core.items[0].versions[0].resources[0].scope, 'Namespaced');
  // the k8s flavour's media type is not this server's: plain document
  const k8s = await call('GET', '/apis', { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' } });
  assert.equal(JSON.parse(k8s.body).kind, 'APIGroupList');
});

test('the admin kubeconfig points at the server with the CA and admin credentials', async () => {
  const kc = parseYaml(await readFile(server.kubeconfigPath, 'utf8'));
  assert.equal(kc.clusters[0].cluster.server, server.url);
  assert.equal(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), server.ca);
  assert.equal(Buffer.from(kc.users[0].user['client-certificate-data'], 'base64').toString(), server.adminCert);
  assert.equal(kc['current-context'], 'svc-apiserver');
});

test('graceful shutdown: readyz fails during the shutdown delay, watches end, then the listener closes', async () => {
  const d = await mkdtemp(join(tmpdir(), 'api-server-shutdown-'));
  const s = await startApiServer({
    dataDir: d, bindAddress: '127.0.0.1', port: 0, tlsSans: [], names, maxRequestBodyBytes: 1024,
    livezGracePeriodMs: 0, shutdownDelayMs: 300, resourceHandler: fakeResourceHandler,
    resources: () => [], checks: [], readyChecks: [], log: () => {},
  });
  const get = (path: string): Promise<{ status: number; body: string }> => new Promise((resolve, reject) => {
    httpsRequest(`${s.url}${path}`, { ca: s.ca, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject).end();
  });
  try {
    // a watch that stays open until the server ends it
    const watchEnded = new Promise<void>((resolve, reject) => {
      httpsRequest(`${s.url}/api/v1/configmaps?watch=1`, { ca: s.ca, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve());
        res.on('error', () => resolve());
      }).on('error', reject).end();
    });
    await new Promise((r) => setTimeout(r, 50));
    const closed = s.close();
    const during = await get('/readyz?verbose');
    assert.equal(during.status, 500);
    assert.match(during.body, /\[-\]shutdown failed: reason withheld\nreadyz check failed\n$/);
    assert.equal((await get('/livez')).status, 200, 'liveness is unaffected by shutdown');
    await closed;
    await watchEnded;
    await assert.rejects(get('/livez'));
  } finally {
    await s.close();
    await rm(d, { recursive: true, force: true });
  }
});

test('50 open watches add no listener to a shared signal (no MaxListenersExceededWarning); shutdown ends them all', async () => {
  const d = await mkdtemp(join(tmpdir(), 'api-server-watches-'));
  const s = await startApiServer({
    dataDir: d, bindAddress: '127.0.0.1', port: 0, tlsSans: [], names, maxRequestBodyBytes: 1024,
    livezGracePeriodMs: 0, shutdownDelayMs: 0, resourceHandler: fakeResourceHandler,
    resources: () => [], checks: [], readyChecks: [], log: () => {},
  });
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  const session = http2Connect(s.url, { ca: s.ca });
  session.on('error', () => {});
  try {
    const opened: Promise<void>[] = [];
    const ended: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      const stream = session.request({ ':path': `/api/v1/namespaces/n${i}/configmaps?watch=1` });
      opened.push(new Promise((resolve) => stream.once('data', () => resolve())));
      ended.push(new Promise((resolve) => {
        stream.resume();
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', () => resolve());
      }));
    }
    // Every watch is open (its first event arrived) before shutdown begins.
    await Promise.all(opened);
    // Warnings are emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings.map((w) => `${w.name}: ${w.message}`), []);
    const started = Date.now();
    await s.close();
    await Promise.all(ended);
    assert.ok(Date.now() - started < 5000, 'watches ended at shutdown, not at the close timeout');
  } finally {
    process.off('warning', onWarning);
    session.destroy();
    await s.close();
    await rm(d, { recursive: true, force: true });
  }
});

test('a request past its deadline is answered 504 Timeout; the timeout parameter shortens it; a bad one is 400', async () => {
  const started = Date.now();
  const r = await call('GET', '/api/v1/namespaces/d/configmaps/stuck?timeout=200ms', { admin: true });
  assert.equal(r.status, 504);
  assert.deepEqual(JSON.parse(r.body), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504,
  });
  assert.ok(Date.now() - started < 5000);
  const bad = await call('GET', '/api/v1/namespaces/d/configmaps/stuck?timeout=soon', { admin: true });
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.body).message, 'invalid timeout specified in the request URL - time: invalid duration "soon"');
  // Over HTTP/2 the same, and the session goes on serving.
  const session = http2Connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
  try {
    const ask = (path: string) => new Promise<number>((resolve, reject) => {
      const s = session.request({ ':path': path });
      s.on('response', (h) => resolve(Number(h[':status'])));
      s.on('error', reject);
      s.resume();
      s.end();
    });
    assert.equal(await ask('/api/v1/namespaces/d/configmaps/stuck?timeout=100ms'), 504);
    assert.equal(await ask('/version'), 200);
  } finally {
    session.close();
  }
});
