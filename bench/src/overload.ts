/**
 * Overload with API Priority and Fairness: a server child with its default limits, a user of the global-default
 * priority level (an administrator impersonating `bench-user`) reading a configmap
 *
 * 1. closed-loop from 64 concurrent HTTP/2 streams for a moment: the server's capacity C for that user, in requests/s;
 * 2. open-loop at 10 × C over HTTP/2 for a few seconds, while a probe reads /livez (anonymous, the probes
 *    FlowSchema) and an administrator (exempt) reads the same configmap every 20 ms;
 * 3. the baseline: the same flood against node:http2 answering every request 429 and doing nothing else
 *    (raw-http2-refusal-server.ts, on the server's core), the least a refusal costs any Node server.
 *
 * Figures and goals: the excess answered 429 within 100 ms (p99 of the 429s), /livez p99 ≤ 100 ms, the exempt
 * GET's p99 ≤ 3 × its idle p99. The load comes from this process, pinned to the generator's cores apart from the
 * server's (see load/cpu-pinning.ts); the probes run on a thread of their own (overload-probe.ts), so their latency
 * is the server's and not the flood's event loop. Printed beside the figures: the offered rate reached, how busy
 * the flooding thread was (near 100%, the figures measure the generator), the server's CPU time per flood request
 * (what a refusal costs: at 10 × C it must be under a tenth of what serving costs), and the load average, since the
 * machine may be shared.
 *
 * Flags: --seconds=<overload phase, default 3> --clients=<64>
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { fmt, runStandalone, percentile, sleep, startBenchModule } from './support.js';
import { post, startTarget } from './create-load.js';
import { cpuLayout, describeLayout, pinProcess } from './load/cpu-pinning.js';
import { h2get, type Sample } from './overload-requests.js';
import type { ProbeCommand, ProbeData, ProbeSamples } from './overload-probe.js';

const rbac = 'rbac.authorization.svc.io';
const target = '/api/v1/namespaces/bench/configmaps/target';

const p99 = (samples: readonly Sample[]): number => percentile([...samples].map((s) => s.ms).sort((a, b) => a - b), 99);

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

/** The probe thread (overload-probe.ts), run from source or compiled as this module is. */
interface Probes {
  start(): void;
  /** The samples since the start. */
  stop(): Promise<ProbeSamples>;
  close(): Promise<unknown>;
}

function startProbes(data: ProbeData): Probes {
  const file = new URL(import.meta.url.endsWith('.ts') ? './overload-probe.ts' : './overload-probe.js', import.meta.url);
  const worker = new Worker(file, { workerData: data });
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

/** What an open-loop flood got back. */
interface Flood {
  readonly answers: readonly Sample[];
  /** Requests sent per second. */
  readonly sentPerSecond: number;
  readonly seconds: number;
  /** Seconds from the start to the last answer. */
  readonly drained: number;
  /** How busy this thread's event loop was from the start to the last answer (0 to 1). */
  readonly generatorBusy: number;
  /** The server's CPU time per answer, µs (undefined without /proc). */
  readonly serverCpuMicros: number | undefined;
}

/** Sends GETs of `path` at `rate` a second for `seconds` over `sessions` in turn, whatever comes back, and waits for every answer. */
async function flood(sessions: readonly ClientHttp2Session[], path: string, headers: Record<string, string>, rate: number, seconds: number, serverPid: number | undefined): Promise<Flood> {
  const pending: Promise<Sample>[] = [];
  const cpuBefore = processCpuMs(serverPid);
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (pending.length < due) pending.push(h2get(sessions[pending.length % sessions.length]!, path, headers));
    await sleep(1);
  }
  const elapsed = (performance.now() - started) / 1000;
  const answers = await Promise.all(pending);
  const cpuAfter = processCpuMs(serverPid);
  return {
    answers, sentPerSecond: answers.length / elapsed, seconds: elapsed,
    drained: (Math.max(...answers.map((a) => a.at)) - started) / 1000,
    generatorBusy: performance.eventLoopUtilization(loopBefore).utilization,
    serverCpuMicros: cpuPerRequest(cpuBefore, cpuAfter, answers.length),
  };
}

/** CPU µs per request between two readings of {@link processCpuMs}. */
function cpuPerRequest(before: number | undefined, after: number | undefined, requests: number): number | undefined {
  return before === undefined || after === undefined || requests === 0 ? undefined : ((after - before) * 1000) / requests;
}

const latencies = (samples: readonly Sample[]): string =>
  `${fmt(percentile(samples.map((r) => r.ms).sort((a, b) => a - b), 50), 1)}/${fmt(p99(samples), 1)}`;

/** Runs the overload phases and returns the report lines. */
export async function overloadBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-overload-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const open: RestClient[] = [];
  const sessions: ClientHttp2Session[] = [];
  let probes: Probes | undefined;
  // Read before this process is pinned: the cores it may use are then all it sees.
  const layout = cpuLayout();
  const layoutWords = describeLayout();
  try {
    const server = await startTarget(join(dir, 'server'), []);
    // The flood and the probes run on the generator's cores, never on the server's (pinned by startTarget).
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
    const tls = { ...(ca === undefined ? {} : { ca }), ...(cert === undefined ? {} : { cert }), ...(key === undefined ? {} : { key }) };
    const flooders = Array.from({ length: 4 }, () => connect(url, tls));
    sessions.push(...flooders);
    probes = startProbes({ url, tls, exemptPath: target });

    // 1. Capacity: closed loop of `clients` concurrent streams over the same HTTP/2 sessions the flood uses.
    let served = 0;
    const pid = server.server.child.pid;
    const capacityCpuBefore = processCpuMs(pid);
    const capacityStart = performance.now();
    const capacityEnd = capacityStart + 2000;
    await Promise.all(Array.from({ length: clients }, async (_, i) => {
      while (performance.now() < capacityEnd) {
        if ((await h2get(flooders[i % flooders.length]!, target, asUser)).status === 200) served++;
      }
    }));
    const capacity = served / ((performance.now() - capacityStart) / 1000);
    const capacityCpuAfter = processCpuMs(pid);

    // Idle figures of the probes.
    probes.start();
    await sleep(1000);
    const idle = await probes.stop();

    // 2. Open loop at 10 × capacity, the probes running.
    const offered = 10 * capacity;
    probes.start();
    const f = await flood(flooders, target, asUser, offered, seconds, pid);
    const { exempt, livez } = await probes.stop();
    const ok = f.answers.filter((a) => a.status === 200);
    const rejected = f.answers.filter((a) => a.status === 429);
    const other = f.answers.length - ok.length - rejected.length;
    const idleP99 = p99(idle.exempt);
    const servingCpu = cpuPerRequest(capacityCpuBefore, capacityCpuAfter, served);

    // 3. The baseline: node:http2 refusing every request and doing nothing else, flooded alike.
    const dataDir = join(dir, 'server');
    const raw = await startBenchModule('raw-http2-refusal-server',
      [`--cert=${join(dataDir, 'serving.crt')}`, `--key=${join(dataDir, 'serving.key')}`, `--ca=${join(dataDir, 'ca.crt')}`], /raw-http2: serving on (\d+)/);
    children.push({ stop: () => raw.child.kill() });
    pinProcess(raw.child.process.pid, layout?.server);
    const rawUrl = `https://127.0.0.1:${raw.match[1]}`;
    const rawSessions = Array.from({ length: flooders.length }, () => connect(rawUrl, tls));
    sessions.push(...rawSessions);
    const baseline = await flood(rawSessions, target, asUser, offered, seconds, raw.child.process.pid);
    const cpu = (micros: number | undefined): string => (micros === undefined ? 'unknown' : `${fmt(micros)} µs`);
    return [
      `overload (${layoutWords}; load average ${loadavg().map((l) => fmt(l, 2)).join(' ')} at the end)`,
      `capacity ${fmt(capacity)} GETs/s of one global-default user (${clients} closed-loop HTTP/2 streams), server CPU ${cpu(servingCpu)} per GET; then ${seconds}s offered at 10× over HTTP/2`,
      `offered ${fmt(f.sentPerSecond)} req/s (goal ${fmt(offered)}) for ${fmt(f.seconds, 1)}s: ${ok.length} served (${fmt(ok.length / f.drained)}/s, the last ${fmt(f.drained, 1)}s after the start), ${rejected.length} answered 429, ${other} other`,
      `429 latency p50/p99 ${latencies(rejected)} ms (goal p99 ≤ 100)`,
      `/livez p99 ${fmt(p99(livez), 1)} ms over ${livez.length} probes (goal ≤ 100); all 200: ${livez.every((s) => s.status === 200)}`,
      `exempt GET p99 ${fmt(p99(exempt), 1)} ms beside ${fmt(idleP99, 1)} ms idle: ${fmt(p99(exempt) / idleP99, 2)}× (goal ≤ 3×); all 200: ${exempt.every((s) => s.status === 200)}`,
      `server CPU ${cpu(f.serverCpuMicros)} per flood request${servingCpu === undefined || f.serverCpuMicros === undefined ? '' : ` (${fmt(f.serverCpuMicros / servingCpu, 2)}× a served GET; refusing 10× in time needs under 0.1×)`}; flooding thread busy ${fmt(f.generatorBusy * 100)}% (near 100%, the generator is the limit)`,
      `baseline node:http2 refusing everything at the same rate: offered ${fmt(baseline.sentPerSecond)} req/s, 429 latency p50/p99 ${latencies(baseline.answers)} ms, ` +
        `CPU ${cpu(baseline.serverCpuMicros)} per request${baseline.serverCpuMicros === undefined || f.serverCpuMicros === undefined ? '' : `; the API server's flood request ${fmt(f.serverCpuMicros / baseline.serverCpuMicros, 2)}× that`}`,
    ];
  } finally {
    await probes?.close();
    for (const s of sessions) s.close();
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, overloadBench);
