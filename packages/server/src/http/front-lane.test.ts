import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connect, type ClientHttp2Session } from 'node:http2';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { ensurePki, pkiCaName, type Pki } from '../pki/ensure-pki.js';
import { goesAhead } from './front-lane.js';
import type { NodeRequest } from './request-context.js';
import { startHttpsServer, type HttpsServer } from './https-server.js';
import { writeObject } from './response-writer.js';

const names = namesFor('svc');

/** A request on a connection whose certificate has organizations `o` (verified or not), with `headers`. */
function fakeRequest(o: string | string[] | undefined, authorized: boolean, headers: Record<string, string> = {}): NodeRequest {
  const socket = { authorized, getPeerCertificate: () => (o === undefined ? {} : { subject: { O: o } }) };
  return { httpVersionMajor: 1, socket, headers } as unknown as NodeRequest;
}

test('front lane: health checks go ahead for anyone; other paths only for a verified system:masters certificate impersonating nobody', () => {
  for (const path of ['/livez', '/readyz', '/healthz', '/livez/ping', '/readyz/etcd']) assert.ok(goesAhead(fakeRequest(undefined, false), path), path);
  for (const path of ['/livezz', '/api/v1/livez', '/metrics']) assert.ok(!goesAhead(fakeRequest(undefined, false), path), path);
  const path = '/api/v1/namespaces/a/configmaps';
  assert.ok(goesAhead(fakeRequest('system:masters', true), path));
  assert.ok(goesAhead(fakeRequest(['team', 'system:masters'], true), path));
  assert.ok(!goesAhead(fakeRequest('system:masters', false), path), 'a certificate the TLS layer did not verify');
  assert.ok(!goesAhead(fakeRequest('team', true), path));
  assert.ok(!goesAhead(fakeRequest(undefined, true), path));
  assert.ok(!goesAhead(fakeRequest('system:masters', true, { 'impersonate-user': 'someone' }), path), 'an impersonating administrator is queued');
  assert.ok(!goesAhead(fakeRequest('system:masters', true, { 'impersonate-group': 'g' }), path));
});

let dir: string;
let pki: Pki;
let server: HttpsServer;
/** The paths in the order the handler started them. */
const started: string[] = [];
/** By path: how long the request had waited since it arrived when the handler started it (ms). */
const waited = new Map<string, number>();

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'front-lane-'));
  pki = await ensurePki({ dir, sans: ['127.0.0.1'], caName: pkiCaName(names) });
  server = await startHttpsServer({
    host: '127.0.0.1', port: 0, certPem: pki.serving.certPem, keyPem: pki.serving.keyPem, clientCaPem: pki.ca.certPem,
    names, maxRequestBodyBytes: 1024, log: () => {},
    async handler(ctx) {
      started.push(ctx.path);
      waited.set(ctx.path, performance.now() - ctx.record.receivedAt);
      // Each queued request holds the loop past a slice's budget, so the queue runs one of them per turn.
      const end = performance.now() + 15;
      while (performance.now() < end);
      writeObject(ctx, 200, { path: ctx.path });
    },
  });
});
after(async () => {
  await server.close(1000);
  await rm(dir, { recursive: true, force: true });
});

function get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': path, ...headers }, { endStream: true });
    let status = 0;
    req.on('response', (h) => (status = Number(h[':status'])));
    req.on('error', reject);
    req.on('close', () => resolve(status));
    req.resume();
  });
}

test('front lane: requests that arrive together are queued, a health check and an administrator\'s own request are served ahead of them', async () => {
  const session = connect(`https://127.0.0.1:${server.port}`, { ca: pki.ca.certPem, cert: pki.admin.certPem, key: pki.admin.keyPem });
  try {
    assert.equal(await get(session, '/warm'), 200);
    started.length = 0;
    // Made in one tick, the streams leave in one write and the server reads them in one turn.
    const answers = [
      ...Array.from({ length: 4 }, (_, i) => get(session, `/queued-${i}`, { 'impersonate-user': 'someone' })),
      get(session, '/livez'),
      get(session, '/admin'),
    ];
    assert.deepEqual(await Promise.all(answers), [200, 200, 200, 200, 200, 200]);
    assert.deepEqual(started.slice(0, 2).sort(), ['/admin', '/livez'], `order: ${started.join(' ')}`);
    assert.deepEqual(started.slice(2), ['/queued-0', '/queued-1', '/queued-2', '/queued-3'], 'the queue keeps arrival order');
    // Latency is counted from arrival, as kube counts it: the last queued request waited behind five others of 15 ms.
    assert.ok(waited.get('/queued-3')! >= 5 * 15, `the last queued request had waited ${waited.get('/queued-3')} ms`);
  } finally {
    session.close();
  }
});
