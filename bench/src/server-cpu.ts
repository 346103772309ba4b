/**
 * The CPU time a server process spends per request: its user and system time (what `process.cpuUsage()` would
 * report inside it, read from `/proc/<pid>/stat` since the server is a child) around the requests of a run. Unlike
 * requests per second, this barely moves when other work shares the machine, so the benchmarks print it beside their
 * same-run ratios. Linux only; elsewhere the figure is NaN.
 */
import { readFileSync } from 'node:fs';
import { fmt, percentile } from './support.js';
import type { LoadResult } from './load/load-generator.js';
import { interleaved, type Figures } from './load/phases.js';

/** /proc reports times in USER_HZ ticks, which Linux fixes at 100 per second on every architecture. */
const microsPerTick = 10_000;

/** User + system CPU time of process `pid` so far, in µs (NaN when it cannot be read). */
export function processCpuMicros(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return u.user + u.system;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * microsPerTick;
  } catch {
    return NaN;
  }
}

/** A run's figures with the CPU time the measured processes spent on it. */
export interface MeasuredRun {
  readonly result: LoadResult;
  /** CPU time of the processes over the run, in µs. */
  readonly cpuMicros: number;
}

/** Runs `run`, reading the CPU time of `pids` before and after. */
export async function withCpu(pids: readonly (number | undefined)[], run: () => Promise<LoadResult>): Promise<MeasuredRun> {
  const before = pids.map(processCpuMicros);
  const result = await run();
  const cpuMicros = pids.reduce<number>((sum, pid, i) => sum + processCpuMicros(pid) - before[i]!, 0);
  return { result, cpuMicros };
}

/**
 * One interleaved round of one target: its rate, its server's CPU time per successful request (µs), and its place
 * in the sequence of all targets' rounds.
 */
export interface RoundFigures {
  readonly perSecond: number;
  readonly serverMicrosPerRequest: number;
  readonly sequence: number;
}

/**
 * Figures of a comparison with the server's CPU time per successful request (µs), over all rounds and round by
 * round (in the order they ran).
 */
export type CpuFigures = Figures & { readonly serverMicrosPerRequest: number; readonly rounds: readonly RoundFigures[] };

/**
 * {@link interleaved} with each phase's server CPU time: `pidsOf(target)` names the processes that serve it, and
 * their CPU time over the target's rounds is divided by its successful requests.
 */
export async function interleavedWithCpu<T>(
  targets: readonly T[], pidsOf: (target: T) => readonly (number | undefined)[], seconds: number,
  phase: (target: T, round: number, seconds: number) => Promise<LoadResult>, rounds?: number,
): Promise<CpuFigures[]> {
  const cpu = targets.map(() => ({ micros: 0, ok: 0, rounds: [] as RoundFigures[] }));
  let sequence = 0;
  const figures = await interleaved(targets, seconds, async (target, round, s) => {
    const measured = await withCpu(pidsOf(target), () => phase(target, round, s));
    const { ok, seconds: took } = measured.result;
    const total = cpu[targets.indexOf(target)]!;
    total.micros += measured.cpuMicros;
    total.ok += ok;
    total.rounds.push({ perSecond: took > 0 ? ok / took : 0, serverMicrosPerRequest: ok > 0 ? measured.cpuMicros / ok : NaN, sequence: sequence++ });
    return measured.result;
  }, rounds);
  return figures.map((f, i) => ({ ...f, serverMicrosPerRequest: cpu[i]!.ok > 0 ? cpu[i]!.micros / cpu[i]!.ok : NaN, rounds: cpu[i]!.rounds }));
}

/**
 * The median of a set of ratios, its 95 % confidence interval (distribution-free: the order statistics whose ranks
 * the binomial distribution of a median puts 1.96 standard deviations from the middle) and the extremes.
 */
export interface RatioSpread {
  readonly count: number;
  readonly median: number;
  readonly low: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly high: number;
}

/** The spread of `values` (non-finite ones left out); NaNs when none is left. */
export function spreadOf(values: readonly number[]): RatioSpread {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  const half = 0.98 * Math.sqrt(n);
  // 1-based ranks n/2 ± 0.98·√n (rounded outwards), within the values.
  const lowRank = Math.max(1, Math.floor(n / 2 - half));
  const highRank = Math.min(n, Math.ceil(1 + n / 2 + half));
  return {
    count: n, median: percentile(sorted, 50), low: sorted[0] ?? NaN, ciLow: sorted[lowRank - 1] ?? NaN, ciHigh: sorted[highRank - 1] ?? NaN,
    high: sorted.at(-1) ?? NaN,
  };
}

/** Whether a spread decides a goal: met when its whole confidence interval is at or above it, not met when below. */
export function verdict(s: RatioSpread, goal: number): 'met' | 'not met' | 'undecided' {
  if (s.ciLow >= goal) return 'met';
  if (s.ciHigh < goal) return 'not met';
  return 'undecided';
}

/** The geometric mean of the finite values of `a` and `b`'s `key` (one when the other is missing). */
function between(a: RoundFigures | undefined, b: RoundFigures | undefined, key: 'perSecond' | 'serverMicrosPerRequest'): number {
  const values = [a?.[key], b?.[key]].filter((v): v is number => v !== undefined && Number.isFinite(v) && v > 0);
  return values.length === 0 ? NaN : values.reduce((x, y) => x * y, 1) ** (1 / values.length);
}

/**
 * The per-round ratios of `f` to `baseline`: each round of `f` beside the baseline's rounds that ran just before
 * and just after it (their geometric mean), so a slow spell of the shared machine touches both sides of a ratio;
 * rate (this over the baseline) and CPU per request (the baseline's over this, the rate ratio a server limited by
 * its CPU would reach).
 */
export function roundRatios(f: Pick<CpuFigures, 'rounds'>, baseline: Pick<CpuFigures, 'rounds'>): { rate: RatioSpread; cpu: RatioSpread } {
  const rate: number[] = [];
  const cpu: number[] = [];
  for (const r of f.rounds) {
    const before = baseline.rounds.findLast((b) => b.sequence < r.sequence);
    const after = baseline.rounds.find((b) => b.sequence > r.sequence);
    rate.push(r.perSecond / between(before, after, 'perSecond'));
    cpu.push(between(before, after, 'serverMicrosPerRequest') / r.serverMicrosPerRequest);
  }
  return { rate: spreadOf(rate), cpu: spreadOf(cpu) };
}

/** `median 0.912 (95% CI 0.880–0.940, range 0.850–0.990)`: a spread as a report column. */
export function spreadColumn(s: RatioSpread): string {
  return `median ${fmt(s.median, 3)} (95% CI ${fmt(s.ciLow, 3)}–${fmt(s.ciHigh, 3)}, range ${fmt(s.low, 3)}–${fmt(s.high, 3)})`;
}

/**
 * The per-round ratio columns of a report line beside a baseline, rate then CPU per request, each with the goal and
 * whether the run decides it: `per round: rate median 0.912 (...) goal ≥ 0.9 undecided   cpu median 0.880 (...)`.
 */
export function roundRatioColumns(f: Pick<CpuFigures, 'rounds'>, baseline: Pick<CpuFigures, 'rounds'>, goal?: number): string {
  const { rate, cpu } = roundRatios(f, baseline);
  const judged = (s: RatioSpread): string => (goal === undefined ? '' : ` goal ≥ ${goal}: ${verdict(s, goal)}`);
  return `per round (${rate.count}): rate ${spreadColumn(rate)}${judged(rate)}   cpu ${spreadColumn(cpu)}${judged(cpu)}`;
}

/** How many rounds a phase of `seconds` runs in: rounds of about half a second, at least four. */
export function roundsFor(seconds: number, requested?: number): number {
  return requested ?? Math.max(4, Math.round(seconds / 0.5));
}

/**
 * The server CPU column of a report line: µs per request and, beside a baseline, the baseline's CPU per request
 * over this one's (the rate ratio a server limited by its CPU would reach): `server cpu 312 µs/req (ratio 0.850)`.
 */
export function cpuColumn(f: Pick<CpuFigures, 'serverMicrosPerRequest'>, baseline?: Pick<CpuFigures, 'serverMicrosPerRequest'>): string {
  const own = `server cpu ${fmt(f.serverMicrosPerRequest).padStart(5)} µs/req`;
  return baseline === undefined ? own : `${own} (ratio ${fmt(baseline.serverMicrosPerRequest / f.serverMicrosPerRequest, 3)})`;
}
