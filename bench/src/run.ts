/**
 * The benchmark (`npm run bench`): creates, gets and lists of configmaps over HTTPS with 64 concurrent keep-alive
 * connections against a SQLite-backed server, each figure printed beside a baseline measured in the same run on the
 * same machine: a raw node:https server with the same TLS setup answering fixed bodies, and raw better-sqlite3
 * durable (WAL + synchronous=FULL) single-row commits and point selects. Loopback only, bounded in time.
 *
 * The load comes from the load generator (load/load-generator.ts): worker processes apart from this one and from
 * the servers, pinned to their own core where `taskset` is present (servers on core 0, the generator on the
 * others), framing HTTP/1.1 over TLS by hand. Its raw node:https GET rate is printed first as a sanity line: a
 * generator that is never the bottleneck lets the raw server reach what one core can serve.
 *
 * Flags: --seconds=<per phase, default 5> --clients=<connections, 64> --list-items=<1000> --lists=<40>
 * --generator-processes=<1> --requests-only (stop after the requests, apply and encoding figures)
 * Then, each beside its own baseline: lists and watches at scale, etcd, authorization, admission and the expression
 * language (CRD rules and policies).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadKubeconfig } from '@svc-apiserver/client';
import { encodingBench } from './encoding.js';
import { applyVersusPut } from './apply.js';
import { listWatchBench } from './list-watch.js';
import { informerBench } from './informer.js';
import { etcdBench } from './etcd.js';
import { authzBench } from './authz.js';
import { launchServer } from '@svc-apiserver/testing/launch-server';
import { extensionsBench } from './extensions.js';
import { admissionBench } from './admission.js';
import { celBench } from './cel.js';
import { testServerStartBench } from './test-server-start.js';
import { serverStartBench } from './server-start.js';
import { fmt, startBenchModule } from './support.js';
import { describeLayout, pinServer } from './load/cpu-pinning.js';
import { startLoadGenerator, targetOf, type LoadGenerator, type LoadResult } from './load/load-generator.js';
import { describeGenerator, expectOk, jsonHeaders, namespacePlan } from './load/phases.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' }, clients: { type: 'string' }, 'list-items': { type: 'string' }, lists: { type: 'string' },
    'generator-processes': { type: 'string' }, 'requests-only': { type: 'boolean' },
  },
});
const seconds = Number(values.seconds ?? '5');
const clients = Number(values.clients ?? '64');
const listItems = Number(values['list-items'] ?? '1000');
const lists = Number(values.lists ?? '40');
const processes = Number(values['generator-processes'] ?? '1');

/** Files of the server's PKI in its data directory (see the server's pki module). */
const servingCertFile = 'serving.crt';
const servingKeyFile = 'serving.key';
const caCertFile = 'ca.crt';

/** A configmap's JSON, its name a template of the load generator. */
function configMapBody(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(64) } });
}

interface TargetFigures {
  readonly creates: LoadResult;
  readonly gets: LoadResult;
  readonly list: LoadResult;
}

/** Warm-up before each timed phase, on both targets alike: a freshly started server's request path gets compiled. */
const warmSeconds = Math.min(seconds, 2);

/** The same request mix against one target. */
async function measure(load: LoadGenerator): Promise<TargetFigures> {
  const createPlan = (prefix: string) => ({
    method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: jsonHeaders, body: configMapBody(`${prefix}-{c}-{i}`), expect: 201,
  });
  await load.run(createPlan('warm'), warmSeconds);
  const creates = await load.run(createPlan('cm'), seconds);
  // Each connection reads back what it created, round-robin.
  const getPlan = { method: 'GET', path: '/api/v1/namespaces/bench/configmaps/cm-{c}-{k}', headers: { accept: 'application/json' }, expect: 200, modulo: creates.perConnection };
  await load.run(getPlan, warmSeconds);
  const gets = await load.run(getPlan, seconds);
  // A namespace holding exactly `listItems` configmaps, filled by all connections together.
  expectOk(await load.run({ ...createPlan('item'), path: '/api/v1/namespaces/bench-list/configmaps', body: configMapBody('item-{n}'), count: listItems }, 120), 'filling the list');
  // Lists one after another, as one client reads them.
  const list = await load.run({ method: 'GET', path: '/api/v1/namespaces/bench-list/configmaps', headers: { accept: 'application/json' }, expect: 200, count: lists, connections: 1 }, 120);
  expectOk(list, 'lists');
  return { creates, gets, list };
}

/** Durable single-row commits and point selects straight on better-sqlite3, WAL + synchronous=FULL. */
function rawSqlite(dir: string): { insertsPerSecond: number; selectsPerSecond: number } {
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
  const select = db.prepare('SELECT value FROM kv WHERE key = ?');
  const value = Buffer.from(configMapBody('x'));
  let n = 0;
  let t0 = performance.now();
  const end = t0 + Math.min(seconds, 3) * 1000;
  while (performance.now() < end) insert.run(`/registry/configmaps/bench/cm-${n++}`, value);
  const insertsPerSecond = n / ((performance.now() - t0) / 1000);
  let m = 0;
  t0 = performance.now();
  const end2 = t0 + Math.min(seconds, 2) * 1000;
  while (performance.now() < end2) {
    select.get(`/registry/configmaps/bench/cm-${m % n}`);
    m++;
  }
  const selectsPerSecond = m / ((performance.now() - t0) / 1000);
  db.close();
  return { insertsPerSecond, selectsPerSecond };
}

function row(label: string, value: string, baseLabel: string, base: string, ratio: string): string {
  return `${label.padEnd(22)}${value.padStart(10)}   ${baseLabel.padEnd(24)}${base.padStart(10)}   ratio ${ratio}`;
}

const latency = (r: LoadResult): string => `${fmt(r.p50, 1)}/${fmt(r.p99, 1)}`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const generators: LoadGenerator[] = [];
  try {
    const t0 = performance.now();
    const api = await launchServer({ dataDir, storage: 'sqlite' });
    children.push(api);
    const spawnToReady = performance.now() - t0;
    pinServer(api.child.pid);
    const conn = loadKubeconfig({ path: api.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);

    const raw = await startBenchModule('raw-https-server',
      [`--cert=${join(dataDir, servingCertFile)}`, `--key=${join(dataDir, servingKeyFile)}`, `--ca=${join(dataDir, caCertFile)}`, `--list-items=${listItems}`],
      /raw-https: serving on (\d+)/,
    );
    children.push(raw.child);
    pinServer(raw.child.process.pid);
    const rawTarget = { ...targetOf(conn.value), port: Number(raw.match[1]) };

    const serverLoad = await startLoadGenerator(targetOf(conn.value), { connections: clients, processes });
    generators.push(serverLoad);
    for (const ns of ['bench', 'bench-list']) {
      expectOk(await serverLoad.run(namespacePlan(ns), 30), `namespace ${ns}`);
    }
    const rawLoad = await startLoadGenerator(rawTarget, { connections: clients, processes });
    generators.push(rawLoad);

    process.stdout.write(`svc-apiserver bench: ${clients} keep-alive HTTPS connections, ${seconds}s per phase after ${warmSeconds}s of warm-up, list of ${listItems}, loopback\n`);
    process.stdout.write(`${describeGenerator(serverLoad)}; ${describeLayout()}\n`);
    const baseline = await measure(rawLoad);
    const server = await measure(serverLoad);
    const applyLines = await applyVersusPut(serverLoad, seconds);
    const sqlite = rawSqlite(dataDir);

    const lines = [
      `sanity: raw node:https GETs/s ${fmt(baseline.gets.perSecond)} (p50/p99 ${latency(baseline.gets)} ms) beside 45000, what an idle 2-core machine of this kind serves; ` +
        `POSTs/s ${fmt(baseline.creates.perSecond)}; load generator busiest worker ${fmt(baseline.gets.clientBusy * 100)}% of a core, ${fmt(baseline.gets.clientMicrosPerRequest, 1)} µs of CPU per GET`,
      row('creates/s', fmt(server.creates.perSecond), 'raw node:https', fmt(baseline.creates.perSecond), fmt(server.creates.perSecond / baseline.creates.perSecond, 3)),
      row('creates/s', fmt(server.creates.perSecond), 'raw sqlite commits/s', fmt(sqlite.insertsPerSecond), fmt(server.creates.perSecond / sqlite.insertsPerSecond, 3)),
      row('create p50/p99 ms', latency(server.creates), 'raw node:https', latency(baseline.creates), fmt(server.creates.p99 / baseline.creates.p99, 2)),
      row('gets/s', fmt(server.gets.perSecond), 'raw node:https', fmt(baseline.gets.perSecond), fmt(server.gets.perSecond / baseline.gets.perSecond, 3)),
      row('gets/s', fmt(server.gets.perSecond), 'raw sqlite selects/s', fmt(sqlite.selectsPerSecond), fmt(server.gets.perSecond / sqlite.selectsPerSecond, 4)),
      row('get p50/p99 ms', latency(server.gets), 'raw node:https', latency(baseline.gets), fmt(server.gets.p99 / baseline.gets.p99, 2)),
      row(`list(${listItems}) p50 ms`, fmt(server.list.p50, 1), 'raw node:https', fmt(baseline.list.p50, 1), fmt(server.list.p50 / baseline.list.p50, 2)),
      row(`list(${listItems}) p99 ms`, fmt(server.list.p99, 1), 'raw node:https', fmt(baseline.list.p99, 1), fmt(server.list.p99 / baseline.list.p99, 2)),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    process.stdout.write(`errors: creates ${server.creates.errors}, gets ${server.gets.errors}; baseline creates ${baseline.creates.errors}, gets ${baseline.gets.errors}` +
      `${server.creates.firstError ?? server.gets.firstError ? ` (first: ${server.creates.firstError ?? server.gets.firstError})` : ''}\n`);
    process.stdout.write(`start to ready: ${api.readyMs}ms reported by the server, ${fmt(spawnToReady)}ms from spawn\n`);
    process.stdout.write(`${applyLines.join('\n')}\n`);
    process.stdout.write(`encoding (in-process, protobuf / JSON):\n${encodingBench().join('\n')}\n`);
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
if (values['requests-only'] !== true) await others();

/** The benchmarks after the requests, each beside its own baseline. */
async function others(): Promise<void> {
  // Lists and watches at scale, each beside its raw baseline (bench/src/list-watch.ts).
  process.stdout.write(`${(await listWatchBench()).join('\n')}\n`);
  // An informer syncing 10,000 configmaps beside a raw list+watch of them (bench/src/informer.ts).
  process.stdout.write(`${(await informerBench()).join('\n')}\n`);
  // The server on etcd beside raw etcd3 (bench/src/etcd.ts); skipped with a message when etcd is not installed.
  process.stdout.write(`${(await etcdBench(Math.min(seconds, 3), clients)).join('\n')}\n`);
  process.stdout.write(`${(await authzBench(Math.min(seconds, 3), clients)).join('\n')}\n`);
  // Custom resources beside ConfigMaps, and a request through an APIService proxy beside a direct one (bench/src/extensions.ts).
  process.stdout.write(`${(await extensionsBench(Math.min(seconds, 3), clients)).join('\n')}\n`);
  // Admission: creates with no plugins, the default set, and 1 and 3 no-op webhooks (bench/src/admission.ts).
  process.stdout.write(`${(await admissionBench(Math.min(seconds, 3), clients)).join('\n')}\n`);
  process.stdout.write(`${(await celBench(Math.min(seconds, 3), clients)).join('\n')}\n`);
  // Start to ready: the process (first start and restart) and the in-process test server (bench/src/server-start.ts, test-server-start.ts).
  process.stdout.write(`${(await serverStartBench()).join('\n')}\n`);
  process.stdout.write(`${(await testServerStartBench()).join('\n')}\n`);
}
