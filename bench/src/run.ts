/**
 * The benchmark (`npm run bench`): creates, gets and lists of configmaps over HTTPS with 64 concurrent keep-alive
 * clients against a SQLite-backed server, each figure printed beside a baseline measured in the same run on the
 * same machine: a raw node:https server with the same TLS setup answering fixed bodies, and raw better-sqlite3
 * durable (WAL + synchronous=FULL) single-row commits and point selects. Loopback only, bounded in time.
 *
 * Flags: --seconds=<per phase, default 5> --clients=<64> --list-items=<1000> --lists=<40>
 * Then, each beside its own baseline: lists and watches at scale, etcd, authorization, admission and the expression
 * language (CRD rules and policies).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createClient, loadKubeconfig, type ConnectionConfig, type RestClient } from '@svc-apiserver/client';
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
import { fmt, percentile, startBenchModule } from './support.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' }, 'list-items': { type: 'string' }, lists: { type: 'string' } } });
const seconds = Number(values.seconds ?? '5');
const clients = Number(values.clients ?? '64');
const listItems = Number(values['list-items'] ?? '1000');
const lists = Number(values.lists ?? '40');

/** Files of the server's PKI in its data directory (see the server's pki module). */
const servingCertFile = 'serving.crt';
const servingKeyFile = 'serving.key';
const caCertFile = 'ca.crt';

interface LoadResult {
  readonly ops: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/** Runs `op` from `workers` concurrent loops for `ms`, or until `maxOps`; latencies in ms. */
async function load(workers: readonly RestClient[], ms: number, op: (client: RestClient, worker: number, i: number) => Promise<boolean>, maxOps = Infinity): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let started = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(workers.map(async (client, w) => {
    for (let i = 0; performance.now() < end && started < maxOps; i++) {
      started++;
      const t0 = performance.now();
      const ok = await op(client, w, i);
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  }));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { ops: latencies.length - errors, perSecond: (latencies.length - errors) / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

const json = { 'content-type': 'application/json', accept: 'application/json' };

function configMapBody(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(64) } });
}

interface TargetFigures {
  readonly creates: LoadResult;
  readonly gets: LoadResult;
  readonly list: { p50: number; p99: number };
}

/** The same request mix against one target. `workers` are 64 independent keep-alive clients. */
async function measure(workers: readonly RestClient[], setupClient: RestClient): Promise<TargetFigures> {
  // open every keep-alive connection first, so TLS handshakes are not counted as request time
  await Promise.all(workers.map((c) => c.raw({ method: 'GET', path: '/version', headers: { accept: 'application/json' } })));
  const created: string[][] = workers.map(() => []);
  const creates = await load(workers, seconds * 1000, async (c, w, i) => {
    const name = `cm-${w}-${i}`;
    const r = await c.raw({ method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: json, body: configMapBody(name) });
    const ok = r.ok && r.value.status === 201;
    if (ok) created[w]!.push(name);
    return ok;
  });
  const gets = await load(workers, seconds * 1000, async (c, w, i) => {
    const mine = created[w]!;
    const name = mine.length ? mine[i % mine.length] : 'cm-0-0';
    const r = await c.raw({ method: 'GET', path: `/api/v1/namespaces/bench/configmaps/${name}`, headers: { accept: 'application/json' } });
    return r.ok && r.value.status === 200;
  });
  // a namespace holding exactly `listItems` configmaps, filled by all workers together
  let next = 0;
  await load(workers, 120_000, async (c) => {
    const i = next++;
    if (i >= listItems) return true;
    const r = await c.raw({ method: 'POST', path: '/api/v1/namespaces/bench-list/configmaps', headers: json, body: configMapBody(`item-${i}`) });
    return r.ok && r.value.status === 201;
  }, listItems);
  const listLatencies: number[] = [];
  for (let i = 0; i < lists; i++) {
    const t0 = performance.now();
    const r = await setupClient.raw({ method: 'GET', path: '/api/v1/namespaces/bench-list/configmaps', headers: { accept: 'application/json' } });
    listLatencies.push(performance.now() - t0);
    if (!r.ok || r.value.status !== 200) throw new Error(`list failed: ${r.ok ? r.value.status : r.error.message}`);
  }
  listLatencies.sort((a, b) => a - b);
  return { creates, gets, list: { p50: percentile(listLatencies, 50), p99: percentile(listLatencies, 99) } };
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

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const open: RestClient[] = [];
  try {
    const t0 = performance.now();
    const api = await launchServer({ dataDir, storage: 'sqlite' });
    children.push(api);
    const spawnToReady = performance.now() - t0;
    const conn = loadKubeconfig({ path: api.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);

    const raw = await startBenchModule('raw-https-server',
      [`--cert=${join(dataDir, servingCertFile)}`, `--key=${join(dataDir, servingKeyFile)}`, `--ca=${join(dataDir, caCertFile)}`, `--list-items=${listItems}`],
      /raw-https: serving on (\d+)/,
    );
    children.push(raw.child);
    const rawConn: ConnectionConfig = { ...conn.value, server: `https://127.0.0.1:${raw.match[1]}` };

    const makeWorkers = (c: ConnectionConfig): RestClient[] => Array.from({ length: clients }, () => {
      const client = createClient(c, { maxSockets: 1, timeoutMs: 30_000 });
      open.push(client);
      return client;
    });
    const setup = createClient(conn.value);
    open.push(setup);
    for (const ns of ['bench', 'bench-list']) {
      const r = await setup.raw({ method: 'POST', path: '/api/v1/namespaces', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) });
      if (!r.ok || r.value.status !== 201) throw new Error(`namespace ${ns}: ${r.ok ? r.value.body.toString() : r.error.message}`);
    }
    const rawSetup = createClient(rawConn);
    open.push(rawSetup);

    process.stdout.write(`svc-apiserver bench: ${clients} HTTPS clients, ${seconds}s per phase, list of ${listItems}, loopback\n`);
    const baseline = await measure(makeWorkers(rawConn), rawSetup);
    const server = await measure(makeWorkers(conn.value), setup);
    const applyLines = await applyVersusPut(makeWorkers(conn.value), setup, seconds);
    const sqlite = rawSqlite(dataDir);

    const lines = [
      row('creates/s', fmt(server.creates.perSecond), 'raw node:https', fmt(baseline.creates.perSecond), fmt(server.creates.perSecond / baseline.creates.perSecond, 3)),
      row('creates/s', fmt(server.creates.perSecond), 'raw sqlite commits/s', fmt(sqlite.insertsPerSecond), fmt(server.creates.perSecond / sqlite.insertsPerSecond, 3)),
      row('create p50/p99 ms', `${fmt(server.creates.p50, 1)}/${fmt(server.creates.p99, 1)}`, 'raw node:https', `${fmt(baseline.creates.p50, 1)}/${fmt(baseline.creates.p99, 1)}`, fmt(server.creates.p99 / baseline.creates.p99, 2)),
      row('gets/s', fmt(server.gets.perSecond), 'raw node:https', fmt(baseline.gets.perSecond), fmt(server.gets.perSecond / baseline.gets.perSecond, 3)),
      row('gets/s', fmt(server.gets.perSecond), 'raw sqlite selects/s', fmt(sqlite.selectsPerSecond), fmt(server.gets.perSecond / sqlite.selectsPerSecond, 4)),
      row(`list(${listItems}) p50 ms`, fmt(server.list.p50, 1), 'raw node:https', fmt(baseline.list.p50, 1), fmt(server.list.p50 / baseline.list.p50, 2)),
      row(`list(${listItems}) p99 ms`, fmt(server.list.p99, 1), 'raw node:https', fmt(baseline.list.p99, 1), fmt(server.list.p99 / baseline.list.p99, 2)),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    process.stdout.write(`errors: creates ${server.creates.errors}, gets ${server.gets.errors}; baseline creates ${baseline.creates.errors}, gets ${baseline.gets.errors}\n`);
    process.stdout.write(`start to ready: ${api.readyMs}ms reported by the server, ${fmt(spawnToReady)}ms from spawn\n`);
    process.stdout.write(`${applyLines.join('\n')}\n`);
    process.stdout.write(`encoding (in-process, protobuf / JSON):\n${encodingBench().join('\n')}\n`);
  } finally {
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
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
process.stdout.write(`${(await testServerStartBench()).join('\n')}\n`);
