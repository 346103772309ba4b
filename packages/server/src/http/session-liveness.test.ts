import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect, constants, createServer, type ClientHttp2Stream, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { watchSessionLiveness } from './session-liveness.js';

/** A cleartext HTTP/2 server whose every response stays open (as a watch does), its sessions watched. */
async function streamingServer() {
  const server = createServer();
  const sessions: Http2Session[] = [];
  server.on('session', (s) => {
    sessions.push(s);
    s.on('error', () => {});
    watchSessionLiveness(s, { afterResetMs: 50, idleMs: 100, timeoutMs: 300 });
  });
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    stream.respond({ ':status': 200 });
    stream.write('{}\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = (): void => {
    for (const s of sessions) s.destroy();
    server.close();
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sessions, close };
}

const until = async (probe: () => boolean, ms: number): Promise<boolean> => {
  const end = Date.now() + ms;
  while (!probe() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return probe();
};

test('session liveness: a session nghttp2 stopped reading after a burst of stream resets is destroyed', async () => {
  const server = await streamingServer();
  const client = connect(server.url);
  client.on('error', () => {});
  // More resets at once than nghttp2's burst of 1,000: it sends GOAWAY and the server session reads no more.
  const streams = await Promise.all(Array.from({ length: 1200 }, () => new Promise<ClientHttp2Stream>((resolve) => {
    const s = client.request({ ':path': '/' });
    s.on('error', () => {});
    s.on('response', () => resolve(s));
  })));
  for (const s of streams) s.close(constants.NGHTTP2_CANCEL);
  await new Promise((r) => setTimeout(r, 100));
  client.destroy();
  assert.ok(await until(() => server.sessions.every((s) => s.destroyed), 5000), 'the silent session is ended');
  server.close();
});

test('session liveness: a quiet session whose client answers PINGs stays open', async () => {
  const server = await streamingServer();
  const client = connect(server.url);
  const stream = client.request({ ':path': '/' });
  await new Promise((r) => stream.once('response', r));
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(server.sessions.length, 1);
  assert.equal(server.sessions[0]!.destroyed, false, 'several idle checks were answered');
  client.destroy();
  server.close();
});
