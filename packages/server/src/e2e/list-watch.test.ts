/**
 * Lists and watches against the real server process (document 1 §Pagination, §Watch, §Resource versions):
 * streamed paginated lists over HTTP/1.1, WatchList over HTTP/2 behind its feature gate, bookmarks, 504 with
 * Retry-After for a resourceVersion the store has not reached, and the start error of an unknown feature gate.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import type { WatchEvent } from '@svc-apiserver/api';
import { call, createNamespace } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

let server: ServerProcess;
const ns = 'e2e-list-watch';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

before(async () => {
  // The root CA ConfigMap would be one more object in the namespaces whose lists and watches are checked.
  server = await startServerProcess({ extraArgs: ['--feature-gates=WatchList=true', '--controllers=*,-root-ca-cert-publisher'] });
  await createNamespace(server.client, ns);
});

after(async () => {
  await server?.stop();
});

function tlsOptions(): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const { ca, cert, key } = server.admin;
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

test('paginated lists keep one snapshot, stream as chunked JSON and end with an empty continue', async () => {
  for (let i = 0; i < 5; i++) {
    const r = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `p${i}` }, data: { i: String(i) } });
    assert.equal(r.status, 201);
  }
  const first = await call(server.client, 'GET', `${cms}?limit=2`);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['p0', 'p1']);
  assert.equal(first.body.metadata.remainingItemCount, 3);
  assert.equal(first.body.items[0].kind, undefined, 'typed list items carry no kind');
  await call(server.client, 'DELETE', `${cms}/p3`);
  const second = await call(server.client, 'GET', `${cms}?limit=10&continue=${encodeURIComponent(first.body.metadata.continue)}`);
  assert.equal(second.status, 200);
  assert.deepEqual(second.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['p2', 'p3', 'p4']);
  assert.equal(second.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
  assert.equal(second.body.metadata.continue, undefined);
  const bad = await call(server.client, 'GET', `${cms}?limit=2&continue=bogus`);
  assert.equal(bad.status, 400);
  assert.match(bad.body.message, /^invalid continue token/);
});

test('a resourceVersion the store has not reached: 504 Too large resource version with Retry-After', async () => {
  const r = await call(server.client, 'GET', `${cms}?resourceVersion=999999999`);
  assert.equal(r.status, 504);
  assert.equal(r.headers['retry-after'], '1');
  assert.match(r.body.message, /Too large resource version: 999999999, current: \d+/);
  assert.equal(r.body.details.causes[0].reason, 'ResourceVersionTooLarge');
});

test('WatchList over HTTP/2: initial ADDED events, the initial-events-end bookmark, then live changes', async () => {
  const session = http2.connect(server.url, tlsOptions());
  try {
    const events: WatchEvent[] = [];
    let wake: () => void = () => {};
    const req = session.request({
      ':path': `${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=wl%3Dyes`,
      accept: 'application/json',
    });
    let buf = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      buf += c;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buf.slice(0, nl)) as WatchEvent);
        buf = buf.slice(nl + 1);
        wake();
      }
    });
    const waitFor = (n: number) => new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`got ${JSON.stringify(events.map((e) => e.type))}`)), 10_000);
      wake = () => {
        if (events.length >= n) {
          clearTimeout(t);
          resolve();
        }
      };
      wake();
    });
    const status = await new Promise<number>((resolve) => req.on('response', (h) => resolve(Number(h[':status']))));
    assert.equal(status, 200);
    await waitFor(1);
    assert.equal(events[0]!.type, 'BOOKMARK', 'nothing matches yet: only the bookmark');
    assert.equal(events[0]!.object.metadata?.annotations?.['svc.io/initial-events-end'], 'true');
    const created = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wl', labels: { wl: 'yes' } } });
    assert.equal(created.status, 201);
    await waitFor(2);
    assert.equal(events[1]!.type, 'ADDED');
    assert.equal(events[1]!.object.metadata?.name, 'wl');
    req.close();
  } finally {
    session.destroy();
  }
});

test('an unknown feature gate is a start error', async () => {
  await assert.rejects(
    startServerProcess({ extraArgs: ['--feature-gates=NoSuchGate=true'], readyTimeoutMs: 30_000 }),
    /exited early/,
  );
});
