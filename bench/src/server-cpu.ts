/**
 * The CPU time a server process spends per request: its user and system time (what `process.cpuUsage()` would
 * report inside it, read from `/proc/<pid>/stat` since the server is a child) around the requests of a run. Unlike
 * requests per second, this barely moves when other work shares the machine, so the benchmarks print it beside their
 * same-run ratios. Linux only; elsewhere the figure is NaN.
 */
import { readFileSync } from 'node:fs';
import { fmt } from './support.js';
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

/** Figures of a comparison with the server's CPU time per successful request (µs). */
export type CpuFigures = Figures & { readonly serverMicrosPerRequest: number };

/**
 * {@link interleaved} with each phase's server CPU time: `pidsOf(target)` names the processes that serve it, and
 * their CPU time over the target's rounds is divided by its successful requests.
 */
export async function interleavedWithCpu<T>(
  targets: readonly T[], pidsOf: (target: T) => readonly (number | undefined)[], seconds: number,
  phase: (target: T, round: number, seconds: number) => Promise<LoadResult>, rounds?: number,
): Promise<CpuFigures[]> {
  const cpu = targets.map(() => ({ micros: 0, ok: 0 }));
  const figures = await interleaved(targets, seconds, async (target, round, s) => {
    const measured = await withCpu(pidsOf(target), () => phase(target, round, s));
    const total = cpu[targets.indexOf(target)]!;
    total.micros += measured.cpuMicros;
    total.ok += measured.result.ok;
    return measured.result;
  }, rounds);
  return figures.map((f, i) => ({ ...f, serverMicrosPerRequest: cpu[i]!.ok > 0 ? cpu[i]!.micros / cpu[i]!.ok : NaN }));
}

/**
 * The server CPU column of a report line: µs per request and, beside a baseline, the baseline's CPU per request
 * over this one's (the rate ratio a server limited by its CPU would reach): `server cpu 312 µs/req (ratio 0.850)`.
 */
export function cpuColumn(f: Pick<CpuFigures, 'serverMicrosPerRequest'>, baseline?: Pick<CpuFigures, 'serverMicrosPerRequest'>): string {
  const own = `server cpu ${fmt(f.serverMicrosPerRequest).padStart(5)} µs/req`;
  return baseline === undefined ? own : `${own} (ratio ${fmt(baseline.serverMicrosPerRequest / f.serverMicrosPerRequest, 3)})`;
}
