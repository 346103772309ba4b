/**
 * Overload is shed and /livez stays fast: ten times as many clients as `--max-requests-inflight` (each its own
 * HTTP/1.1 connection, listing and creating ConfigMaps back to back, waiting out 429s as client-go does) load the
 * server while a probe opens a fresh TLS connection for every /livez, as a liveness probe does, and another asks on
 * one kept connection. Every probe is answered 200 quickly, and the excess load is refused with 429 TooManyRequests,
 * `Retry-After: 1` and a Status. "Quickly" is judged against this machine as it is during the run: the same probes
 * go at the same moments to a control, a bare HTTPS server in a process of its own, whose answers show what other
 * processes (test files run beside this one, the load itself) leave of the machine; the server's own event-loop
 * delay is reported beside. `npm test` runs 300 clients against limits of 30 and 15; `SVC_SOAK=1` runs 4,000
 * clients against kube's defaults of 400 and 200 on SQLite.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'node:https';
import type { LoadMessage, LoadOptions, LoadTally } from './overload-load.js';
import type { ControlOptions, ControlReady } from './overload-control.js';
import { percentile, soak, startOverloadServer, type OverloadServer } from './overload-support.js';
import { defaultFeatureGates } from '../feature-gates.js';

const readOnlyLimit = soak ? 400 : 30;
const mutatingLimit = soak ? 200 : 15;
const clients = 10 * readOnlyLimit;
const probeMs = soak ? 30_000 : 3_000;
const token = 'overload-load-token';

let server: OverloadServer;
let control: { child: ChildProcess; port: number };
before(async () => {
  server = await startOverloadServer({
    storage: soak ? 'sqlite' : 'memory',
    authorizationModes: ['AlwaysAllow'],
    tokens: `${token},loader,loader-uid,"loaders"\n`,
    // The limit measured here is the max-in-flight filter, kube-apiserver's while API Priority and Fairness is off
    // (with it on, one flow's excess waits in its queues before it is refused).
    featureGates: { ...defaultFeatureGates, APIPriorityAndFairness: false },
    maxRequestsInFlight: readOnlyLimit,
    maxMutatingRequestsInFlight: mutatingLimit,
  });
  control = await startControl({ cert: server.servingCert, key: server.servingKey });
});
after(async () => {
  control?.child.kill();
  await server.stop();
});

/** Forks the control server (see overload-control.ts) and waits for its port. */
function startControl(options: ControlOptions): Promise<{ child: ChildProcess; port: number }> {
  const here = import.meta.url;
  const entry = fileURLToPath(new URL(here.endsWith('.ts') ? './overload-control.ts' : './overload-control.js', here));
  const child = fork(entry, [JSON.stringify(options)], { execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: ControlReady) => resolve({ child, port: m.port }));
    child.once('exit', () => reject(new Error('the control process exited')));
  });
}

interface Probe {
  readonly status: number;
  readonly ms: number;
}

/** GET /livez as the admin, on a fresh connection (`agent` false) or a kept one; of the control at `port`. */
function livez(agent: Agent | false, port = server.port): Promise<Probe> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1', port, path: '/livez', agent,
      ...(agent === false ? { ca: server.ca, cert: server.adminCert, key: server.adminKey } : {}),
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? -1, ms: performance.now() - started }));
    });
    req.setTimeout(30_000, () => req.destroy());
    req.on('error', () => resolve({ status: -1, ms: performance.now() - started }));
    req.end();
  });
}

/** Sends one admin request and expects `code`. */
function admin(method: string, path: string, body: unknown, code: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: server.port, method, path, ca: server.ca, cert: server.adminCert, key: server.adminKey,
      headers: { 'content-type': 'application/json' },
    }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === code ? resolve() : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function startLoad(): { child: ChildProcess; running: Promise<void>; stop: () => Promise<LoadTally> } {
  const here = import.meta.url;
  const entry = fileURLToPath(new URL(here.endsWith('.ts') ? './overload-load.ts' : './overload-load.js', here));
  const options: LoadOptions = { url: server.url, ca: server.ca, token, clients, namespace: 'load' };
  const child = fork(entry, [JSON.stringify(options)], { execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const running = new Promise<void>((resolve, reject) => {
    child.on('message', (m: LoadMessage) => m.kind === 'running' && resolve());
    child.once('exit', () => reject(new Error('the load process exited')));
  });
  const stop = (): Promise<LoadTally> => new Promise((resolve) => {
    child.on('message', (m: LoadMessage) => m.kind === 'tally' && resolve(m.tally));
    child.send('stop');
  });
  return { child, running, stop };
}

test(`/livez under ${clients} clients against limits of ${readOnlyLimit} and ${mutatingLimit}: fast on fresh connections; the excess gets 429`, async (t) => {
  await admin('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'load' } }, 201);
  for (let i = 0; i < 100; i += 20) {
    await Promise.all(Array.from({ length: 20 }, (_, j) => admin('POST', '/api/v1/namespaces/load/configmaps',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `seed-${i + j}` }, data: { v: 'x'.repeat(200) } }, 201)));
  }
  // The same probes on the idle server: the machine's own speed before the load.
  const idle: Probe[] = [];
  for (let i = 0; i < 10; i++) idle.push(await livez(false));
  const idleP99 = Math.round(percentile(idle.map((x) => x.ms), 0.99));
  const load = startLoad();
  try {
    await load.running;
    const agent = (): Agent => new Agent({ keepAlive: true, maxSockets: 1, ca: server.ca, cert: server.adminCert, key: server.adminKey });
    const kept = agent();
    const controlKept = agent();
    const fresh: Promise<Probe>[] = [];
    const warm: Promise<Probe>[] = [];
    const controlProbes: Promise<Probe>[] = [];
    await server.stats();
    const end = Date.now() + probeMs;
    while (Date.now() < end) {
      fresh.push(livez(false));
      warm.push(livez(kept));
      controlProbes.push(livez(false, control.port), livez(controlKept, control.port));
      await new Promise((r) => setTimeout(r, 100));
    }
    const freshProbes = await Promise.all(fresh);
    const warmProbes = await Promise.all(warm);
    const controlled = await Promise.all(controlProbes);
    const loop = await server.stats();
    kept.destroy();
    controlKept.destroy();
    const tally = await load.stop();
    const p = (probes: Probe[], q: number): number => Math.round(percentile(probes.map((x) => x.ms), q));
    // The machine's speed during the run: the slower of the idle server before the load and the control beside it.
    const bound = 1000 + 3 * Math.max(idleP99, p(controlled, 0.99));
    const figures = `idle fresh p99 ${idleP99} ms; control during the load p50 ${p(controlled, 0.5)} ms p99 ${p(controlled, 0.99)} ms; `
      + `loaded: fresh p50 ${p(freshProbes, 0.5)} ms p99 ${p(freshProbes, 0.99)} ms, kept p50 ${p(warmProbes, 0.5)} ms p99 ${p(warmProbes, 0.99)} ms; `
      + `server event-loop delay p99 ${loop.loopDelayP99Ms} ms max ${loop.loopDelayMaxMs} ms; load answers ${JSON.stringify(tally.statuses)}`;
    t.diagnostic(`livez under ${clients} clients: ${figures}`);
    assert.ok(controlled.every((x) => x.status === 200), `the control answers: ${figures}`);

    assert.ok([...freshProbes, ...warmProbes].every((x) => x.status === 200), `every probe is answered 200: ${figures}`);
    assert.ok(p(freshProbes, 0.99) < bound, `/livez on fresh connections within ${bound} ms: ${figures}`);
    assert.ok(p(warmProbes, 0.99) < bound, `/livez on a kept connection within ${bound} ms: ${figures}`);
    assert.ok((tally.statuses['429'] ?? 0) > 0, `the excess load is refused: ${figures}`);
    assert.ok((tally.statuses['200'] ?? 0) > 0 && (tally.statuses['201'] ?? 0) > 0, `the load is served within the limits: ${figures}`);
    assert.equal(tally.tooMany?.retryAfter, '1');
    const status = JSON.parse(tally.tooMany?.body ?? '{}') as { kind?: string; reason?: string; code?: number; details?: { retryAfterSeconds?: number } };
    assert.deepEqual([status.kind, status.reason, status.code, status.details?.retryAfterSeconds], ['Status', 'TooManyRequests', 429, 1]);
  } finally {
    load.child.kill();
  }
});
