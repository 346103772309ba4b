/**
 * The API server on etcd beside raw etcd, in the same run on the same one-member etcd: 64 keep-alive HTTPS
 * connections of the load generator creating and getting configmaps through a server started with `--etcd-servers`
 * (pinned to the servers' core; etcd is not pinned: it takes what the two processes leave), and 64 concurrent raw `etcd3`
 * create transactions (put if the key does not exist, as the etcd Backend writes) and gets on the same etcd.
 * Prints each rate with its ratio to the raw one. Loopback only, bounded in time; skipped with a message when no
 * etcd binary is installed. Runs alone with `node bench/dist/etcd.js [--seconds=3] [--warm-seconds=5] [--clients=64]`.
 *
 * Both sides are measured in steady state: each timed phase follows a warm-up of the same operations, long enough
 * for a freshly started server's request path to be JIT-compiled (a few thousand requests). The raw side writes
 * documents of the size the server stores (a created configmap with its server-set metadata), so both sides put the
 * same bytes into etcd.
 *
 * A third figure bounds what any server written for Node could reach here: node:https in front of etcd3 with no API
 * work (bench/src/raw-https-server.ts with `--etcd`), creating the same documents with the same transaction over the
 * same kind of keep-alive HTTPS clients. On a small machine the benchmark's clients, the server and etcd share the
 * cores, so this ceiling can sit well below the raw etcd3 rate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Etcd3 } from 'etcd3';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { pinServer } from './load/cpu-pinning.js';
import { startLoadGenerator, targetOf, type LoadGenerator, type LoadPlan, type LoadResult } from './load/load-generator.js';
import { jsonHeaders, latencies } from './load/phases.js';
import { findEtcdBinary, startEtcdCluster, type EtcdTestCluster } from '@svc-apiserver/testing/etcd-test-cluster';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import type { NodeChild } from '@svc-apiserver/testing/node-child';
import { fmt, isMain, percentile, startBenchModule } from './support.js';

/** Throughput and latency of one phase. */
type Phase = Pick<LoadResult, 'perSecond' | 'p50' | 'p99' | 'errors'>;

/**
 * Runs `op` from `workers` concurrent loops for `ms`, after `warmMs` of the same loops that are not counted: both
 * sides are measured warm (JIT-compiled, connections and streams open), so neither figure is a start-up figure.
 * `op` gets a negative `i` during the warm-up, so it can keep warm-up objects apart from measured ones.
 */
async function phase(workers: number, ms: number, op: (w: number, i: number) => Promise<boolean>, warmMs = 0): Promise<Phase> {
  if (warmMs > 0) {
    const until = performance.now() + warmMs;
    await Promise.all(Array.from({ length: workers }, async (_, w) => {
      for (let i = -1; performance.now() < until; i--) await op(w, i).catch(() => false);
    }));
  }
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; performance.now() < end; i++) {
      const t0 = performance.now();
      let ok = false;
      try {
        ok = await op(w, i);
      } catch {
        ok = false;
      }
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  }));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: (latencies.length - errors) / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

const json = { 'content-type': 'application/json', accept: 'application/json' };
const body = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(64) } });

/** A load generator phase after `warmMs` of the same plan. */
async function generated(load: LoadGenerator, plan: (warm: boolean) => LoadPlan, ms: number, warmMs: number): Promise<LoadResult> {
  if (warmMs > 0) await load.run(plan(true), warmMs / 1000);
  return load.run(plan(false), ms / 1000);
}

function row(label: string, server: Phase, rawLabel: string, raw: Phase): string {
  const lat = (p: Phase) => `${latencies(p)} ms`;
  return `${label.padEnd(22)}${fmt(server.perSecond).padStart(8)} (${lat(server)})   ${rawLabel.padEnd(24)}${fmt(raw.perSecond).padStart(8)} (${lat(raw)})   ratio ${fmt(server.perSecond / raw.perSecond, 3)}`;
}

/** Runs the etcd bench (`seconds` per phase, four phases) and returns its report lines. */
export async function etcdBench(seconds = 3, clients = 64, warmSeconds = 5): Promise<string[]> {
  const binary = findEtcdBinary();
  if (binary === undefined) return ['etcd: skipped (no etcd binary on PATH or in /usr/bin; install etcd-server to measure the server on etcd)'];
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-etcd-'));
  let cluster: EtcdTestCluster | undefined;
  let server: LaunchedServer | undefined;
  let proxy: NodeChild | undefined;
  let raw: Etcd3 | undefined;
  const open: RestClient[] = [];
  const generators: LoadGenerator[] = [];
  try {
    cluster = await startEtcdCluster({ binary, members: 1 });
    const endpoint = cluster.endpoints[0]!;
    server = await launchServer({ dataDir, extraArgs: [`--etcd-servers=${endpoint}`] });
    pinServer(server.child.pid);
    const conn = loadKubeconfig({ path: server.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);
    const setup = createClient(conn.value);
    open.push(setup);
    const ns = await setup.raw({ method: 'POST', path: '/api/v1/namespaces', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } }) });
    if (!ns.ok || ns.value.status !== 201) throw new Error(`namespace bench: ${ns.ok ? ns.value.body.toString() : ns.error.message}`);
    // Every keep-alive connection is open before timing, so TLS handshakes are not counted.
    const load = await startLoadGenerator(targetOf(conn.value), { connections: clients });
    generators.push(load);
    raw = new Etcd3({ hosts: [endpoint] });
    await raw.get('/bench-raw/warm-up').string();
    const ms = seconds * 1000;
    // The same operations before each timed phase, on both sides alike.
    const warmMs = warmSeconds * 1000;
    /** The name of a worker's `i`th object; warm-up objects (negative `i`) have names of their own. */
    const nameOf = (w: number, i: number): string => (i < 0 ? `warm-${w}-${-i}` : `cm-${w}-${i}`);
    /** The `i`th of `mine` round-robin, for the warm-up too. */
    const pick = <T>(mine: readonly T[], i: number): T | undefined => mine[Math.abs(i) % Math.max(mine.length, 1)];

    const createPlan = (warm: boolean): LoadPlan => ({ method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: jsonHeaders, body: body(warm ? 'warm-{c}-{i}' : 'cm-{c}-{i}'), expect: 201 });
    const serverCreates = await generated(load, createPlan, ms, warmMs);
    // The raw side stores a document as large as the one the server stored, with the etcd Backend's create
    // transaction: the server's copy of one created configmap (less its resourceVersion, which etcd's revision is).
    const sample = await setup.raw({ method: 'GET', path: '/api/v1/namespaces/bench/configmaps/cm-0-0', headers: { accept: 'application/json' } });
    if (!sample.ok || sample.value.status !== 200) throw new Error('could not read back a created configmap');
    const stored = JSON.parse(sample.value.body.toString()) as { metadata: Record<string, unknown> };
    delete stored.metadata['resourceVersion'];
    const storedBody = (name: string): string => JSON.stringify({ ...stored, metadata: { ...stored.metadata, name } });
    const rawWorkers = clients;
    const rawKeys: string[][] = Array.from({ length: rawWorkers }, () => []);
    const etcd = raw;
    const rawCreates = await phase(rawWorkers, ms, async (w, i) => {
      const key = `/bench-raw/configmaps/bench/${nameOf(w, i)}`;
      const r = await etcd.if(key, 'Create', '==', 0).then(etcd.put(key).value(storedBody(nameOf(w, i)))).commit();
      if (r.succeeded && i >= 0) rawKeys[w]!.push(key);
      return r.succeeded;
    }, warmMs);
    // node:https + etcd3 and nothing else, with the server's certificates, over as many keep-alive clients.
    const proxyStarted = await startBenchModule('raw-https-server', [
      `--cert=${join(dataDir, 'serving.crt')}`, `--key=${join(dataDir, 'serving.key')}`, `--ca=${join(dataDir, 'ca.crt')}`, `--etcd=${endpoint}`,
    ], /raw-https: serving on (\d+)/);
    proxy = proxyStarted.child;
    pinServer(proxy.process.pid);
    const proxyLoad = await startLoadGenerator({ ...targetOf(conn.value), port: Number(proxyStarted.match[1]) }, { connections: clients });
    const proxyCreates = await generated(proxyLoad, (warm) => ({
      method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: jsonHeaders, body: storedBody(warm ? 'warm-{c}-{i}' : 'cm-{c}-{i}'), expect: 201,
    }), ms, warmMs);
    await proxyLoad.close();
    await proxy.stop();
    proxy = undefined;
    // Each connection reads back what it created, round-robin.
    const serverGets = await generated(load, () => ({
      method: 'GET', path: '/api/v1/namespaces/bench/configmaps/cm-{c}-{k}', headers: { accept: 'application/json' }, expect: 200, modulo: serverCreates.perConnection,
    }), ms, warmMs);
    const rawGets = await phase(clients, ms, async (w, i) => {
      const value = await etcd.get(pick(rawKeys[w]!, i) ?? '/bench-raw/none').string();
      return value !== null;
    }, warmMs);
    return [
      `etcd (1 member, loopback): ${clients} connections of the load generator (raw etcd3: as many concurrent calls), ${seconds}s per phase after ${warmMs / 1000}s of warm-up`,
      row('server creates/s', serverCreates, 'raw etcd3 create txns/s', rawCreates),
      row('server gets/s', serverGets, 'raw etcd3 gets/s', rawGets),
      row('https+etcd3 creates/s', proxyCreates, 'raw etcd3 create txns/s', rawCreates),
      `server creates / https+etcd3 creates: ratio ${fmt(serverCreates.perSecond / proxyCreates.perSecond, 3)} (https+etcd3 does no API work: with clients, server and etcd on the same cores, it bounds what a server reaches)`,
      `errors: server creates ${serverCreates.errors}, gets ${serverGets.errors}; raw creates ${rawCreates.errors}, gets ${rawGets.errors}; https+etcd3 creates ${proxyCreates.errors}`,
    ];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of open) c.close();
    raw?.close();
    await proxy?.stop();
    await server?.stop();
    await cluster?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, 'warm-seconds': { type: 'string' }, clients: { type: 'string' } } });
  const lines = await etcdBench(Number(values.seconds ?? '3'), Number(values.clients ?? '64'), Number(values['warm-seconds'] ?? '5'));
  process.stdout.write(`${lines.join('\n')}\n`);
}
