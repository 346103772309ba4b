/**
 * Watchers that never read are cut off, and the server does not keep what they do not take: while one object is
 * rewritten over and over, watches whose clients stopped reading end with a 410 Expired ERROR once their backlog
 * passes its byte limit, and a reading watcher gets every event. `npm test` stalls HTTP/2 watchers (their flow
 * control window is small, so the server feels a stalled client at once) against a 512 KiB limit and 16 MB of events.
 * A loopback HTTP/1.1 client's kernel buffers grow to tcp_rmem's maximum (often 32 MB) before the server sees any
 * backpressure, so `SVC_SOAK=1` stalls HTTP/1.1 and HTTP/2 watchers (20) against the default 16 MiB limit with
 * 256 MB of events: the server's memory stays bounded, and responses whose clients never take their end are dropped.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request } from 'node:https';
import { connect, type ClientHttp2Session } from 'node:http2';
import type { Readable } from 'node:stream';
import { mb, soak, startOverloadServer, until, type OverloadServer } from './overload-support.js';
import type { OverloadServerStats } from './overload-server.js';

const limit = soak ? 16 * 1048576 : 512 * 1024;
const stalled = soak ? 20 : 4;
const objectBytes = 32 * 1024;
const writes = Math.ceil((soak ? 16 * limit : 16 * 1048576) / objectBytes);
const path = '/api/v1/namespaces/default/configmaps';
const watchPath = `${path}?watch=1&fieldSelector=metadata.name%3Dbig`;

let server: OverloadServer;
let admin: ClientHttp2Session;
before(async () => {
  // A short history and cache window: what stays after the writes is what the watchers hold.
  // npm test resumes the stalled clients to read how their watch ended, before they would be dropped.
  server = await startOverloadServer({
    storage: 'memory', compactionWindowMs: 500, ...(soak ? {} : { maxWatchBacklogBytes: limit, stalledWatchLingerMs: 300_000 }),
  });
  admin = connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
});
after(async () => {
  admin.close();
  await server.stop();
});

/** One request over the admin session. */
function call(method: string, target: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const stream = admin.request({ ':method': method, ':path': target, 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' });
    let status = 0;
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => resolve({ status, text }));
    stream.on('error', reject);
    stream.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A watch response body: paused ones read nothing until `resume`. */
interface Watcher {
  /** Reads what is left; resolves with every line once the server ends the response. */
  resume(): Promise<string[]>;
  readonly closed: () => boolean;
  /** True once the response ended as a response ends, not cut off. */
  readonly complete: () => boolean;
  readonly lines: () => number;
  readonly destroy: () => void;
}

function watcher(body: Readable, paused: boolean, destroy: () => void): Watcher {
  let text = '';
  let closed = false;
  let complete = false;
  body.setEncoding('utf8');
  body.on('error', () => {});
  body.on('end', () => (complete = true));
  const ended = new Promise<string[]>((resolve) => body.on('close', () => {
    closed = true;
    resolve(text.split('\n').filter((l) => l !== ''));
  }));
  const read = (): void => void body.on('data', (c: string) => (text += c));
  if (paused) body.pause();
  else read();
  return {
    resume() {
      if (paused) {
        paused = false;
        read();
        body.resume();
      }
      return ended;
    },
    closed: () => closed,
    complete: () => complete,
    lines: () => text.split('\n').length - 1,
    destroy,
  };
}

function watchHttp1(paused: boolean): Promise<Watcher> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: watchPath, agent: false, ca: server.ca, cert: server.adminCert, key: server.adminKey },
      (res) => resolve(watcher(res, paused, () => req.destroy())));
    req.on('error', reject);
    req.end();
  });
}

async function watchHttp2(paused: boolean): Promise<Watcher> {
  // A session of its own, as a stalled client's connection would be.
  const session = connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
  session.on('error', () => {});
  const stream = session.request({ ':path': watchPath }, { endStream: true });
  await new Promise((r) => stream.once('response', r));
  stream.on('close', () => session.close());
  return watcher(stream, paused, () => session.destroy());
}

/** Memory the server's JavaScript holds, in V8's heap and in buffers outside it. */
const held = (s: OverloadServerStats): number => s.heapUsed + s.external;

test(`watchers that stop reading are cut off past ${mb(limit)} of events while ${mb(writes * objectBytes)} pass`, async (t) => {
  const created = await call('POST', path, { metadata: { name: 'big' }, data: { v: '' } });
  assert.equal(created.status, 201, created.text);
  const baseline = await server.stats();
  const http1 = (i: number): boolean => soak && i % 2 === 0;
  const slow = await Promise.all(Array.from({ length: stalled }, (_, i) => (http1(i) ? watchHttp1(true) : watchHttp2(true))));
  const reader = await watchHttp1(false);

  let peak = held(baseline);
  for (let i = 0; i < writes; i += 16) {
    const batch = Array.from({ length: Math.min(16, writes - i) }, (_, j) =>
      call('PATCH', `${path}/big`, { data: { v: String(i + j).padEnd(objectBytes, '.') } }));
    for (const r of await Promise.all(batch)) assert.equal(r.status, 200, r.text);
    if (soak && i % 512 === 0) peak = Math.max(peak, held(await server.stats()));
  }
  // The initial ADDED, then one MODIFIED per write.
  assert.ok(await until(async () => reader.lines() >= writes + 1, 15_000), `the reading watcher got every event (${reader.lines()} of ${writes + 1})`);
  reader.destroy();

  if (soak) {
    peak = Math.max(peak, held(await server.stats()));
    t.diagnostic(`slow watchers: ${mb(held(baseline))} before, ${mb(peak)} at most while ${mb(writes * objectBytes)} passed ${stalled} stalled watchers`);
    // Stalled watchers share the events they hold; without a limit they would hold all of them.
    assert.ok(peak - held(baseline) < 8 * limit, `the server's memory grew from ${mb(held(baseline))} to ${mb(peak)}`);
    // Each was cut off early in the writes; once its linger has passed, its client finds the response dropped.
    await new Promise((r) => setTimeout(r, 12_000));
    for (const w of slow) void w.resume();
    assert.ok(await until(async () => slow.every((w) => w.closed()), 20_000), 'the stalled responses end once read');
    assert.ok(slow.every((w) => !w.complete()), 'responses whose clients never read their end were dropped, not ended');
    return;
  }
  for (const [i, w] of slow.entries()) {
    const ended = w.resume();
    const kind = http1(i) ? 'HTTP/1.1' : 'HTTP/2';
    assert.ok(await until(async () => w.closed(), 15_000), `stalled watcher ${i} (${kind}) was never cut off: ${w.lines()} lines`);
    const lines = await ended;
    assert.ok(w.complete(), `stalled watcher ${i} (${kind}) was dropped before its client read it`);
    const last = JSON.parse(lines[lines.length - 1] ?? '{}') as { type?: string; object?: { code: number; reason: string } };
    assert.equal(last.type, 'ERROR', `stalled watcher ${i} (${kind}) ended after ${lines.length} lines without an ERROR`);
    assert.deepEqual([last.object?.code, last.object?.reason], [410, 'Expired']);
    assert.ok(lines.length - 1 < writes, 'the events it did not take were dropped');
  }
});
