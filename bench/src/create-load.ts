/**
 * Creates of configmaps by many keep-alive HTTPS clients against a server child process, the load the admission
 * and audit benchmarks compare servers with.
 */
import { join } from 'node:path';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { serverEntry, startChild, type Child } from './support.js';

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
  if (!r.ok || r.value.status !== 201) throw new Error(`POST ${path}: ${r.ok ? `${r.value.status} ${r.value.body.toString()}` : r.status.message}`);
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
export async function startTarget(dir: string, flags: readonly string[], clients: number): Promise<{ child: Child; admin: RestClient; workers: RestClient[] }> {
  const started = await startChild([...serverEntry, `--data-dir=${dir}`, '--secure-port=0', '--bind-address=127.0.0.1', ...flags],
    /svc-apiserver: ready in (\d+(?:\.\d+)?)ms/);
  const conn = loadKubeconfig({ path: join(dir, 'admin.kubeconfig') });
  if (!conn.ok) throw new Error(conn.error);
  const admin = createClient(conn.value);
  await post(admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const workers = Array.from({ length: clients }, () => createClient(conn.value, { maxSockets: 1, timeoutMs: 30_000 }));
  return { child: started.child, admin, workers };
}

