import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { constants, createServer, type Http2Server, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { sessionPool } from './overload-requests.js';

async function listening<S extends TcpServer | Http2Server>(server: S): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

test('a request whose session never connects settles as a timeout at its deadline', async () => {
  // A TLS session to a peer that never answers the handshake keeps its streams pending: Node's own stream timeout
  // closes such a stream without its ever emitting 'close', which once left the flood waiting for good.
  const sockets: Socket[] = [];
  const silent = createTcpServer((s) => void sockets.push(s));
  const port = await listening(silent);
  const pool = sessionPool(`https://127.0.0.1:${port}`, {}, 1, { answerTimeoutMs: 200 });
  try {
    const sample = await pool.get('/');
    assert.equal(sample.outcome, 'timeout');
    assert.equal(sample.status, 0);
  } finally {
    pool.close();
    for (const s of sockets) s.destroy();
    silent.close();
  }
});

test('a session with as many streams open as allowed makes the pool open another; every request is answered', async () => {
  const held: ServerHttp2Stream[] = [];
  const server = createServer();
  server.on('stream', (stream) => held.push(stream));
  const port = await listening(server);
  const pool = sessionPool(`http://127.0.0.1:${port}`, {}, 1, { maxStreams: 2 });
  try {
    const answers = Array.from({ length: 5 }, () => pool.get('/'));
    while (held.length < 5) await new Promise((r) => setTimeout(r, 5));
    // Two streams on each of three sessions at most: two sessions opened beyond the first.
    assert.equal(pool.opened(), 2);
    assert.equal(new Set(held.map((s) => s.session)).size, 3);
    for (const s of held) s.respond({ ':status': 429 }, { endStream: true });
    assert.deepEqual((await Promise.all(answers)).map((a) => a.outcome), ['429', '429', '429', '429', '429']);
  } finally {
    pool.close();
    server.close();
  }
});

test('a session told GOAWAY fails its requests as such, and the next request goes on a new session', async () => {
  let first = true;
  const server = createServer();
  server.on('stream', (stream) => {
    if (first) {
      first = false;
      // As Node's server does once a session refused too many streams: GOAWAY with INTERNAL_ERROR.
      stream.session?.goaway(constants.NGHTTP2_INTERNAL_ERROR, 0);
      return;
    }
    stream.respond({ ':status': 200 }, { endStream: true });
  });
  const port = await listening(server);
  const pool = sessionPool(`http://127.0.0.1:${port}`, {}, 1);
  try {
    const failed = await pool.get('/');
    assert.equal(failed.status, 0);
    assert.equal(failed.outcome, 'goaway 2');
    const next = await pool.get('/');
    assert.equal(next.outcome, '200');
    assert.equal(pool.opened(), 1);
  } finally {
    pool.close();
    server.close();
  }
});
