/**
 * What every benchmark shares: its sibling modules run as children (through the shared node-child support, from
 * source through tsx or compiled as the parent runs), percentiles and number formatting. The API server is started
 * with the same launcher the end-to-end tests use (@svc-apiserver/testing/launch-server).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeWaitFailure, moduleEntry, startNodeChild, type NodeChild } from '@svc-apiserver/testing/node-child';

/** The bench package (its `src` from source, `dist` compiled). */
const benchPackageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** True when the module at `importMetaUrl` is the one node was started with. */
export function isMain(importMetaUrl: string): boolean {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(importMetaUrl);
}

/** Options of a standalone run beyond seconds and clients. */
export interface StandaloneOptions {
  /** `--cpu-prof=<dir>`: the servers run under node's CPU profiler, their profiles summarized after the figures. */
  readonly cpuProfDir?: string;
  /** `--rounds=<n>`: the interleaved rounds each phase's seconds are split into (benchmarks that interleave). */
  readonly rounds?: number;
}

/**
 * Runs `bench` when its module is the one node was started with: `--seconds` per phase (default 3), `--clients`
 * (default 64), `--cpu-prof=<dir>` for the benchmarks that profile their servers and `--rounds=<n>` for those that
 * interleave, its lines to stdout.
 */
export async function runStandalone(
  importMetaUrl: string, bench: (seconds: number, clients: number, options: StandaloneOptions) => Promise<readonly string[]>,
): Promise<void> {
  if (!isMain(importMetaUrl)) return;
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' }, 'cpu-prof': { type: 'string' }, rounds: { type: 'string' } } });
  const options: StandaloneOptions = {
    ...(values['cpu-prof'] === undefined ? {} : { cpuProfDir: resolve(values['cpu-prof']) }),
    ...(values.rounds === undefined ? {} : { rounds: Number(values.rounds) }),
  };
  process.stdout.write(`${(await bench(Number(values.seconds ?? '3'), Number(values.clients ?? '64'), options)).join('\n')}\n`);
}

/**
 * Starts a sibling bench module (`raw-https-server`, ...) with `args` and waits for its output to match `ready`
 * (default 60 s).
 */
export async function startBenchModule(
  module: string, args: readonly string[], ready: RegExp, timeoutMs = 60_000,
): Promise<{ child: NodeChild; match: RegExpExecArray }> {
  const child = startNodeChild([...moduleEntry(benchPackageDir, module), ...args]);
  const match = await child.waitFor((out) => ready.exec(out) ?? undefined, timeoutMs);
  if (match.ok) return { child, match: match.value };
  await child.kill();
  throw new Error(`${module} ${describeWaitFailure(match.error)}:\n${child.output()}`);
}

/** The `p`th percentile of ascending `sorted` (nearest rank); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** `n` with `digits` decimals, `n/a` when not a finite number. */
export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
