import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createCa, issueLeaf } from 'svc-apiserver/pki/certificates';
import { Http1Connection, type Http1Response } from './http1-connection.js';

/** A TLS server that answers each request with the next of `answers`, each sent in the given pieces. */
async function scriptedServer(answers: readonly (readonly string[])[]): Promise<{ port: number; ca: string; requests: string[]; close(): void }> {
  const ca = await createCa('load-test-ca');
  const leaf = await issueLeaf(ca, { commonName: 'load-test', usage: 'server', sans: ['127.0.0.1'] });
  const requests: string[] = [];
  const sockets = new Set<TLSSocket>();
  let next = 0;
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem, ALPNProtocols: ['http/1.1'] }, (socket) => {
    sockets.add(socket);
    let pending = '';
    socket.on('data', (d: Buffer) => {
      pending += d.toString('latin1');
      // One request per answer: a head, and a body as long as its Content-Length.
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        requests.push(pending.slice(0, end + 4 + length));
        pending = pending.slice(end + 4 + length);
        const pieces = answers[next++ % answers.length]!;
        // Each piece in its own TLS record, a moment apart, so the client sees them in separate reads.
        pieces.forEach((p, i) => setTimeout(() => socket.write(p), i * 5));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port, ca: ca.certPem, requests,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const send = (c: Http1Connection, request: string, expected = 200): Promise<Http1Response> =>
  new Promise((resolve) => c.send(Buffer.from(request), expected, resolve));

test('responses are delimited by Content-Length and chunked framing, however the bytes arrive', async () => {
  const server = await scriptedServer([
    ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'],
    ['HTTP/1.1 201 Created\r\ncontent-', 'length: 3\r\n', '\r\nab', 'c'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwiki\r\n', '5\r\npedia\r', '\n0\r\n', '\r\n'],
    ['HTTP/1.1 204 No Content\r\n\r\n'],
    ['HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found'],
    ['HTTP/1.1 500 Internal Server Error\r\ntransfer-encoding: chunked\r\n\r\n3\r\nbad\r\n0\r\n\r\n'],
  ]);
  const c = await Http1Connection.open({ host: '127.0.0.1', port: server.port, tls: { ca: server.ca } });
  try {
    assert.deepEqual(await send(c, 'GET /a HTTP/1.1\r\nhost: x\r\n\r\n'), { status: 200 });
    assert.deepEqual(await send(c, 'POST /b HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n{}', 201), { status: 201 });
    assert.deepEqual(await send(c, 'GET /c HTTP/1.1\r\nhost: x\r\n\r\n'), { status: 200 });
    assert.deepEqual(await send(c, 'GET /d HTTP/1.1\r\nhost: x\r\n\r\n', 204), { status: 204 });
    // An unexpected status keeps its body for the report.
    assert.deepEqual(await send(c, 'GET /e HTTP/1.1\r\nhost: x\r\n\r\n'), { status: 404, body: 'not found' });
    assert.deepEqual(await send(c, 'GET /f HTTP/1.1\r\nhost: x\r\n\r\n'), { status: 500, body: 'bad' });
    assert.equal(server.requests.length, 6);
    assert.match(server.requests[1]!, /^POST \/b HTTP\/1\.1\r\n[^]*\r\n\r\n\{\}$/);
  } finally {
    c.close();
    server.close();
  }
});

test('a connection the server closes answers status 0 with the reason, at once from then on', async () => {
  const server = await scriptedServer([['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort']]);
  const c = await Http1Connection.open({ host: '127.0.0.1', port: server.port, tls: { ca: server.ca } });
  try {
    const pending = send(c, 'GET / HTTP/1.1\r\nhost: x\r\n\r\n');
    setTimeout(() => server.close(), 50);
    const r = await pending;
    assert.equal(r.status, 0);
    assert.ok(r.body);
    assert.equal(c.failed, true, 'it says so, for the worker to open another');
    assert.equal((await send(c, 'GET / HTTP/1.1\r\nhost: x\r\n\r\n')).status, 0);
  } finally {
    c.close();
  }
});
