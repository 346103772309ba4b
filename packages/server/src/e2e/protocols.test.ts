/**
 * Transport behaviour: HTTP/2 and HTTP/1.1 over TLS with the admin certificate, watch streams that send their
 * headers before the first event (on both protocols), and watch resume from a list's resourceVersion.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { WatchEvent } from '@svc-apiserver/api';
import { call, createNamespace } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

let server: ServerProcess;
const ns = 'e2e-protocols';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

before(async () => {
  // The root CA ConfigMap would be one more object in the namespace whose watch is checked.
  server = await startServerProcess({ extraArgs: ['--controllers=*,-root-ca-cert-publisher'] });
  await createNamespace(server.client, ns);
});

after(async () => {
  await server?.stop();
});

function tlsOptions(): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const { ca, cert, key } = server.admin;
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

test('HTTP/2 with the admin certificate', async () => {
  const session = http2.connect(server.url, tlsOptions());
  try {
    const { status, body, alpn } = await new Promise<{ status: number; body: string; alpn: string }>((resolve, reject) => {
      session.on('error', reject);
      const req = session.request({ ':path': '/api/v1/namespaces', ':method': 'GET', accept: 'application/json' });
      let status = 0;
      let body = '';
      req.setEncoding('utf8');
      req.on('response', (h) => { status = Number(h[':status']); });
      req.on('data', (c: string) => { body += c; });
      req.on('end', () => resolve({ status, body, alpn: session.alpnProtocol ?? '' }));
      req.on('error', reject);
    });
    assert.equal(alpn, 'h2');
    assert.equal(status, 200);
    assert.equal(JSON.parse(body).kind, 'NamespaceList');
  } finally {
    session.close();
  }
});

test('HTTP/1.1 with the admin certificate', async () => {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = https.request(`${server.url}/api/v1/namespaces/default`, { ...tlsOptions(), agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
  assert.equal(res.httpVersion, '1.1');
  assert.equal(res.statusCode, 200);
  let body = '';
  for await (const c of res) body += c;
  assert.equal(JSON.parse(body).metadata.name, 'default');
});

test('a watch over HTTP/1.1 sends headers before the first event, then events as lines', async () => {
  const started = Date.now();
  const controller = new AbortController();
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = https.request(`${server.url}${cms}?watch=1`, { ...tlsOptions(), agent: false, signal: controller.signal, headers: { accept: 'application/json' } }, resolve);
    req.on('error', reject);
    req.end();
  });
  try {
    assert.ok(Date.now() - started < 5000, 'headers arrived without waiting for an event');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    const firstLine = new Promise<string>((resolve) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        const nl = buf.indexOf('\n');
        if (nl >= 0) resolve(buf.slice(0, nl));
      });
    });
    const created = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } });
    assert.equal(created.status, 201);
    const event = JSON.parse(await firstLine) as WatchEvent;
    assert.equal(event.type, 'ADDED');
    assert.equal(event.object.metadata?.name, 'watched');
    assert.equal(event.object.kind, 'ConfigMap');
    assert.equal(event.object.metadata?.resourceVersion, created.body.metadata.resourceVersion);
  } finally {
    controller.abort();
    res.destroy();
  }
});

test('a watch over HTTP/2 sends headers before the first event', async () => {
  const session = http2.connect(server.url, tlsOptions());
  try {
    const started = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      session.on('error', reject);
      const req = session.request({ ':path': `/api/v1/namespaces/${ns}/secrets?watch=1`, accept: 'application/json' });
      req.on('response', (h) => resolve(Number(h[':status'])));
      req.on('error', reject);
      setTimeout(() => reject(new Error('no response headers within 5s')), 5000).unref();
    });
    assert.equal(status, 200);
    assert.ok(Date.now() - started < 5000);
  } finally {
    session.destroy();
  }
});

test('the client watch resumes from a list resourceVersion and sees every change in order', async () => {
  const list = await server.client.list({ group: '', version: 'v1', resource: 'configmaps', namespace: ns });
  assert.ok(list.ok);
  const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: ns };
  const w = server.client.watch(ref, { resourceVersion: list.value.metadata.resourceVersion ?? '' });
  const seen: Array<[string, string]> = [];
  const done = (async () => {
    for await (const e of w) {
      seen.push([e.type, e.object.metadata?.name ?? '']);
      if (seen.length === 3) break;
    }
  })();
  const a = await server.client.create(ref, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w-a' } });
  assert.ok(a.ok);
  const u = await server.client.update(ref, { ...a.value, data: { k: 'v' } });
  assert.ok(u.ok, u.ok ? '' : u.error.message);
  const d = await server.client.delete(ref, 'w-a');
  assert.ok(d.ok);
  const timeout = setTimeout(() => w.close(), 10_000);
  await done;
  clearTimeout(timeout);
  assert.deepEqual(seen, [['ADDED', 'w-a'], ['MODIFIED', 'w-a'], ['DELETED', 'w-a']]);
});
