/**
 * Creates of configmaps by many keep-alive HTTPS clients against a server child process, the load the admission
 * and audit benchmarks compare servers with.
 */
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { fmt, percentile } from './support.js';

const json = { 'content-type': 'application/json', accept: 'application/json' };

/** One phase's raw counts. */
export interface Phase {
  readonly ops: number;
  readonly seconds: number;
  readonly errors: number;
  readonly latencies: number[];
}

/** POSTs `body`; anything but 201 throws. */
export async function post(client: RestClient, path: string, body: unknown): Promise<void> {
  const r = await client.raw({ method: 'POST', path, headers: json, body: JSON.stringify(body) });
  if (!r.ok || r.value.status !== 201) throw new Error(`POST ${path}: ${r.ok ? `${r.value.status} ${r.value.body.toString()}` : r.error.message}`);
}

/** Creates of configmaps from `workers` for `ms`; names carry `phase` so phases never collide. */
export async function creates(workers: readonly RestClient[], ms: number, phase: string): Promise<Phase> {
  await Promise.all(workers.map((c) => c.raw({ method: 'GET', path: '/version', headers: { accept: 'application/json' } })));
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(workers.map(async (c, w) => {
    for (let i = 0; performance.now() < end; i++) {
      const t0 = performance.now();
      const r = await c.raw({ method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: json,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${phase}-${w}-${i}` }, data: { k: 'v'.repeat(64) } }) });
      latencies.push(performance.now() - t0);
      if (!r.ok || r.value.status !== 201) errors++;
    }
  }));
  return { ops: latencies.length - errors, seconds: (performance.now() - start) / 1000, errors, latencies };
}

/** A server started with `flags`, its admin client and `clients` workers. */
export async function startTarget(dir: string, flags: readonly string[], clients: number): Promise<{ server: LaunchedServer; admin: RestClient; workers: RestClient[] }> {
  const server = await launchServer({ dataDir: dir, extraArgs: flags });
  const conn = loadKubeconfig({ path: server.kubeconfigPath });
  if (!conn.ok) throw new Error(conn.error);
  const admin = createClient(conn.value);
  await post(admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const workers = Array.from({ length: clients }, () => createClient(conn.value, { maxSockets: 1, timeoutMs: 30_000 }));
  return { server, admin, workers };
}

/** Creates/s and latencies of one server over a comparison. */
export interface Figures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

/**
 * Creates against each target's workers for `seconds` in all, in `rounds` interleaved rounds, so that drift of the
 * shared machine touches each server alike; the figures in the targets' order.
 */
export async function interleavedCreates(targets: readonly { readonly workers: readonly RestClient[] }[], seconds: number, rounds = 4): Promise<Figures[]> {
  const totals = targets.map(() => ({ ops: 0, seconds: 0, errors: 0, latencies: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, t] of targets.entries()) {
      const f = await creates(t.workers, (seconds * 1000) / rounds, `r${r}`);
      const total = totals[i]!;
      total.ops += f.ops;
      total.seconds += f.seconds;
      total.errors += f.errors;
      total.latencies.push(...f.latencies);
    }
  }
  return totals.map((t) => {
    const sorted = t.latencies.sort((a, b) => a - b);
    return { perSecond: t.ops / t.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: t.errors };
  });
}

/** One report line: creates/s, latencies and the ratio to `baseline`, with the goal when there is one. */
export function createsLine(label: string, f: Figures, baseline: Figures, goal?: number): string {
  return `${label.padEnd(28)}${fmt(f.perSecond).padStart(8)} creates/s (p50/p99 ${fmt(f.p50, 1)}/${fmt(f.p99, 1)} ms)   ratio ${fmt(f.perSecond / baseline.perSecond, 3)}` +
    (goal === undefined ? '' : ` (goal ≥ ${goal})`);
}
