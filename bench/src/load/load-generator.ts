/**
 * The benchmark's load generator: keep-alive HTTP/1.1 over TLS from worker processes apart from the benchmark and
 * from the server (pinned to the generator's cores, see cpu-pinning.ts), each holding its share of the
 * connections with one request in flight on each (a closed loop, like as many clients). A run sends one request
 * shape (see load-plan.ts) for a time or a count and reports requests/s, p50/p99 latency and errors, the workers'
 * figures merged.
 *
 * Chosen by measurement against the raw node:https baseline on this machine (see the README's Benchmarks section):
 * the hand-framed client reached more requests/s per core than autocannon and undici, and the project's REST
 * client, run in the benchmark's own process, measured the client as much as the server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConnectionConfig } from '@svc-apiserver/client';
import { moduleEntry } from '@svc-apiserver/testing/node-child';
import { cpuLayout, pinProcess } from './cpu-pinning.js';
import type { Http1Target } from './http1-connection.js';
import { LatencyHistogram, type HistogramCounts } from './latency-histogram.js';
import type { LoadPlan } from './load-plan.js';
import type { RunFigures, WorkerCommand, WorkerReply } from './worker-protocol.js';

export type { LoadPlan } from './load-plan.js';

/** The bench package (its `src` from source, `dist` compiled). */
const benchPackageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What a run measured, all workers together. */
export interface LoadResult {
  /** Successful requests (the plan's status). */
  readonly ok: number;
  readonly errors: number;
  /** Successful requests per second, from the start of the run to its last response. */
  readonly perSecond: number;
  /** Latency percentiles of every request, in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly seconds: number;
  /** CPU time of the generator's workers over the run, per request (µs): what a request costs the client side. */
  readonly clientMicrosPerRequest: number;
  /** The generator's busiest worker's CPU use over the run (1 = a whole core): near 1, the generator is the limit. */
  readonly clientBusy: number;
  /** Responses by status code (0: the connection failed). */
  readonly statuses: Readonly<Record<string, number>>;
  /** Successful requests per connection (what `{k}` of a later run cycles over). */
  readonly perConnection: readonly number[];
  /** The first unexpected answer, for the error line. */
  readonly firstError?: string;
  /** Every latency, to merge runs exactly (see latency-histogram.ts). */
  readonly histogram: HistogramCounts;
}

/** A running generator bound to one server. */
export interface LoadGenerator {
  readonly connections: number;
  readonly processes: number;
  /** Runs a plan for `seconds` (and at most `plan.count` requests). */
  run(plan: LoadPlan, seconds: number): Promise<LoadResult>;
  /** Ends the workers and their connections. */
  close(): Promise<void>;
}

/** Options of {@link startLoadGenerator}. */
export interface LoadGeneratorOptions {
  /** Keep-alive connections in all (default 64). */
  readonly connections?: number;
  /** Worker processes sharing them (default 1). */
  readonly processes?: number;
  /** Cores to pin the workers to (default: the generator's cores of the layout, if any). */
  readonly cpus?: string;
}

class Worker {
  private readonly waiting: ((reply: WorkerReply) => void)[] = [];
  private readonly exited: Promise<void>;

  constructor(readonly child: ChildProcess) {
    child.on('message', (m: WorkerReply) => this.waiting.shift()?.(m));
    this.exited = new Promise((done) => child.once('exit', () => {
      for (const w of this.waiting.splice(0)) w({ type: 'failed', message: 'the load generator worker exited' });
      done();
    }));
  }

  ask(command: WorkerCommand): Promise<WorkerReply> {
    return new Promise((answer) => {
      this.waiting.push(answer);
      this.child.send(command);
    });
  }

  async close(): Promise<void> {
    if (this.child.connected) this.child.send({ type: 'close' } satisfies WorkerCommand);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The generator's view of a server: its address and the credentials of a kubeconfig. */
export function targetOf(conn: Pick<ConnectionConfig, 'server' | 'ca' | 'cert' | 'key' | 'token'>): Http1Target {
  const url = new URL(conn.server);
  return {
    host: url.hostname,
    port: Number(url.port || 443),
    tls: { ...(conn.ca ? { ca: conn.ca } : {}), ...(conn.cert ? { cert: conn.cert } : {}), ...(conn.key ? { key: conn.key } : {}) },
    ...(conn.token !== undefined ? { token: conn.token } : {}),
  };
}

function merge(figures: readonly RunFigures[]): LoadResult {
  const histogram = new LatencyHistogram();
  const statuses: Record<string, number> = {};
  let ok = 0;
  let errors = 0;
  let seconds = 0;
  let cpuSeconds = 0;
  let busy = 0;
  let firstError: string | undefined;
  for (const f of figures) {
    histogram.add(f.histogram);
    ok += f.ok;
    errors += f.errors;
    seconds = Math.max(seconds, f.seconds);
    cpuSeconds += f.cpuSeconds;
    busy = Math.max(busy, f.seconds > 0 ? f.cpuSeconds / f.seconds : 0);
    firstError ??= f.firstError;
    for (const [s, n] of Object.entries(f.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  }
  return {
    ok, errors, perSecond: seconds > 0 ? ok / seconds : 0, p50: histogram.percentile(50), p99: histogram.percentile(99), seconds, statuses,
    clientMicrosPerRequest: ok + errors > 0 ? (cpuSeconds * 1e6) / (ok + errors) : NaN, clientBusy: busy,
    perConnection: figures.flatMap((f) => f.perConnection), histogram: histogram.toCounts(), ...(firstError === undefined ? {} : { firstError }),
  };
}

/** Starts the worker processes and opens every connection (handshakes are done before any run is timed). */
export async function startLoadGenerator(target: Http1Target, options: LoadGeneratorOptions = {}): Promise<LoadGenerator> {
  const connections = options.connections ?? 64;
  const processes = Math.max(1, Math.min(options.processes ?? 1, connections));
  const cpus = options.cpus ?? cpuLayout()?.generator;
  const workers: Worker[] = [];
  try {
    let first = 0;
    const opened: Promise<WorkerReply>[] = [];
    for (let p = 0; p < processes; p++) {
      const share = Math.floor(connections / processes) + (p < connections % processes ? 1 : 0);
      const child = spawn(process.execPath, moduleEntry(benchPackageDir, 'load/load-worker'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
      const worker = new Worker(child);
      workers.push(worker);
      pinProcess(child.pid, cpus);
      opened.push(worker.ask({ type: 'open', target, first, connections: share, total: connections }));
      first += share;
    }
    for (const reply of await Promise.all(opened)) {
      if (reply.type === 'failed') throw new Error(`load generator: ${reply.message}`);
    }
  } catch (e) {
    await Promise.all(workers.map((w) => w.close()));
    throw e;
  }
  return {
    connections,
    processes,
    async run(plan, seconds) {
      const replies = await Promise.all(workers.map((w) => w.ask({ type: 'run', plan, ms: seconds * 1000 })));
      const figures: RunFigures[] = [];
      for (const r of replies) {
        if (r.type !== 'ran') throw new Error(`load generator: ${r.type === 'failed' ? r.message : 'no figures'}`);
        figures.push(r.figures);
      }
      return merge(figures);
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
