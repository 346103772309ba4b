import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connect, constants, createSecureServer, type ClientHttp2Stream, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createCa, issueLeaf } from '../pki/certificates.js';
import { watchSessionLiveness } from './session-liveness.js';

const ca = await createCa('liveness-ca');
const serving = await issueLeaf(ca, { commonName: 'server', usage: 'server', sans: ['127.0.0.1'] });

/** An HTTP/2 server over TLS whose every response stays open (as a watch does), its sessions watched. */
async function streamingServer() {
  const server = createSecureServer({ cert: serving.certPem, key: serving.keyPem });
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
  const connections = (): Promise<number> => new Promise((resolve, reject) => server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, sessions, connections, close };
}

const until = async (probe: () => Promise<boolean>, ms: number): Promise<boolean> => {
  const end = Date.now() + ms;
  while (!(await probe()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return probe();
};

test('session liveness: a session nghttp2 stopped reading after a burst of stream resets is destroyed, its connection closed', async () => {
  const server = await streamingServer();
  const client = connect(server.url, { ca: ca.certPem });
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
  assert.ok(await until(async () => server.sessions.every((s) => s.destroyed) && (await server.connections()) === 0, 5000),
    'the silent session and its connection are ended');
  server.close();
});

test('session liveness: a quiet session whose client answers PINGs stays open', async () => {
  const server = await streamingServer();
  const client = connect(server.url, { ca: ca.certPem });
  const stream = client.request({ ':path': '/' });
  await new Promise((r) => stream.once('response', r));
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(server.sessions.length, 1);
  assert.equal(server.sessions[0]!.destroyed, false, 'several idle checks were answered');
  client.destroy();
  server.close();
});
