/**
 * Creates of configmaps by many keep-alive HTTPS connections (the load generator) against server child processes,
 * the load the admission, audit and expression-language benchmarks compare servers with.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, loadKubeconfig, type ConnectionConfig, type RestClient } from '@svc-apiserver/client';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { repoRoot } from '@svc-apiserver/testing/node-child';
import { monotonicMicros, summarizeProfile } from './cpu-profile-summary.js';
import { fmt } from './support.js';
import { pinServer } from './load/cpu-pinning.js';
import { startLoadGenerator, targetOf, type LoadGenerator, type LoadPlan } from './load/load-generator.js';
import { interleaved, jsonHeaders, latencies, type Figures } from './load/phases.js';

export type { Figures } from './load/phases.js';

/** POSTs `body`; anything but 201 throws. */
export async function post(client: RestClient, path: string, body: unknown): Promise<void> {
  const r = await client.raw({ method: 'POST', path, headers: jsonHeaders, body: JSON.stringify(body) });
  if (!r.ok || r.value.status !== 201) throw new Error(`POST ${path}: ${r.ok ? `${r.value.status} ${r.value.body.toString()}` : r.error.message}`);
}

/** A server under test: the process, its admin kubeconfig's connection and an admin client for setup. */
export interface Target {
  readonly server: LaunchedServer;
  readonly conn: ConnectionConfig;
  readonly admin: RestClient;
}

/**
 * A server started with `flags` (pinned to the servers' core), with namespace `bench`; with `cpuProfDir`, under
 * node's `--cpu-prof` writing its profile there when it stops ({@link profileLines}).
 */
export async function startTarget(dir: string, flags: readonly string[], cpuProfDir?: string): Promise<Target> {
  const server = await launchServer({
    dataDir: dir, extraArgs: flags, ...(cpuProfDir === undefined ? {} : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] }),
  });
  pinServer(server.child.pid);
  const conn = loadKubeconfig({ path: server.kubeconfigPath });
  if (!conn.ok) throw new Error(conn.error);
  const admin = createClient(conn.value);
  await post(admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  return { server, conn: conn.value, admin };
}

/** A load generator of `clients` connections to a target as its admin. */
export function loadFor(target: Pick<Target, 'conn'>, clients: number): Promise<LoadGenerator> {
  return startLoadGenerator(targetOf(target.conn), { connections: clients });
}

/** Creates of `object(name)` (its JSON) at `path`; names carry `phase` so phases never collide. */
export function createPlan(path: string, phase: string, object: (name: string) => unknown): LoadPlan {
  return { method: 'POST', path, headers: jsonHeaders, body: JSON.stringify(object(`${phase}-{c}-{i}`)), expect: 201 };
}

/** A configmap of 64 bytes of data. */
export const configMap = (name: string): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(64) } });

/**
 * The summary of the profile a server started with `cpuProfDir` wrote when it stopped, over its busy samples
 * between `fromMicros` and now (the measured rounds: the other servers' rounds are idle time here and left out).
 */
export function profileLines(label: string, cpuProfDir: string, fromMicros: number, top = 12): string[] {
  const profile = readdirSync(cpuProfDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(cpuProfDir, f)).sort().at(-1);
  if (profile === undefined) return [`${label}: no CPU profile was written in ${cpuProfDir}`];
  return [`${label} (${profile}):`, ...summarizeProfile(profile, { fromMicros, toMicros: monotonicMicros() }, repoRoot, top)];
}

/**
 * Creates of configmaps against each load's server for `seconds` in all, in interleaved rounds (after a round of
 * warm-up each), so that drift of the shared machine touches each server alike; the figures in the loads' order.
 */
export async function interleavedCreates(loads: readonly LoadGenerator[], seconds: number): Promise<Figures[]> {
  const plan = (phase: string): LoadPlan => createPlan('/api/v1/namespaces/bench/configmaps', phase, configMap);
  for (const load of loads) await load.run(plan('warm'), Math.min(seconds, 2));
  return interleaved(loads, seconds, (load, round, s) => load.run(plan(`r${round}`), s));
}

/** One report line: creates/s, latencies and the ratio to `baseline`, with the goal when there is one. */
export function createsLine(label: string, f: Figures, baseline: Figures, goal?: number): string {
  return `${label.padEnd(28)}${fmt(f.perSecond).padStart(8)} creates/s (p50/p99 ${latencies(f)} ms)   ratio ${fmt(f.perSecond / baseline.perSecond, 3)}` +
    (goal === undefined ? '' : ` (goal ≥ ${goal})`);
}
