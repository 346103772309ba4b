/**
 * The informer benchmark: time from start to synced for a shared informer over 10,000 configmaps (list then watch,
 * and WatchList), beside a raw list+watch of the same objects in the same run: one unpaged GET read with
 * node:https and JSON.parse, then a watch opened from the list's resourceVersion (until its headers arrive). Rounds
 * alternate between the three so drift on a shared machine hits all alike; the median of each is reported, and the
 * ratio is raw time ÷ informer time (goal ≥ 0.8×).
 * Run alone: `node bench/dist/informer.js [--objects=10000] [--rounds=5]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, createInformer, loadKubeconfig, type ConnectionConfig, type RestClient } from '@svc-apiserver/client';
import { launchServer } from '@svc-apiserver/testing/launch-server';
import { populate } from './list-watch.js';
import { fmt, isMain, percentile } from './support.js';

const namespace = 'bench-informer';

/** A raw list then a watch from its resourceVersion, as a hand-written client would do it. */
async function rawListWatch(conn: ConnectionConfig, agent: https.Agent): Promise<number> {
  const started = performance.now();
  const base = new URL(conn.server);
  const get = (path: string, whole: boolean): Promise<{ body: string; close: () => void }> => new Promise((resolve, reject) => {
    const req = https.request({ hostname: base.hostname, port: base.port, path, agent, headers: { accept: 'application/json' } }, (res) => {
      if (!whole) return resolve({ body: '', close: () => res.destroy() });
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8'), close: () => undefined }));
    });
    req.on('error', reject);
    req.end();
  });
  const list = JSON.parse((await get(`/api/v1/namespaces/${namespace}/configmaps`, true)).body) as { items: unknown[]; metadata: { resourceVersion: string } };
  const cache = new Map<string, unknown>();
  for (const o of list.items) cache.set((o as { metadata: { name: string } }).metadata.name, o);
  const watch = await get(`/api/v1/namespaces/${namespace}/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}&allowWatchBookmarks=true`, false);
  const ms = performance.now() - started;
  watch.close();
  if (cache.size === 0) throw new Error('the raw list returned nothing');
  return ms;
}

/** An informer from start to synced (its watch is open by then). */
async function informerSync(client: RestClient, watchList: boolean, expected: number): Promise<number> {
  const started = performance.now();
  const informer = createInformer(client, { group: '', version: 'v1', resource: 'configmaps', namespace }, { watchList });
  let adds = 0;
  informer.addEventHandler({ onAdd: () => adds++ });
  informer.start();
  await informer.waitForSync();
  const ms = performance.now() - started;
  await informer.stop();
  // the namespace also holds the root CA configmap the server publishes in every namespace
  if (adds < expected) throw new Error(`the informer delivered ${adds} adds, expected at least ${expected}`);
  return ms;
}

/** Runs the benchmark; returns the report lines. */
export async function informerBench(objects = 10_000, rounds = 5): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-informer-'));
  try {
    await populate(dataDir, { [namespace]: objects });
    const api = await launchServer({ dataDir, storage: 'sqlite', extraArgs: ['--feature-gates=WatchList=true'], readyTimeoutMs: 120_000 });
    try {
      const conn = loadKubeconfig({ path: api.kubeconfigPath });
      if (!conn.ok) throw new Error(conn.error);
      const c = conn.value;
      const agent = new https.Agent({ keepAlive: true, ...(c.ca ? { ca: c.ca } : {}), ...(c.cert ? { cert: c.cert } : {}), ...(c.key ? { key: c.key } : {}) });
      // both sides keep their connections between rounds
      const client = createClient(c);
      const raw: number[] = [];
      const paged: number[] = [];
      const watchList: number[] = [];
      // one warm-up of each, then interleaved rounds
      await rawListWatch(c, agent);
      await informerSync(client, false, objects);
      await informerSync(client, true, objects);
      for (let i = 0; i < rounds; i++) {
        raw.push(await rawListWatch(c, agent));
        paged.push(await informerSync(client, false, objects));
        watchList.push(await informerSync(client, true, objects));
      }
      agent.destroy();
      client.close();
      const median = (xs: number[]): number => percentile([...xs].sort((a, b) => a - b), 50);
      const rawMs = median(raw);
      const line = (label: string, ms: number): string =>
        `${label.padEnd(40)}${fmt(ms, 0).padStart(7)} ms   raw list+watch ${fmt(rawMs, 0).padStart(6)} ms   ratio ${fmt(rawMs / ms, 2).padStart(5)}x   goal >= 0.8x`;
      return [
        `informer sync of ${objects} configmaps (median of ${rounds} interleaved rounds):`,
        line('  informer, list + watch', median(paged)),
        line('  informer, WatchList', median(watchList)),
      ];
    } finally {
      await api.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { objects: { type: 'string' }, rounds: { type: 'string' } } });
  process.stdout.write(`${(await informerBench(Number(values.objects ?? '10000'), Number(values.rounds ?? '5'))).join('\n')}\n`);
}
