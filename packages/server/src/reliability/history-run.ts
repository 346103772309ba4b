/**
 * One reliability run: concurrent clients and watchers against one or more replicas while a fault script crashes and
 * restarts servers (and etcd members), then every check of the harness over what was recorded:
 *
 * 1. after each crash, with clients held back, a LIST shows every acknowledged write durable (crash-durability-check);
 * 2. resourceVersions are one global, never-receding counter (history-revision-check);
 * 3. every watch chain and probe is ordered, gap-free, duplicate-free, continuous across restarts and true to the
 *    reference timeline (history-watch-check), and watchers and probes catch up to the last write;
 * 4. after unanswered writes are settled from the timeline (history-resolve), each object's history is linearizable
 *    (linearizability-checker with the register model);
 * 5. every answer was one kube-apiserver gives for the request, servers stop cleanly, and the store checks pass.
 */
import { createClient, createTransport } from '@svc-apiserver/client';
import { checkDurability } from './crash-durability-check.js';
import { startHistoryClient, type HistoryClient, type VerbMix } from './history-client.js';
import { registerHistory, type ListOutput, type RecordedOperation } from './history-operation.js';
import { seededRandom } from '../testing/seeded-random.js';
import { buildReference } from './history-reference.js';
import { resolveUnanswered } from './history-resolve.js';
import { checkRevisions } from './history-revision-check.js';
import type { ControlledReplica, Replica } from './history-servers.js';
import { checkWatchChains, type WatchCheckResult } from './history-watch-check.js';
import { describeChain, lastDelivered, listObjects, runProbe, startMainWatcher, type MainWatcher, type WatchChain } from './history-watcher.js';
import { checkLinearizability } from './linearizability-checker.js';
import { registerModel } from './linearizability-register-model.js';

/** What a fault script can do besides crashing replicas. */
export interface FaultContext {
  readonly random: () => number;
  /** True once the run's duration is over: the script should finish. */
  stopping(): boolean;
  /** Waits `ms`, or less if the run ends meanwhile. */
  sleep(ms: number): Promise<void>;
  /** Holds every client back after its current request; resolves when they all are. */
  pauseClients(): Promise<void>;
  resumeClients(): void;
  /**
   * With clients held back and `replica` up after a crash: LISTs the objects through it and checks that every
   * acknowledged write survived.
   */
  checkpoint(replica: Replica): Promise<void>;
  /**
   * Ends `replica`'s life (SIGKILL for a process), counts it as `what`, optionally kills its next start after
   * `killDuringStartupMs`, starts it again and, with clients held back, checks durability through it.
   */
  crash(replica: ControlledReplica, what: string, killDuringStartupMs?: number): Promise<void>;
  /** Counts a fault for the report. */
  count(what: string, n?: number): void;
}

/** Options of {@link runHistory}. */
export interface RunOptions {
  readonly label: string;
  readonly replicas: readonly ControlledReplica[];
  /** The servers own their store (SQLite): a write cut off by a server's end cannot take effect after it. */
  readonly storeOwnedByServer: boolean;
  /** Compaction runs, so 410 Expired is legal for old resourceVersions. */
  readonly compaction: boolean;
  readonly namespace: string;
  /** Size of the pool of ConfigMaps. */
  readonly objects: number;
  readonly clients: number;
  readonly mix: VerbMix;
  readonly preconditionRate: number;
  /** Main watchers: the replica (index) each watches, and whether it reads slowly. */
  readonly watchers: readonly { readonly replica: number; readonly slow: boolean }[];
  /** Server-side timeout range of each watch connection (s). */
  readonly watchTimeoutSeconds: readonly [number, number];
  /** A probe from a delivered resourceVersion every this many ms while the run lasts (0: none). */
  readonly probeIntervalMs: number;
  /** Probes from delivered resourceVersions once the clients stopped. */
  readonly endProbes: number;
  /** How long the workload runs (the fault script is told to stop then). */
  readonly durationMs: number;
  /**
   * The workload goes on past `durationMs` until the fault script has crashed replicas (through
   * {@link FaultContext.crash}) this many times: on a loaded machine restarts take longer, and a run with too few
   * crashes would prove little.
   */
  readonly minimumCrashes?: number;
  readonly seed: number;
  readonly faults?: (ctx: FaultContext) => Promise<void>;
  /** Store checks once every replica stopped, given the highest acknowledged resourceVersion. */
  readonly storeCheck?: (highestAcknowledged: number) => Promise<string[]> | string[];
}

/** What a run did and found. */
export interface RunReport {
  readonly label: string;
  readonly seed: number;
  readonly wallMs: number;
  readonly operations: number;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly resolution: { readonly happened: number; readonly vanished: number; readonly unknown: number };
  readonly faults: Readonly<Record<string, number>>;
  readonly checkpoints: number;
  readonly watch: Omit<WatchCheckResult, 'violations'>;
  readonly probes: number;
  readonly linearizability: { readonly partitions: number; readonly operations: number };
  readonly highestAcknowledged: number;
  /** Wall time of each phase (ms): the workload, catching up and probing after it, stopping, checking. */
  readonly phases: Readonly<Record<string, number>>;
  readonly notes: readonly string[];
  readonly violations: readonly string[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The objects as a chain last knew them at `rv`. */
function stateAt(chain: WatchChain, rv: number): Map<string, { rv: number; value: string }> {
  const state = new Map(chain.initial);
  for (const s of chain.segments) {
    for (const e of s.events) {
      if (e.rv > rv) return state;
      if (e.type === 'DELETED') state.delete(e.name);
      else if (e.type !== 'BOOKMARK') state.set(e.name, { rv: e.rv, value: e.value });
    }
  }
  return state;
}

/** Every resourceVersion a chain delivered (events and bookmarks), with its start. */
function deliveredRvs(chain: WatchChain): number[] {
  const out = [chain.start];
  for (const s of chain.segments) for (const e of s.events) out.push(e.rv);
  return out;
}

/** Creates the run's namespace, retrying while the server warms up. */
async function createNamespace(replica: Replica, namespace: string): Promise<void> {
  const life = await replica.whenUp();
  const client = createClient(life.config);
  try {
    for (let i = 0; ; i++) {
      const r = await client.raw({
        method: 'POST', path: '/api/v1/namespaces', headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }),
      });
      if (r.ok && (r.value.status === 201 || r.value.status === 409)) return;
      if (i > 50) throw new Error(`cannot create namespace ${namespace}: ${r.ok ? r.value.body.toString() : r.error.message}`);
      await sleep(200);
    }
  } finally {
    client.close();
  }
}

/** Runs the workload, the faults and every check. */
export async function runHistory(o: RunOptions): Promise<RunReport> {
  const started = performance.now();
  const random = seededRandom(o.seed);
  const phases: Record<string, number> = {};
  let phaseStart = started;
  const phase = (name: string): void => {
    const now = performance.now();
    phases[name] = Math.round(now - phaseStart);
    phaseStart = now;
  };
  const names = Array.from({ length: o.objects }, (_, i) => `cm-${i}`);
  const ops: RecordedOperation[] = [];
  const violations: string[] = [];
  /** Things worth knowing that break no promise (slow catch-up). */
  const notes: string[] = [];
  const faults: Record<string, number> = {};
  const chains: WatchChain[] = [];
  let checkpoints = 0;
  let crashes = 0;
  const record = (op: Omit<RecordedOperation, 'id'>): void => {
    ops.push({ ...op, id: ops.length });
  };
  const deadline = (op: RecordedOperation): number => {
    if (!o.storeOwnedByServer) return Infinity;
    return o.replicas.find((r) => r.name === op.replica)?.endOf(op.generation) ?? Infinity;
  };

  /** A consistent LIST through a replica, recorded as a read of every object; a string when it failed. */
  const listThrough = async (replica: Replica, who: string): Promise<ListOutput | string> => {
    const life = await replica.whenUp();
    const transport = createTransport(life.config);
    try {
      const call = performance.now();
      const listed = await listObjects(transport, o.namespace);
      if (!listed.ok) return listed.message;
      const output: ListOutput = { kind: 'list', rv: listed.rv, items: listed.items };
      record({ client: who, replica: replica.name, generation: life.generation, verb: 'list', output, call, return: performance.now(), status: 200 });
      return output;
    } finally {
      transport.close();
    }
  };

  await createNamespace(o.replicas[0]!, o.namespace);

  const watchers: MainWatcher[] = o.watchers.map((w, i) => startMainWatcher({
    id: `watcher-${i}${w.slow ? '-slow' : ''}`, replica: o.replicas[w.replica]!, namespace: o.namespace, slow: w.slow,
    timeoutSeconds: o.watchTimeoutSeconds, random: seededRandom(o.seed + 1000 + i), record,
    onChain: (c) => chains.push(c),
    unexpected: (text) => violations.push(`unexpected answer: ${text}`),
  }));

  let sequence = 0;
  const pickReplica = (): Replica => {
    const up = o.replicas.filter((r) => r.current() !== undefined);
    const from = up.length > 0 ? up : o.replicas;
    return from[Math.floor(random() * from.length)]!;
  };
  const clients: HistoryClient[] = Array.from({ length: o.clients }, (_, i) => startHistoryClient({
    id: `client-${i}`, namespace: o.namespace, names, mix: o.mix, preconditionRate: o.preconditionRate,
    random: seededRandom(o.seed + 1 + i), pickReplica, record,
    unexpected: (_op, text) => violations.push(`unexpected answer: ${text}`),
    nextValue: () => `${o.label}-${i}-${sequence++}`,
  }));

  let stopping = false;
  let wake: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (wake = resolve));
  const ctx: FaultContext = {
    random,
    stopping: () => stopping,
    sleep: (ms) => Promise.race([sleep(ms), stopped]),
    async pauseClients() {
      await Promise.all(clients.map((c) => c.pause()));
    },
    resumeClients() {
      for (const c of clients) c.resume();
    },
    async checkpoint(replica) {
      const before = [...ops];
      const listed = await listThrough(replica, 'checkpoint');
      if (typeof listed === 'string') {
        violations.push(`the LIST after restarting ${replica.name} failed: ${listed}`);
        return;
      }
      checkpoints++;
      for (const v of checkDurability(before, listed, names, deadline)) violations.push(`after restart ${checkpoints} of ${replica.name}: ${v}`);
    },
    count(what, n = 1) {
      faults[what] = (faults[what] ?? 0) + n;
    },
    async crash(replica, what, killDuringStartupMs) {
      await replica.kill();
      crashes++;
      ctx.count(what);
      // Held only now: the crash hits clients in full flight, and none writes again before the check.
      const held = ctx.pauseClients();
      if (killDuringStartupMs !== undefined && replica.killDuringStartup !== undefined) {
        await replica.killDuringStartup(killDuringStartupMs);
        ctx.count(`${what} during startup`);
      }
      await replica.restart();
      await held;
      await ctx.checkpoint(replica);
      ctx.resumeClients();
    },
  };

  // Probes while the run lasts: resume from a resourceVersion some chain delivered, on any replica that is up.
  let probes = 0;
  const probing = (async () => {
    if (o.probeIntervalMs <= 0) return;
    while (!stopping) {
      await ctx.sleep(o.probeIntervalMs);
      if (stopping) break;
      const live = watchers.map((w) => w.current()).filter((c): c is WatchChain => c !== undefined);
      const origin = live[Math.floor(random() * live.length)];
      const up = o.replicas.filter((r) => r.current() !== undefined);
      const replica = up[Math.floor(random() * up.length)];
      if (origin === undefined || replica === undefined) continue;
      const rvs = deliveredRvs(origin);
      const from = rvs[Math.floor(random() * rvs.length)]!;
      chains.push(await runProbe({
        id: `probe-${probes++}`, replica, namespace: o.namespace, origin, from, initial: stateAt(origin, from),
        until: lastDelivered(origin), timeoutMs: 3000, random,
      }));
    }
  })();

  let faultsEnded = false;
  const faulting = (async () => {
    try {
      await o.faults?.(ctx);
    } finally {
      faultsEnded = true;
    }
  })();
  await sleep(o.durationMs);
  while (crashes < (o.minimumCrashes ?? 0) && !faultsEnded) await sleep(100);
  stopping = true;
  wake();
  await faulting;
  await probing;
  ctx.resumeClients();
  for (const r of o.replicas) await r.restart();
  await Promise.all(clients.map((c) => c.stop()));
  phase('workload');

  // A last write every watcher must reach: once it has, it has delivered everything before it.
  const fenceLife = await o.replicas[0]!.whenUp();
  const fenceClient = createClient(fenceLife.config);
  let fence = 0;
  try {
    const call = performance.now();
    const r = await fenceClient.raw({
      method: 'POST', path: `/api/v1/namespaces/${o.namespace}/configmaps`, headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fence' }, data: { w: `${o.label}-fence` } }),
    });
    if (!r.ok || r.value.status !== 201) throw new Error(`the fence write failed: ${r.ok ? r.value.body.toString() : r.error.message}`);
    fence = Number((JSON.parse(r.value.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    record({
      client: 'fence', replica: o.replicas[0]!.name, generation: fenceLife.generation, verb: 'create', name: 'fence',
      input: { kind: 'create', value: `${o.label}-fence` }, output: { kind: 'written', rv: fence, created: true }, call, return: performance.now(), status: 201,
    });
  } finally {
    fenceClient.close();
  }
  for (const w of watchers) w.hurry();
  const fenced = performance.now();
  const caughtUp = await Promise.all(watchers.map(async (w) => ((await w.waitFor(fence, 20_000)) ? performance.now() - fenced : undefined)));
  caughtUp.forEach((ms, i) => {
    const chain = watchers[i]!.current();
    const account = chain === undefined ? 'no chain' : describeChain(chain);
    if (ms === undefined) violations.push(`watcher ${i} did not deliver the last write (resourceVersion ${fence}) within 20 s: ${account}`);
    else if (ms > 5000) notes.push(`watcher ${i} took ${(ms / 1000).toFixed(1)} s to deliver the last write: ${account}`);
  });

  phase('catch-up');
  // Resumable from any resourceVersion a chain delivered: probes from a sample of them, each to the last write.
  const mains = chains.filter((c) => c.kind === 'main');
  const candidates = mains.flatMap((c) => deliveredRvs(c).map((rv) => ({ c, rv })));
  for (let i = 0; i < o.endProbes && candidates.length > 0; i++) {
    const { c, rv } = candidates[Math.floor(random() * candidates.length)]!;
    const replica = o.replicas[Math.floor(random() * o.replicas.length)]!;
    const probe = await runProbe({
      id: `end-probe-${i}`, replica, namespace: o.namespace, origin: c, from: rv, initial: stateAt(c, rv),
      until: fence, timeoutMs: 10_000, random,
    });
    chains.push(probe);
    probes++;
    const end = probe.segments[0]?.end;
    if (lastDelivered(probe) < fence && end?.kind !== 'expired') {
      violations.push(`a watch from resourceVersion ${rv} (delivered by ${c.id}) on ${replica.name} did not reach the last write ${fence}: ${end === undefined ? 'no connection' : `${end.kind}${'message' in end ? ` ${end.message}` : ''}`}`);
    }
  }

  phase('end probes');
  for (const r of o.replicas) {
    const listed = await listThrough(r, 'final');
    if (typeof listed === 'string') violations.push(`the final LIST through ${r.name} failed: ${listed}`);
  }
  await Promise.all(watchers.map((w) => w.stop()));
  for (const r of o.replicas) {
    const exit = await r.stop();
    if (exit.code !== 0) violations.push(`${r.name} did not shut down cleanly: ${JSON.stringify(exit)}`);
  }

  phase('stop');
  const highestAcknowledged = ops.reduce((m, op) => Math.max(m, op.output.kind === 'written' || op.output.kind === 'list' ? op.output.rv : 0), 0);
  if (o.storeCheck !== undefined) violations.push(...(await o.storeCheck(highestAcknowledged)));

  violations.push(...checkRevisions(ops));
  const reference = buildReference(chains, ops);
  const watch = checkWatchChains(chains, reference, ops, { compaction: o.compaction });
  violations.push(...watch.violations);
  const finalRv = ops.reduce((m, op) => Math.max(m, op.output.kind === 'list' ? op.output.rv : 0), fence);
  const resolution = resolveUnanswered(ops, reference, deadline, finalRv);
  const lin = checkLinearizability(registerModel, registerHistory(resolution.ops, [...names, 'fence']));
  violations.push(...lin.violations.map((v) => v.report));

  phase('checks');
  const outcomes: Record<string, number> = {};
  for (const op of ops) outcomes[op.output.kind] = (outcomes[op.output.kind] ?? 0) + 1;
  const { violations: _w, ...watchCounts } = watch;
  return {
    label: o.label, seed: o.seed, wallMs: Math.round(performance.now() - started), operations: ops.length, outcomes,
    resolution: { happened: resolution.happened, vanished: resolution.vanished, unknown: resolution.unknown },
    faults, checkpoints, watch: watchCounts, probes, linearizability: { partitions: lin.partitions, operations: lin.operations },
    highestAcknowledged, phases, notes, violations,
  };
}

/** The report as a few lines for a test's diagnostics. */
export function formatReport(r: RunReport): string {
  const kv = (o: Readonly<Record<string, number>>): string => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ');
  return [
    `${r.label}: seed ${r.seed}, ${(r.wallMs / 1000).toFixed(1)} s (${Object.entries(r.phases).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')})`,
    `  operations ${r.operations} (${kv(r.outcomes)}); unanswered writes settled: happened ${r.resolution.happened}, vanished ${r.resolution.vanished}, unknown ${r.resolution.unknown}`,
    `  faults: ${kv(r.faults) || 'none'}; durability checkpoints ${r.checkpoints}`,
    `  watch: ${r.watch.chains} chains (${r.probes} of them probes), ${r.watch.segments} connections, ${r.watch.events} events, ${r.watch.bookmarks} bookmarks, ${r.watch.expired} answered 410, ${r.watch.transientErrors} transient errors`,
    `  linearizability: ${r.linearizability.operations} operations over ${r.linearizability.partitions} objects`,
    ...r.notes.map((n) => `  note: ${n}`),
    `  violations: ${r.violations.length}`,
    ...r.violations.slice(0, 20).map((v) => `    ${v.split('\n').join('\n    ')}`),
  ].join('\n');
}

/** Totals over several runs, one line: what `npm run soak` reports at the end of a harness. */
export function formatTotals(reports: readonly RunReport[]): string {
  const sum = (f: (r: RunReport) => number): number => reports.reduce((n, r) => n + f(r), 0);
  const faults = new Map<string, number>();
  for (const r of reports) for (const [k, v] of Object.entries(r.faults)) faults.set(k, (faults.get(k) ?? 0) + v);
  return [
    `${reports.length} runs, ${(sum((r) => r.wallMs) / 1000).toFixed(0)} s:`,
    `${sum((r) => r.operations)} operations (${sum((r) => r.linearizability.operations)} checked for linearizability),`,
    `${sum((r) => r.watch.events)} watch events over ${sum((r) => r.watch.chains)} chains,`,
    `${sum((r) => r.checkpoints)} durability checkpoints,`,
    `faults: ${[...faults].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'};`,
    `violations ${sum((r) => r.violations.length)}`,
  ].join(' ');
}

/**
 * Runs `rounds` runs one after another, each on a namespace of its own, restarting the replicas between them (a run
 * stops them); tells each report and, for several rounds, the totals.
 */
export async function runRounds(tell: (line: string) => void, rounds: number, options: (round: number) => RunOptions): Promise<RunReport[]> {
  const reports: RunReport[] = [];
  for (let round = 0; round < rounds; round++) {
    const o = options(round);
    if (round > 0) for (const r of o.replicas) await r.restart();
    const report = await runHistory(o);
    reports.push(report);
    for (const line of formatReport(report).split('\n')) tell(line);
  }
  if (rounds > 1) tell(formatTotals(reports));
  return reports;
}
