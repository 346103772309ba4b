/**
 * Overload with API Priority and Fairness: a server child with its default limits, a user of the global-default
 * priority level (an administrator impersonating `bench-user`) reading a configmap
 *
 * 1. closed-loop from 64 concurrent HTTP/2 streams for a moment: the server's capacity C for that request, in
 *    requests/s (its sustainable rate, what the server serves while it is saturated);
 * 2. open-loop at 10 × C over HTTP/2 for a few seconds, while a probe reads /livez (anonymous, the probes
 *    FlowSchema) and an administrator (exempt) reads the same configmap every 20 ms;
 * 3. the baseline: the same flood against node:http2 answering every request 429 and doing nothing else
 *    (raw-http2-refusal-server.ts, on the server's core), the least a refusal costs any Node server.
 *
 * Figures and goals: the excess answered 429 within 100 ms (p99 of the 429s), /livez p99 ≤ 100 ms, the exempt
 * GET's p99 ≤ 3 × its idle p99.
 *
 * What is measured, and why so. The load comes from a process of its own (overload-flood.ts), pinned to the
 * generator's cores apart from the server's (see load/cpu-pinning.ts): run inside this process, as it once was,
 * its sends and the answers it reads waited behind this process's own work, its CPU could not be told apart, and a
 * session error ended the whole run. The flood is an open loop (requests go out on schedule whatever comes back, as
 * many independent clients send); a request's latency runs from the moment the generator hands it to its HTTP/2
 * session, and how late the generator was against its schedule is printed apart, with the generator's CPU: when
 * the generator uses its whole core, the offered rate was not offered and the latencies include the generator's
 * own queue, so the figures say so rather than blame the server. The probes run on a thread of this process, which
 * does nothing else during the flood. Printed beside the figures: the server's CPU time per flood request (what a
 * refusal costs: at 10 × C it must be under a tenth of what serving costs), and the load average.
 *
 * Flags: --seconds=<overload phase, default 3> --clients=<64> --cpu-prof=<dir: the server runs under node's
 * --cpu-prof, and the flood's window of its profile is summarized>
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { repoRoot } from '@svc-apiserver/testing/node-child';
import { fmt, isMain, percentile, sleep, startBenchModule } from './support.js';
import { post, startTarget } from './create-load.js';
import { cpuLayout, describeLayout, pinProcess } from './load/cpu-pinning.js';
import { monotonicMicros, summarizeProfile, type ProfileWindow } from './cpu-profile-summary.js';
import type { Sample } from './overload-requests.js';
import type { ProbeCommand, ProbeData, ProbeSamples } from './overload-probe.js';
import type { FloodCommand, FloodOptions, FloodReply, GeneratorCost } from './overload-flood.js';

const rbac = 'rbac.authorization.svc.io';
const target = '/api/v1/namespaces/bench/configmaps/target';

const sorted = (ms: readonly number[]): number[] => [...ms].sort((a, b) => a - b);
const p99 = (samples: readonly Sample[]): number => percentile(sorted(samples.map((s) => s.ms)), 99);

/** CPU time process `pid` has used, in ms, from /proc (undefined where there is none). */
function processCpuMs(pid: number | undefined): number | undefined {
  try {
    // Fields 14 and 15 after the command (which may hold spaces, so counted from its closing parenthesis): user and
    // system time in clock ticks, 100 a second on Linux.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The compiled or source sibling module `name` of this one. */
function sibling(name: string): URL {
  return new URL(import.meta.url.endsWith('.ts') ? `./${name}.ts` : `./${name}.js`, import.meta.url);
}

/** The probe thread (overload-probe.ts). */
interface Probes {
  start(): void;
  /** The samples since the start. */
  stop(): Promise<ProbeSamples>;
  close(): Promise<unknown>;
}

function startProbes(data: ProbeData): Probes {
  const worker = new Worker(sibling('overload-probe'), { workerData: data });
  const send = (m: ProbeCommand): void => worker.postMessage(m);
  return {
    start: () => send({ type: 'start' }),
    stop: () => new Promise((done) => {
      worker.once('message', done);
      send({ type: 'stop' });
    }),
    close() {
      const exited = new Promise((done) => worker.once('exit', done));
      send({ type: 'close' });
      return exited;
    },
  };
}

/** The generator process (overload-flood.ts) of one server, pinned to the generator's cores. */
interface Generator {
  readonly child: ChildProcess;
  ask<K extends Exclude<FloodCommand['type'], 'close'>>(command: Extract<FloodCommand, { type: K }>): Promise<Extract<FloodReply, { type: K }>>;
  close(): void;
}

async function startGenerator(options: FloodOptions, cpus: string | undefined): Promise<Generator> {
  const entry = fileURLToPath(sibling('overload-flood'));
  const child = fork(entry, [JSON.stringify(options)], {
    execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the load generator exited with ${code}`)));
  });
  pinProcess(child.pid, cpus);
  return {
    child,
    ask: (command) => new Promise((resolve, reject) => {
      const { type, seconds } = command as Exclude<FloodCommand, { type: 'close' }>;
      const gone = (code: number | null): void => reject(new Error(`the load generator exited with ${code}`));
      // Every answer comes within 30 s of its request (overload-requests.ts): a command that takes much longer is a
      // fault, reported rather than waited for.
      const limit = setTimeout(() => {
        child.kill();
        reject(new Error(`the load generator did not answer ${type} within ${seconds + 90} s`));
      }, (seconds + 90) * 1000);
      child.once('exit', gone);
      child.once('message', (m: FloodReply) => {
        clearTimeout(limit);
        child.off('exit', gone);
        resolve(m as never);
      });
      child.send(command);
    }),
    close() {
      if (child.exitCode === null) child.send({ type: 'close' } satisfies FloodCommand);
    },
  };
}

/** What an open-loop flood got back, with the server's CPU time over it. */
type Flood = Extract<FloodReply, { type: 'flood' }> & {
  readonly serverCpuMicros: number | undefined;
  /**
   * The share of its core the server used from the flood's start to its last answer. Well under 1 while answers
   * came late means they waited outside the server: in the generator, which read them late.
   */
  readonly serverBusy: number | undefined;
};

async function flood(generator: Generator, rate: number, seconds: number, headers: Record<string, string>, serverPid: number | undefined): Promise<Flood> {
  const before = processCpuMs(serverPid);
  const started = performance.now();
  const reply = await generator.ask({ type: 'flood', path: target, headers, rate, seconds });
  const wallMs = performance.now() - started;
  const after = processCpuMs(serverPid);
  const answers = Object.values(reply.latencies).reduce((n, l) => n + l.length, 0);
  return {
    ...reply, serverCpuMicros: cpuPerRequest(before, after, answers),
    serverBusy: before === undefined || after === undefined ? undefined : (after - before) / wallMs,
  };
}

/** CPU µs per request between two readings of {@link processCpuMs}. */
function cpuPerRequest(before: number | undefined, after: number | undefined, requests: number): number | undefined {
  return before === undefined || after === undefined || requests === 0 ? undefined : ((after - before) * 1000) / requests;
}

const latencies = (ms: readonly number[]): string => {
  const s = sorted(ms);
  return `${fmt(percentile(s, 50), 1)}/${fmt(percentile(s, 99), 1)}`;
};

/** The generator's cost in words: CPU as a share of its core, event-loop use and schedule lag. */
const generatorWords = (cost: GeneratorCost, f?: Pick<Flood, 'lagP50' | 'lagP99'>): string =>
  `generator CPU ${fmt((cost.cpuMs / cost.wallMs) * 100)}% of a core, event loop ${fmt(cost.busy * 100)}% busy` +
  (f === undefined ? '' : `, sends ${fmt(f.lagP50, 1)}/${fmt(f.lagP99, 1)} ms behind schedule p50/p99`) +
  `${cost.cpuMs / cost.wallMs > 0.9 ? ' — the generator is saturated: the figures include its own queue' : ''}`;

/** The outcomes other than 200 and 429, requests not sent and sessions opened, in words ('' when none). */
function outcomeWords(f: Pick<Flood, 'outcomes' | 'notSent' | 'sessionsOpened'>): string {
  const others = Object.entries(f.outcomes).filter(([o]) => o !== '200' && o !== '429').sort(([, a], [, b]) => b - a);
  const parts = [
    ...others.map(([o, n]) => `${n} ${o}`),
    ...(f.notSent > 0 ? [`${f.notSent} not sent (counted in none of the figures)`] : []),
    ...(f.sessionsOpened > 0 ? [`${f.sessionsOpened} sessions opened`] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** Runs the overload phases and returns the report lines. */
export async function overloadBench(seconds = 3, clients = 64, profileDir?: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-overload-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const open: RestClient[] = [];
  const generators: Generator[] = [];
  let probes: Probes | undefined;
  // Read before this process is pinned: the cores it may use are then all it sees.
  const layout = cpuLayout();
  const layoutWords = describeLayout();
  try {
    const server = await startTarget(join(dir, 'server'), [], profileDir);
    // The probes (and this process) run on the generator's cores, never on the server's (pinned by startTarget).
    pinProcess(process.pid, layout?.generator);
    children.push(server.server);
    open.push(server.admin);
    await post(server.admin, '/api/v1/namespaces/bench/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { k: 'v' } });
    await post(server.admin, `/apis/${rbac}/v1/clusterrolebindings`, {
      apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'bench-user' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: rbac, kind: 'User', name: 'bench-user' }],
    });
    const asUser = { 'Impersonate-User': 'bench-user' };
    for (let i = 0; i < 100; i++) {
      const r = await server.admin.raw({ method: 'GET', path: target, headers: asUser });
      if (r.ok && r.value.status === 200) break;
      await sleep(50);
    }

    const conn = loadKubeconfig({ path: server.server.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);
    const { server: url, ca, cert, key } = conn.value;
    // As text: the generator gets them as JSON.
    const tls = { ...(ca === undefined ? {} : { ca: ca.toString() }), ...(cert === undefined ? {} : { cert: cert.toString() }), ...(key === undefined ? {} : { key: key.toString() }) };
    const generator = await startGenerator({ url, tls, sessions: 4 }, layout?.generator);
    generators.push(generator);
    probes = startProbes({ url, tls, exemptPath: target });

    // 1. Capacity: a closed loop of `clients` concurrent streams over the sessions the flood uses.
    const pid = server.server.child.pid;
    const capacityCpuBefore = processCpuMs(pid);
    const measured = await generator.ask({ type: 'capacity', path: target, headers: asUser, clients, seconds: 2 });
    const capacity = measured.served / measured.seconds;
    const servingCpu = cpuPerRequest(capacityCpuBefore, processCpuMs(pid), measured.served);

    // Idle figures of the probes.
    probes.start();
    await sleep(1000);
    const idle = await probes.stop();

    // 2. Open loop at 10 × capacity, the probes running.
    const offered = 10 * capacity;
    probes.start();
    const window: ProfileWindow = { fromMicros: monotonicMicros(), toMicros: 0 };
    const f = await flood(generator, offered, seconds, asUser, pid);
    const floodWindow = { ...window, toMicros: monotonicMicros() };
    const { exempt, livez } = await probes.stop();
    const ok = f.latencies['200'] ?? [];
    const rejected = f.latencies['429'] ?? [];
    const answered = Object.values(f.latencies).reduce((n, l) => n + l.length, 0);
    const other = answered - ok.length - rejected.length;
    const idleP99 = p99(idle.exempt);

    // 3. The baseline: node:http2 refusing every request and doing nothing else, flooded alike.
    const dataDir = join(dir, 'server');
    const raw = await startBenchModule('raw-http2-refusal-server',
      [`--cert=${join(dataDir, 'serving.crt')}`, `--key=${join(dataDir, 'serving.key')}`, `--ca=${join(dataDir, 'ca.crt')}`], /raw-http2: serving on (\d+)/);
    children.push({ stop: () => raw.child.kill() });
    pinProcess(raw.child.process.pid, layout?.server);
    const rawGenerator = await startGenerator({ url: `https://127.0.0.1:${raw.match[1]}`, tls, sessions: 4 }, layout?.generator);
    generators.push(rawGenerator);
    const baseline = await flood(rawGenerator, offered, seconds, asUser, raw.child.process.pid);
    const cpu = (micros: number | undefined): string => (micros === undefined ? 'unknown' : `${fmt(micros)} µs`);
    const lines = [
      `overload (${layoutWords}; load average ${loadavg().map((l) => fmt(l, 2)).join(' ')} at the end)`,
      `capacity ${fmt(capacity)} GETs/s of one global-default user (${clients} closed-loop HTTP/2 streams), server CPU ${cpu(servingCpu)} per GET; ${generatorWords(measured.cost)}; then ${seconds}s offered at 10× over HTTP/2`,
      `offered ${fmt(f.sentPerSecond)} req/s (goal ${fmt(offered)}) for ${fmt(f.seconds, 1)}s: ${ok.length} served (${fmt(ok.length / f.drained)}/s, the last ${fmt(f.drained, 1)}s after the start), ${rejected.length} answered 429, ${other} other${outcomeWords(f)}; ${generatorWords(f.cost, f)}`,
      `429 latency p50/p99 ${latencies(rejected)} ms (goal p99 ≤ 100); 200 latency p50/p99 ${latencies(ok)} ms`,
      `/livez p99 ${fmt(p99(livez), 1)} ms over ${livez.length} probes (goal ≤ 100); all 200: ${livez.every((s) => s.status === 200)}`,
      `exempt GET p99 ${fmt(p99(exempt), 1)} ms beside ${fmt(idleP99, 1)} ms idle: ${fmt(p99(exempt) / idleP99, 2)}× (goal ≤ 3×); all 200: ${exempt.every((s) => s.status === 200)}`,
      `server CPU ${cpu(f.serverCpuMicros)} per flood request, the server ${f.serverBusy === undefined ? 'unknown' : `${fmt(f.serverBusy * 100)}%`} busy over the flood${servingCpu === undefined || f.serverCpuMicros === undefined ? '' : ` (${fmt(f.serverCpuMicros / servingCpu, 2)}× a served GET; refusing 10× in time needs under 0.1×)`}`,
      `baseline node:http2 refusing everything at the same rate: offered ${fmt(baseline.sentPerSecond)} req/s${outcomeWords(baseline)}, 429 latency p50/p99 ${latencies(baseline.latencies['429'] ?? [])} ms, ` +
        `CPU ${cpu(baseline.serverCpuMicros)} per request${baseline.serverCpuMicros === undefined || f.serverCpuMicros === undefined ? '' : `; the API server's flood request ${fmt(f.serverCpuMicros / baseline.serverCpuMicros, 2)}× that`}; ${generatorWords(baseline.cost, baseline)}`,
    ];
    if (profileDir !== undefined) {
      for (const g of generators.splice(0)) g.close();
      await server.server.stop();
      const profile = readdirSync(profileDir).filter((n) => n.endsWith('.cpuprofile')).map((n) => join(profileDir, n)).sort().at(-1);
      if (profile !== undefined) lines.push(`server CPU profile ${profile} over the flood:`, ...summarizeProfile(profile, floodWindow, repoRoot));
    }
    return lines;
  } finally {
    await probes?.close();
    for (const g of generators) g.close();
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' }, 'cpu-prof': { type: 'string' } } });
  const lines = await overloadBench(Number(values.seconds ?? '3'), Number(values.clients ?? '64'), values['cpu-prof']);
  process.stdout.write(`${lines.join('\n')}\n`);
}
