/**
 * HTTP/2 by ALPN against real servers on loopback, in both forms the outbound client sends it: streamed
 * (httpsExchange, the aggregator's proxy) and buffered (httpsRequest, admission and conversion webhooks). HTTP/2
 * where the server offers it (one connection for many requests, the credentials on it, every field of a repeated
 * header kept), HTTP/1.1 kept alive where it does not, a new session after the server ends one or when its streams
 * are all taken, a refused stream sent once more, and failures (timeouts, deadlines, oversized answers, wrong trust,
 * bad header values, handshakes that never end) as values.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { createCa, issueLeaf, type CertAndKey } from '../pki/certificates.js';
import { http2SessionsOf, pooledTarget, type TlsSettings } from './connection-pool.js';
import { abortedMessage, type AbortHook } from './http2-sessions.js';
import { deadlineExceeded, httpsExchange, httpsPostJson, httpsRequest, maxResponseBytes, type ExchangeRequest, type HttpsTarget, type RequestUrl } from './https-request.js';

let ca: CertAndKey;
let otherCa: CertAndKey;
let serving: { certPem: string; keyPem: string };
let client: { certPem: string; keyPem: string };

/** What the servers saw of each request. */
interface Seen {
  readonly path: string | undefined;
  readonly httpVersion: string;
  readonly authorization: string | undefined;
  readonly clientCn: string | undefined;
  readonly remotePort: number | undefined;
  readonly body: string;
}
let seen: Seen[] = [];
/** Paths refused once (REFUSED_STREAM) before being answered. */
const refusedOnce = new Set<string>();

/** What the servers answer: how the request came. */
function answer(req: Http2ServerRequest, res: Http2ServerResponse): void {
  const socket = req.socket as TLSSocket;
  let body = '';
  req.on('data', (c: Buffer) => {
    body += c.toString();
  });
  req.on('end', () => {
    const clientCn = [socket.getPeerCertificate()?.subject?.CN].flat()[0];
    seen.push({ path: req.url, httpVersion: req.httpVersion, authorization: req.headers.authorization, clientCn, remotePort: socket.remotePort, body });
    if (req.url === '/hold') return; // answered never: holds its stream
    if (req.url === '/reset') return void req.stream?.close(0x2); // reset before any answer (INTERNAL_ERROR)
    if (req.url?.startsWith('/refuse-once') === true && !refusedOnce.has(req.url)) {
      refusedOnce.add(req.url);
      return void req.stream?.close(0x7); // REFUSED_STREAM: not processed, safe to send again
    }
    if (req.url === '/cut') {
      // Headers and part of the body, then the connection goes.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"items":[');
      setTimeout(() => socket.destroy(), 20);
      return;
    }
    if (req.url === '/huge') return void res.end(Buffer.alloc(maxResponseBytes + 1, 'a'));
    if (req.url === '/goaway' && req.stream !== undefined) {
      // Answers, then closes the connection (GOAWAY): the client's next request needs a new one.
      res.end('{}', () => req.stream.session?.close());
      return;
    }
    const groups = req.rawHeaders.filter((_, i) => i % 2 === 1 && req.rawHeaders[i - 1]!.toLowerCase() === 'x-remote-group');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ httpVersion: req.httpVersion, method: req.method, path: req.url, body, groups, clientCn, remotePort: socket.remotePort }));
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
  otherCa = await createCa('other-ca');
  serving = await issueLeaf(ca, { commonName: 'ext', usage: 'server', sans: ['ext.ns.svc', '127.0.0.1'] });
  client = await issueLeaf(ca, { commonName: 'front-proxy-client', usage: 'client' });
});

/** The aggregator's kind of target: a Service's name verified, the front-proxy certificate, no timeout. */
const targetFor = () => pooledTarget({ ca: ca.certPem, serverName: 'ext.ns.svc', cert: client.certPem, key: client.keyPem, timeoutMs: 0, offerHttp2: true });

/** Streamed requests of one target; closing ends the sessions of its pool, so that each test starts afresh. */
function negotiatedTransport(target: HttpsTarget & TlsSettings) {
  return {
    request: (url: RequestUrl, request: ExchangeRequest) => httpsExchange(url, request, target),
    close: () => http2SessionsOf(target)?.close(),
  };
}

/** An abort hook, and the call that fires it (as a request's transport tells the proxy its client left). */
function abortHook(): { hook: AbortHook; abort: () => void } {
  const stops: (() => void)[] = [];
  let aborted = false;
  return {
    hook: (stop) => (aborted ? stop() : stops.push(stop)),
    abort: () => {
      aborted = true;
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/** Sends `path` with an abort hook fired `afterMs` later (0: fired before the request is sent). */
async function givenUp(transport: ReturnType<typeof negotiatedTransport>, to: RequestUrl, afterMs: number) {
  const { hook, abort } = abortHook();
  if (afterMs === 0) abort();
  else setTimeout(abort, afterMs);
  return transport.request(to, { method: 'GET', headers: {}, onAbort: hook });
}

/** The server allows this many streams per session. */
const maxStreams = 3;

describe('a server offering HTTP/2', () => {
  let server: Http2SecureServer;
  let port = 0;
  const sessions = new Set<ServerHttp2Session>();
  const url = (path: string) => ({ host: '127.0.0.1', port, path });
  const http2Url = (path: string) => `https://127.0.0.1:${port}${path}`;
  before(async () => {
    server = createSecureServer({
      cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false, allowHTTP1: true,
      settings: { maxConcurrentStreams: maxStreams },
    }, answer);
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

  test('streamed: requests are streams of one connection, with the client certificate and every header field', async () => {
    const transport = negotiatedTransport(targetFor());
    const answers = await Promise.all([0, 1].map(() => transport.request(url('/apis/x/v1?watch=false'), { method: 'GET', headers: { 'X-Remote-Group': ['a', 'b'], accept: 'application/json' } })));
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
    const posted = await transport.request(url('/apis/x/v1?watch=false'), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '2' }, body: Buffer.from('{}') });
    assert.ok(posted.ok);
    assert.equal((await read(posted.value.body)).body, '{}');
    transport.close();
  });

  test('buffered: concurrent calls share one connection, with the credentials', async () => {
    const target = pooledTarget({ ca: ca.certPem, cert: client.certPem, key: client.keyPem, token: 'h2-token', offerHttp2: true });
    assert.notEqual(target.agent, pooledTarget({ ca: ca.certPem, cert: client.certPem, key: client.keyPem }).agent, 'a pool of its own');
    seen = [];
    const answers = await Promise.all(['/a', '/b', '/c'].map((p) => httpsPostJson(http2Url(p), target, { p })));
    assert.deepEqual(answers.map((a) => a.ok && [a.value.status, (a.value.body as { path: string }).path]), [[200, '/a'], [200, '/b'], [200, '/c']]);
    assert.deepEqual(seen.map((s) => [s.httpVersion, s.clientCn, s.authorization]), Array(3).fill(['2.0', 'front-proxy-client', 'Bearer h2-token']));
    assert.equal(new Set(seen.map((s) => s.remotePort)).size, 1);
    assert.deepEqual(new Set(seen.map((s) => s.body)), new Set(['{"p":"/a"}', '{"p":"/b"}', '{"p":"/c"}']));
    http2SessionsOf(target)?.close();
  });

  test('streamed: a session the server ended is replaced; streams beyond the server\'s limit open another', async () => {
    const transport = negotiatedTransport(targetFor());
    const first = await transport.request(url('/a'), { method: 'GET', headers: {} });
    assert.ok(first.ok);
    const firstPort = (await read(first.value.body)).remotePort;
    for (const s of sessions) s.close();
    await new Promise((r) => setTimeout(r, 50));
    const again = await transport.request(url('/b'), { method: 'GET', headers: {} });
    assert.ok(again.ok, again.ok ? '' : again.error);
    const againPort = (await read(again.value.body)).remotePort;
    assert.notEqual(againPort, firstPort, 'a new connection');

    // Held streams fill the session (the last answer's stream closes first); the next request goes on another
    // connection.
    await new Promise((r) => setTimeout(r, 50));
    const aborts = Array.from({ length: maxStreams }, () => new AbortController());
    const held = aborts.map((a) => transport.request(url('/hold'), { method: 'GET', headers: {}, signal: a.signal }));
    await new Promise((r) => setTimeout(r, 100));
    const third = await transport.request(url('/c'), { method: 'GET', headers: {} });
    assert.ok(third.ok, third.ok ? '' : third.error);
    assert.notEqual((await read(third.value.body)).remotePort, againPort, 'another connection beside the full one');
    for (const a of aborts) a.abort();
    for (const h of await Promise.all(held)) assert.equal(h.ok, false, 'an aborted request fails');
    transport.close();
  });

  test('streamed: an exchange its caller gives up through the abort hook fails, before or while it waits', async () => {
    const transport = negotiatedTransport(targetFor());
    assert.deepEqual(await givenUp(transport, url('/hold'), 50), { ok: false, error: abortedMessage });
    assert.deepEqual(await givenUp(transport, url('/hold'), 0), { ok: false, error: abortedMessage });
    const after = await transport.request(url('/after'), { method: 'GET', headers: {} });
    assert.ok(after.ok, 'the session survives its given-up streams');
    await read(after.value.body);
    transport.close();
  });

  test('buffered: calls beyond the server\'s stream limit open another session', async () => {
    const target = pooledTarget({ ca: ca.certPem, offerHttp2: true });
    assert.ok((await httpsRequest(http2Url('/warm'), 'GET', target)).ok);
    await new Promise((r) => setTimeout(r, 50));
    seen = [];
    const aborts = Array.from({ length: maxStreams }, () => new AbortController());
    const held = aborts.map((a) => httpsRequest(http2Url('/hold'), 'GET', target, undefined, { signal: a.signal }));
    await new Promise((r) => setTimeout(r, 100));
    assert.ok((await httpsRequest(http2Url('/beside'), 'GET', target)).ok);
    const heldPorts = new Set(seen.filter((s) => s.path === '/hold').map((s) => s.remotePort));
    assert.equal(heldPorts.size, 1, 'the held calls share one session');
    assert.ok(!heldPorts.has(seen.find((s) => s.path === '/beside')!.remotePort), 'another connection beside the full one');
    for (const a of aborts) a.abort();
    for (const h of await Promise.all(held)) assert.equal(h.ok, false, 'an aborted call fails');
    http2SessionsOf(target)?.close();
  });

  test('streamed: a stream reset before its answer fails; an answer cut off ends its body; the next request connects anew', async () => {
    const transport = negotiatedTransport(targetFor());
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

  test('a stream the server refused unprocessed is sent once more, in both forms', async () => {
    const transport = negotiatedTransport(targetFor());
    const streamed = await transport.request(url('/refuse-once/streamed'), { method: 'GET', headers: {} });
    assert.ok(streamed.ok, streamed.ok ? '' : streamed.error);
    assert.equal((await read(streamed.value.body)).path, '/refuse-once/streamed');
    transport.close();
    const target = pooledTarget({ ca: ca.certPem, offerHttp2: true });
    const buffered = await httpsPostJson(http2Url('/refuse-once/buffered'), target, { a: 1 });
    assert.ok(buffered.ok, buffered.ok ? '' : buffered.error);
    assert.equal((buffered.value.body as { path: string }).path, '/refuse-once/buffered');
    http2SessionsOf(target)?.close();
  });

  test('buffered failures are values: timeouts, deadlines, oversized answers, wrong trust, header values refused', async () => {
    const target = pooledTarget({ ca: ca.certPem, offerHttp2: true });
    const slow = await httpsRequest(http2Url('/hold'), 'GET', { ...target, timeoutMs: 100 });
    assert.match(!slow.ok ? slow.error : '', /timed out after 100ms/);
    const started = Date.now();
    assert.deepEqual(await httpsRequest(http2Url('/hold'), 'GET', target, undefined, { deadlineMs: 150 }), { ok: false, error: deadlineExceeded });
    assert.ok(Date.now() - started < 5000);
    const huge = await httpsRequest(http2Url('/huge'), 'GET', target);
    assert.match(!huge.ok ? huge.error : '', /larger than/);
    const untrusted = await httpsRequest(http2Url('/ok'), 'GET', pooledTarget({ ca: otherCa.certPem, offerHttp2: true }));
    assert.equal(untrusted.ok, false);
    assert.equal((await httpsRequest(http2Url('/'), 'GET', { ...target, token: 'bad\ntoken' })).ok, false);
    assert.ok((await httpsRequest(http2Url('/after'), 'GET', target)).ok, 'the session survives its cancelled streams');
    http2SessionsOf(target)?.close();
  });

  test('buffered: a session the server closes is replaced by the next call', async () => {
    const target = pooledTarget({ ca: ca.certPem, offerHttp2: true, headers: { 'x-case': 'goaway' } });
    seen = [];
    assert.ok((await httpsRequest(http2Url('/goaway'), 'GET', target)).ok);
    await new Promise((r) => setTimeout(r, 20));
    assert.ok((await httpsRequest(http2Url('/next'), 'GET', target)).ok);
    assert.deepEqual(seen.map((s) => s.httpVersion), ['2.0', '2.0']);
    assert.notEqual(seen[0]!.remotePort, seen[1]!.remotePort, 'a new connection');
    http2SessionsOf(target)?.close();
  });

  test('pools that do not offer HTTP/2 never use it', async () => {
    seen = [];
    assert.ok((await httpsRequest(http2Url('/plain'), 'GET', pooledTarget({ ca: ca.certPem }))).ok);
    const streamed = await httpsExchange(url('/plain'), { method: 'GET', headers: {} }, pooledTarget({ ca: ca.certPem, serverName: 'ext.ns.svc', timeoutMs: 0 }));
    assert.ok(streamed.ok, streamed.ok ? '' : streamed.error);
    assert.equal(streamed.value.httpVersion, '1.1');
    await read(streamed.value.body);
    assert.deepEqual(seen.map((s) => s.httpVersion), ['1.1', '1.1']);
  });
});

test('a server offering HTTP/1.1 only is sent HTTP/1.1 on kept-alive connections, and remembered as such', async () => {
  const server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, answer as never);
  let connections = 0;
  server.on('connection', () => connections++);
  const port = await listen(server);
  try {
    const transport = negotiatedTransport(targetFor());
    const answers = [];
    for (const path of ['/a', '/b']) {
      const a = await transport.request({ host: '127.0.0.1', port, path }, { method: 'GET', headers: { 'X-Remote-Group': ['a', 'b'] } });
      assert.ok(a.ok, a.ok ? '' : a.error);
      assert.equal(a.value.httpVersion, '1.1');
      answers.push(await read(a.value.body));
    }
    assert.deepEqual(answers.map((b) => b.httpVersion), ['1.1', '1.1']);
    assert.equal(answers[0]!.remotePort, answers[1]!.remotePort, 'the connection kept alive');
    assert.equal(answers[0]!.clientCn, 'front-proxy-client');
    assert.deepEqual(answers[0]!.groups, ['a', 'b']);
    // One connection to learn the protocol, one kept alive: the second request did not ask again.
    assert.equal(connections, 2);
    transport.close();

    const given = await givenUp(transport, { host: '127.0.0.1', port, path: '/hold' }, 50);
    assert.deepEqual(given, { ok: false, error: abortedMessage }, 'an HTTP/1.1 exchange is given up through the abort hook too');

    seen = [];
    const buffered = pooledTarget({ ca: ca.certPem, offerHttp2: true });
    assert.ok((await httpsRequest(`https://127.0.0.1:${port}/h1`, 'GET', buffered)).ok);
    assert.ok((await httpsRequest(`https://127.0.0.1:${port}/h1-again`, 'GET', buffered)).ok);
    assert.deepEqual(seen.map((s) => s.httpVersion), ['1.1', '1.1']);
    http2SessionsOf(buffered)?.close();
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('a server that never completes the handshake fails each request at its deadline or timeout', async () => {
  const accepted: Socket[] = [];
  const silent = createNetServer((socket) => accepted.push(socket.on('error', () => undefined)));
  const silentPort = await listen(silent as never);
  try {
    const target = pooledTarget({ ca: ca.certPem, offerHttp2: true });
    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      assert.deepEqual(await httpsRequest(`https://127.0.0.1:${silentPort}/x`, 'GET', target, undefined, { deadlineMs: 150 }), { ok: false, error: deadlineExceeded });
      assert.ok(Date.now() - started < 2000);
    }
    const started = Date.now();
    const streamed = await httpsExchange({ host: '127.0.0.1', port: silentPort, path: '/x' }, { method: 'GET', headers: {} }, { ...targetFor(), timeoutMs: 150 });
    assert.match(streamed.ok ? '' : streamed.error, /timed out after 150ms/);
    assert.ok(Date.now() - started < 2000);
  } finally {
    for (const socket of accepted) socket.destroy();
    silent.close();
  }
});

test('streamed failures are values: nothing listening, a certificate for another name', async () => {
  const closed = createServer();
  const port = await listen(closed);
  await new Promise((r) => closed.close(r));
  const refused = await negotiatedTransport(targetFor()).request({ host: '127.0.0.1', port, path: '/' }, { method: 'GET', headers: {} });
  assert.equal(refused.ok, false);
  assert.match(refused.ok ? '' : refused.error, /ECONNREFUSED/);

  const server = createSecureServer({ cert: serving.certPem, key: serving.keyPem, allowHTTP1: true }, answer);
  const serverPort = await listen(server);
  try {
    const wrongName = pooledTarget({ ca: ca.certPem, serverName: 'other.ns.svc', timeoutMs: 0, offerHttp2: true });
    const r = await negotiatedTransport(wrongName).request({ host: '127.0.0.1', port: serverPort, path: '/' }, { method: 'GET', headers: {} });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /other\.ns\.svc/);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
