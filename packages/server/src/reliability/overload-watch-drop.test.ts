/**
 * Watches opened and dropped abruptly leave nothing behind: over HTTP/1.1 (the client destroys its sockets), over
 * HTTP/2 (the client destroys its session, or resets every stream), round after round, the server's connections
 * and watch timers go back to where they were, its heap after a collection comes back near its baseline, and its
 * RSS stops climbing. `npm test` runs 150 watches a round; `SVC_SOAK=1` runs 2,000 watches, five rounds per mode.
 */
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { request } from 'node:https';
import { connect, constants, type ClientHttp2Stream } from 'node:http2';
import type { ClientRequest } from 'node:http';
import { mb, soak, startOverloadServer, until, type OverloadServer } from './overload-support.js';
import type { OverloadServerStats } from './overload-server.js';

const watches = soak ? 2000 : 150;
const rounds = soak ? 5 : 2;
const path = '/api/v1/namespaces/default/configmaps?watch=1';

let server: OverloadServer;
let baseline: OverloadServerStats;
before(async () => {
  server = await startOverloadServer({ storage: 'memory' });
  baseline = await server.stats();
});
after(() => server.stop());

/** Opens `watches` HTTP/1.1 watches, each on its own connection, once their headers came. */
async function openHttp1(): Promise<ClientRequest[]> {
  return Promise.all(Array.from({ length: watches }, () => new Promise<ClientRequest>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: server.port, path, agent: false, ca: server.ca, cert: server.adminCert, key: server.adminKey,
    }, (res) => {
      res.on('data', () => {});
      res.on('error', () => {});
      if (res.statusCode === 200) resolve(req);
      else reject(new Error(`watch answered ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end();
  })));
}

/** Opens `watches` HTTP/2 watches on one connection. */
async function openHttp2() {
  const session = connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
  session.on('error', () => {});
  const streams = await Promise.all(Array.from({ length: watches }, () => new Promise<ClientHttp2Stream>((resolve, reject) => {
    const stream = session.request({ ':path': path });
    stream.on('data', () => {});
    stream.on('error', () => {});
    stream.on('response', (headers) => (headers[':status'] === 200 ? resolve(stream) : reject(new Error(`watch answered ${headers[':status']}`))));
  })));
  return { session, streams };
}

/** Runs the rounds of one way of dropping watches; every round must leave the server as it found it. */
async function dropRounds(t: TestContext, mode: string, openAndDrop: () => Promise<void>): Promise<void> {
  const rss: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    await openAndDrop();
    let last = await server.stats();
    // The HTTP/2 session liveness check may need its PING timeout (10 s) to end a session nghttp2 stopped reading;
    // connections closing and their buffers freed take a moment too.
    const settled = await until(async () => {
      last = await server.stats();
      return last.sockets <= baseline.sockets && last.timers <= baseline.timers + 10 && last.heapUsed < baseline.heapUsed + 16 * 1048576;
    }, 20_000, 200);
    assert.ok(settled, `${mode} round ${round}: ${last.sockets} connections (baseline ${baseline.sockets}), ${last.timers} timers `
      + `(baseline ${baseline.timers}) and a heap of ${mb(last.heapUsed)} after collection (baseline ${mb(baseline.heapUsed)}) `
      + 'stay after the watches were dropped');
    rss.push(last.rss);
  }
  t.diagnostic(`${mode}: RSS after each round ${rss.map(mb).join(', ')} (baseline ${mb(baseline.rss)})`);
  if (soak) {
    // A watch left behind per drop would add tens of MB per round; what the allocator keeps from the first rounds
    // must stop growing.
    assert.ok(rss[rss.length - 1]! - rss[2]! < 40 * 1048576, `${mode}: RSS keeps climbing: ${rss.map(mb).join(', ')}`);
  }
}

test(`${watches} HTTP/1.1 watches whose client destroys the connections, ${rounds} rounds`, async (t) => {
  await dropRounds(t, 'HTTP/1.1', async () => {
    const reqs = await openHttp1();
    for (const r of reqs) r.destroy();
  });
});

test(`${watches} HTTP/2 watches whose client destroys the session, ${rounds} rounds`, async (t) => {
  await dropRounds(t, 'HTTP/2 session', async () => {
    const { session } = await openHttp2();
    session.destroy();
  });
});

test(`${watches} HTTP/2 watches whose client resets every stream, ${rounds} rounds`, async (t) => {
  await dropRounds(t, 'HTTP/2 streams', async () => {
    const { session, streams } = await openHttp2();
    for (const s of streams) s.close(constants.NGHTTP2_CANCEL);
    await new Promise((r) => setTimeout(r, 200));
    session.destroy();
  });
});
