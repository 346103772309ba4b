/**
 * The HTTP/2-capable transport against real servers on loopback: HTTP/2 where the server offers it by ALPN (one
 * connection for many requests, the client certificate on it, every field of a repeated header kept), HTTP/1.1
 * kept alive where it does not, a new session after the server ends one or when its streams are all taken, and
 * failures as values.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { createCa, issueLeaf, type CertAndKey } from '../pki/certificates.js';
import { pooledTarget } from './connection-pool.js';
import { negotiatedTransport } from './negotiated-transport.js';

let ca: CertAndKey;
let serving: { certPem: string; keyPem: string };
let client: { certPem: string; keyPem: string };

/** What the servers answer: how the request came. */
function answer(req: Http2ServerRequest, res: Http2ServerResponse): void {
  const socket = req.socket as TLSSocket;
  let body = '';
  req.on('data', (c: Buffer) => {
    body += c.toString();
  });
  req.on('end', () => {
    if (req.url === '/hold') return; // answered never: holds its stream
    if (req.url === '/reset') return void req.stream?.close(0x2); // reset before any answer (INTERNAL_ERROR)
    if (req.url === '/cut') {
      // Headers and part of the body, then the connection goes.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"items":[');
      setTimeout(() => socket.destroy(), 20);
      return;
    }
    const groups = req.rawHeaders.filter((_, i) => i % 2 === 1 && req.rawHeaders[i - 1]!.toLowerCase() === 'x-remote-group');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({
      httpVersion: req.httpVersion, method: req.method, path: req.url, body, groups,
      clientCn: socket.getPeerCertificate()?.subject?.CN, remotePort: socket.remotePort,
    }));
  });
}

async function listen<T extends Server | Http2SecureServer>(server: T): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function read(body: Readable): Promise<Record<string, unknown>> {
  let text = '';
  for await (const c of body) text += String(c);
  return JSON.parse(text) as Record<string, unknown>;
}

before(async () => {
  ca = await createCa('transport-ca');
  serving = await issueLeaf(ca, { commonName: 'ext', usage: 'server', sans: ['ext.ns.svc'] });
  client = await issueLeaf(ca, { commonName: 'front-proxy-client', usage: 'client' });
});

const targetFor = () => pooledTarget({ ca: ca.certPem, serverName: 'ext.ns.svc', cert: client.certPem, key: client.keyPem, timeoutMs: 0 });

describe('a server offering HTTP/2', () => {
  let server: Http2SecureServer;
  let port = 0;
  const sessions = new Set<ServerHttp2Session>();
  before(async () => {
    server = createSecureServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, allowHTTP1: true, settings: { maxConcurrentStreams: 2 } }, answer);
    server.on('session', (s: ServerHttp2Session) => {
      sessions.add(s);
      s.on('close', () => sessions.delete(s));
    });
    port = await listen(server);
  });
  after(async () => {
    for (const s of sessions) s.destroy();
    await new Promise((r) => server.close(r));
  });

  test('requests are streams of one connection, with the client certificate and every header field', async () => {
    const transport = negotiatedTransport(targetFor());
    const url = { host: '127.0.0.1', port, path: '/apis/x/v1?watch=false' };
    const answers = await Promise.all([0, 1].map(() => transport.request(url, { method: 'GET', headers: { 'X-Remote-Group': ['a', 'b'], accept: 'application/json' } })));
    const bodies = [];
    for (const a of answers) {
      assert.ok(a.ok, a.ok ? '' : a.error);
      assert.equal(a.value.status, 200);
      assert.equal(a.value.httpVersion, '2');
      assert.equal(a.value.headers['content-type'], 'application/json');
      assert.equal(a.value.headers[':status'], undefined, 'no pseudo-header among the answer\'s headers');
      bodies.push(await read(a.value.body));
    }
    assert.deepEqual(bodies.map((b) => b.httpVersion), ['2.0', '2.0']);
    assert.equal(bodies[0]!.remotePort, bodies[1]!.remotePort, 'one connection');
    assert.equal(bodies[0]!.clientCn, 'front-proxy-client');
    assert.deepEqual(bodies[0]!.groups, ['a', 'b']);
    assert.equal(bodies[0]!.path, '/apis/x/v1?watch=false');
    const posted = await transport.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '2' }, body: Buffer.from('{}') });
    assert.ok(posted.ok);
    assert.equal((await read(posted.value.body)).body, '{}');
    transport.close();
  });

  test('a session the server ended is replaced; streams beyond the server\'s limit open another', async () => {
    const transport = negotiatedTransport(targetFor());
    const url = (path: string) => ({ host: '127.0.0.1', port, path });
    const first = await transport.request(url('/a'), { method: 'GET', headers: {} });
    assert.ok(first.ok);
    const firstPort = (await read(first.value.body)).remotePort;
    for (const s of sessions) s.close();
    await new Promise((r) => setTimeout(r, 50));
    const again = await transport.request(url('/b'), { method: 'GET', headers: {} });
    assert.ok(again.ok, again.ok ? '' : again.error);
    const againPort = (await read(again.value.body)).remotePort;
    assert.notEqual(againPort, firstPort, 'a new connection');

    // Two held streams fill the session (the server allows two; the last answer's stream closes first); a third
    // request goes on another connection.
    await new Promise((r) => setTimeout(r, 50));
    const aborts = [new AbortController(), new AbortController()];
    const held = aborts.map((a) => transport.request(url('/hold'), { method: 'GET', headers: {}, signal: a.signal }));
    await new Promise((r) => setTimeout(r, 100));
    const third = await transport.request(url('/c'), { method: 'GET', headers: {} });
    assert.ok(third.ok, third.ok ? '' : third.error);
    assert.notEqual((await read(third.value.body)).remotePort, againPort, 'another connection beside the full one');
    for (const a of aborts) a.abort();
    for (const h of await Promise.all(held)) assert.equal(h.ok, false, 'an aborted request fails');
    transport.close();
  });

  test('a stream reset before its answer fails; an answer cut off ends its body; the next request connects anew', async () => {
    const transport = negotiatedTransport(targetFor());
    const url = (path: string) => ({ host: '127.0.0.1', port, path });
    const reset = await transport.request(url('/reset'), { method: 'GET', headers: {} });
    assert.equal(reset.ok, false);
    const cut = await transport.request(url('/cut'), { method: 'GET', headers: {} });
    assert.ok(cut.ok, cut.ok ? '' : cut.error);
    let received = '';
    // The body stops where the connection went (node's HTTP/2 client may end it as if complete: the proxy checks
    // the length the answer announced).
    await new Promise<void>((resolve) => {
      cut.value.body.on('data', (c: Buffer) => {
        received += c.toString();
      });
      cut.value.body.on('close', () => resolve());
    });
    assert.equal(cut.value.headers['content-length'], '100');
    assert.equal(received, '{"items":[');
    const after = await transport.request(url('/after'), { method: 'GET', headers: {} });
    assert.ok(after.ok, after.ok ? '' : after.error);
    assert.equal((await read(after.value.body)).path, '/after');
    transport.close();
  });
});

test('a server offering HTTP/1.1 only is sent HTTP/1.1 on kept-alive connections', async () => {
  const server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true }, answer as never);
  const port = await listen(server);
  try {
    const transport = negotiatedTransport(targetFor());
    const seen = [];
    for (const path of ['/a', '/b']) {
      const a = await transport.request({ host: '127.0.0.1', port, path }, { method: 'GET', headers: { 'X-Remote-Group': ['a', 'b'] } });
      assert.ok(a.ok, a.ok ? '' : a.error);
      assert.equal(a.value.httpVersion, '1.1');
      seen.push(await read(a.value.body));
    }
    assert.deepEqual(seen.map((b) => b.httpVersion), ['1.1', '1.1']);
    assert.equal(seen[0]!.remotePort, seen[1]!.remotePort, 'the connection kept alive');
    assert.equal(seen[0]!.clientCn, 'front-proxy-client');
    assert.deepEqual(seen[0]!.groups, ['a', 'b']);
    transport.close();
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('failures are values: nothing listening, a certificate for another name', async () => {
  const closed = createServer();
  const port = await listen(closed);
  await new Promise((r) => closed.close(r));
  const refused = await negotiatedTransport(targetFor()).request({ host: '127.0.0.1', port, path: '/' }, { method: 'GET', headers: {} });
  assert.equal(refused.ok, false);
  assert.match(refused.ok ? '' : refused.error, /ECONNREFUSED/);

  const server = createSecureServer({ cert: serving.certPem, key: serving.keyPem, allowHTTP1: true }, answer);
  const serverPort = await listen(server);
  try {
    const wrongName = pooledTarget({ ca: ca.certPem, serverName: 'other.ns.svc', timeoutMs: 0 });
    const r = await negotiatedTransport(wrongName).request({ host: '127.0.0.1', port: serverPort, path: '/' }, { method: 'GET', headers: {} });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /other\.ns\.svc/);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
