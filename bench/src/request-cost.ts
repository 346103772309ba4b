/**
 * What a request costs the server: CPU time per request, read from outside the server process (see server-cpu.ts)
 * around a fixed number of requests from the load generator, for creates, gets, lists of 1,000 and 3,000 objects,
 * PUT and server-side apply of the same 2 KB object, each beside the raw node:https server's CPU per GET or per POST
 * measured in the same run. Requests/s swing with whatever else the machine runs; the CPU a request takes hardly
 * does, so these figures compare builds and runs where rates cannot.
 *
 * `node bench/dist/request-cost.js [--rounds=<n, default 1>] [--scale=<request counts × this, default 1>]
 * [--cpu-prof=<dir>] [--top=<frames, default 15>]`: with `--cpu-prof` the server runs under node's `--cpu-prof`, and
 * after the run each phase's samples (its warm-up excluded) are summarized: the frames and files of the most self
 * time, the project's frames of the most total time, and a top-down text flame graph; the phases' time windows are
 * written beside the profile (`<profile>.phases.json`).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadKubeconfig } from '@svc-apiserver/client';
import { launchServer } from '@svc-apiserver/testing/launch-server';
import { repoRoot } from '@svc-apiserver/testing/node-child';
import { twoKilobyteConfigMap } from './apply.js';
import { flameGraph, monotonicMicros, summarizeProfile, type ProfileWindow } from './cpu-profile-summary.js';
import { pinServer, describeLayout } from './load/cpu-pinning.js';
import { startLoadGenerator, targetOf, type LoadGenerator, type LoadPlan } from './load/load-generator.js';
import { describeGenerator, expectOk, jsonHeaders, namespacePlan } from './load/phases.js';
import { processCpuMicros } from './server-cpu.js';
import { fmt, isMain, startBenchModule } from './support.js';

/** One measured phase: a plan sent `count` times (after a warm-up), on the server or on the raw baseline. */
interface Phase {
  readonly label: string;
  readonly plan: (round: number) => LoadPlan;
  readonly count: number;
  /** The raw baseline's phase of the same kind (its CPU per request is the ratio's denominator). */
  readonly baseline?: 'raw GET' | 'raw POST' | 'raw list(1000)';
  readonly raw?: boolean;
}

/** A small configmap's JSON (the requests benchmark's create body), its name a template. */
function smallConfigMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v'.repeat(64) } });
}

const applyNamespace = 'bench-apply';
const applyHeaders = { 'content-type': 'application/apply-patch+yaml', accept: 'application/json' };

function phases(scale: number): Phase[] {
  const n = (count: number): number => Math.max(1, Math.round(count * scale));
  const apply = `/api/v1/namespaces/${applyNamespace}/configmaps`;
  return [
    { label: 'raw GET', raw: true, count: n(20_000), plan: () => ({ method: 'GET', path: '/api/v1/namespaces/bench/configmaps/cm-1', headers: { accept: 'application/json' }, expect: 200 }) },
    { label: 'raw POST', raw: true, count: n(8_000), plan: () => ({ method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: jsonHeaders, body: smallConfigMap('cm-{n}'), expect: 201 }) },
    { label: 'raw list(1000)', raw: true, count: n(400), plan: () => ({ method: 'GET', path: '/api/v1/namespaces/bench/configmaps', headers: { accept: 'application/json' }, expect: 200 }) },
    { label: 'create', baseline: 'raw POST', count: n(6_000), plan: (r) => ({ method: 'POST', path: '/api/v1/namespaces/bench/configmaps', headers: jsonHeaders, body: smallConfigMap(`cm-${r}-{n}`), expect: 201 }) },
    // Gets of what the creates made: the first 6,000 names of the round, one per request, cycling.
    { label: 'get', baseline: 'raw GET', count: n(20_000), plan: (r) => ({ method: 'GET', path: `/api/v1/namespaces/bench/configmaps/cm-${r}-{k}`, headers: { accept: 'application/json' }, expect: 200, modulo: Array.from({ length: 64 }, () => n(6_000)) }) },
    { label: 'list(1000)', baseline: 'raw list(1000)', count: n(400), plan: () => ({ method: 'GET', path: '/api/v1/namespaces/bench-list-1000/configmaps', headers: { accept: 'application/json' }, expect: 200 }) },
    { label: 'list(3000)', count: n(200), plan: () => ({ method: 'GET', path: '/api/v1/namespaces/bench-list-3000/configmaps', headers: { accept: 'application/json' }, expect: 200 }) },
    { label: 'PUT 2 KB', baseline: 'raw POST', count: n(4_000), plan: () => ({ method: 'PUT', path: `${apply}/put-{c}?fieldManager=bench`, headers: jsonHeaders, body: JSON.stringify(twoKilobyteConfigMap('put-{c}', '{n}')), expect: 200 }) },
    { label: 'apply 2 KB', baseline: 'raw POST', count: n(4_000), plan: () => ({ method: 'PATCH', path: `${apply}/apply-{c}?fieldManager=bench`, headers: applyHeaders, body: JSON.stringify(twoKilobyteConfigMap('apply-{c}', '{n}')), expect: 200 }) },
  ];
}

/** What one phase measured. */
interface Measured {
  readonly label: string;
  readonly micros: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly window: ProfileWindow;
}

/** Runs a phase's warm-up, then its counted requests, reading the target's CPU around them. */
async function measure(load: LoadGenerator, pid: number | undefined, phase: Phase, round: number): Promise<Measured> {
  const plan = phase.plan(round);
  // The warm-up's own requests go to names the counted run does not use (`{n}` counts from 0 in each run).
  await load.run({ ...plan, count: Math.min(phase.count, 500), ...(plan.body === undefined ? {} : { body: plan.body.replace('{n}', 'warm-{n}') }) }, 30);
  const fromMicros = monotonicMicros();
  const before = processCpuMicros(pid);
  const result = expectOk(await load.run({ ...plan, count: phase.count }, 600), phase.label);
  const after = processCpuMicros(pid);
  const toMicros = monotonicMicros();
  const requests = result.ok + result.errors;
  return {
    label: phase.label,
    micros: (after - before) / requests,
    perSecond: result.perSecond, p50: result.p50, p99: result.p99, window: { fromMicros, toMicros },
  };
}

/** Fills namespace `ns` with `count` small configmaps. */
async function fill(load: LoadGenerator, ns: string, count: number): Promise<void> {
  expectOk(await load.run(namespacePlan(ns), 30), `namespace ${ns}`);
  expectOk(await load.run({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, headers: jsonHeaders, body: smallConfigMap('item-{n}'), expect: 201, count }, 300), `filling ${ns}`);
}

/** The benchmark; returns its report lines. */
export async function requestCostBench(options: { rounds?: number; scale?: number; cpuProfDir?: string; top?: number } = {}): Promise<string[]> {
  const rounds = options.rounds ?? 1;
  const all = phases(options.scale ?? 1);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-cost-'));
  const profDir = options.cpuProfDir === undefined ? undefined : resolve(options.cpuProfDir);
  const stops: (() => Promise<unknown>)[] = [];
  const measured: Measured[][] = [];
  try {
    const api = await launchServer({ dataDir, storage: 'sqlite', ...(profDir === undefined ? {} : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`] }) });
    stops.push(() => api.stop());
    pinServer(api.child.pid);
    const conn = loadKubeconfig({ path: api.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);
    const raw = await startBenchModule('raw-https-server',
      [`--cert=${join(dataDir, 'serving.crt')}`, `--key=${join(dataDir, 'serving.key')}`, `--ca=${join(dataDir, 'ca.crt')}`, '--list-items=1000'],
      /raw-https: serving on (\d+)/);
    stops.push(() => raw.child.stop());
    pinServer(raw.child.process.pid);

    const serverLoad = await startLoadGenerator(targetOf(conn.value), { connections: 64 });
    stops.push(() => serverLoad.close());
    const rawLoad = await startLoadGenerator({ ...targetOf(conn.value), port: Number(raw.match[1]) }, { connections: 64 });
    stops.push(() => rawLoad.close());

    expectOk(await serverLoad.run(namespacePlan('bench'), 30), 'namespace bench');
    await fill(serverLoad, 'bench-list-1000', 1000);
    await fill(serverLoad, 'bench-list-3000', 3000);
    // One object per connection for PUT and apply, each created the way it is then written (its manager owns its fields).
    expectOk(await serverLoad.run(namespacePlan(applyNamespace), 30), `namespace ${applyNamespace}`);
    const base = `/api/v1/namespaces/${applyNamespace}/configmaps`;
    expectOk(await serverLoad.run({ method: 'POST', path: `${base}?fieldManager=bench`, headers: jsonHeaders, body: JSON.stringify(twoKilobyteConfigMap('put-{n}', 0)), expect: 201, count: 64 }, 60), 'PUT objects');
    expectOk(await serverLoad.run({ method: 'PATCH', path: `${base}/apply-{n}?fieldManager=bench`, headers: applyHeaders, body: JSON.stringify(twoKilobyteConfigMap('apply-{n}', 0)), expect: 201, count: 64 }, 60), 'applied objects');

    for (let r = 0; r < rounds; r++) {
      const round: Measured[] = [];
      for (const phase of all) {
        round.push(await measure(phase.raw ? rawLoad : serverLoad, phase.raw ? raw.child.process.pid : api.child.pid, phase, r));
      }
      measured.push(round);
    }
    const lines = [
      `request cost: server CPU per request (all threads, from /proc) over a fixed number of requests, beside raw node:https in the same run; ${rounds} round${rounds === 1 ? '' : 's'}, median`,
      `${describeGenerator(serverLoad)}; ${describeLayout()}`,
    ];
    const median = (values: number[]): number => {
      const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
      return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
    };
    const micros = new Map(all.map((p, i) => [p.label, median(measured.map((round) => round[i]!.micros))]));
    for (const [i, phase] of all.entries()) {
      const m = micros.get(phase.label)!;
      const last = measured.at(-1)![i]!;
      lines.push(`${phase.label.padEnd(15)} ${fmt(m, 0).padStart(7)} µs CPU/request` +
        `${phase.baseline === undefined ? ''.padEnd(28) : `   ${phase.baseline.padEnd(15)}${fmt(m / micros.get(phase.baseline)!, 2).padStart(6)}×`}` +
        `   (last round ${fmt(last.perSecond).padStart(6)}/s, p50/p99 ${fmt(last.p50, 1)}/${fmt(last.p99, 1)} ms)`);
    }
    const apply = micros.get('apply 2 KB')!;
    const put = micros.get('PUT 2 KB')!;
    lines.push(`apply/PUT CPU per request ${fmt(apply / put, 2)} (throughput ratio bound: ${fmt(put / apply, 2)})`);
    await Promise.all(stops.splice(0).reverse().map((s) => s()));
    if (profDir !== undefined) {
      const profile = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(profDir, f)).sort().at(-1);
      if (profile === undefined) {
        lines.push(`no CPU profile was written in ${profDir}`);
      } else {
        lines.push(`server CPU profile ${profile}, last round, phase by phase:`);
        for (const m of measured.at(-1)!) {
          if (all.find((p) => p.label === m.label)?.raw === true) continue;
          lines.push(`${m.label}:`, ...summarizeProfile(profile, m.window, repoRoot, options.top), ...flameGraph(profile, m.window, repoRoot));
        }
        // The phases' windows beside the profile, to summarize it again later (cpu-profile-summary.ts's command line).
        writeFileSync(`${profile}.phases.json`, JSON.stringify(measured.at(-1)!.map((m) => ({ label: m.label, ...m.window }))));
      }
    }
    return lines;
  } finally {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { rounds: { type: 'string' }, scale: { type: 'string' }, 'cpu-prof': { type: 'string' }, top: { type: 'string' } } });
  process.stdout.write(`${(await requestCostBench({
    rounds: Number(values.rounds ?? '1'), scale: Number(values.scale ?? '1'), top: Number(values.top ?? '15'),
    ...(values['cpu-prof'] === undefined ? {} : { cpuProfDir: values['cpu-prof'] }),
  })).join('\n')}\n`);
}
