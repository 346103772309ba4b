/**
 * What every benchmark shares: where the repository and the server's entry point are (from source through tsx or
 * compiled, the children follow the parent), starting a node child and waiting for its ready line, percentiles and
 * number formatting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
/** The directory of the bench's modules (src from source, dist compiled). */
export const benchDir = dirname(self);
/** The repository root. */
export const repoRoot = resolve(benchDir, '..', '..');
/** True when the benchmark runs from source (tsx): the children it starts do too. */
export const fromSource = self.endsWith('.ts');

/** Node arguments running the API server's entry point. */
export const serverEntry: readonly string[] = fromSource
  ? ['--import', 'tsx', join(repoRoot, 'packages', 'server', 'src', 'main.ts')]
  : [join(repoRoot, 'packages', 'server', 'dist', 'main.js')];

/** Node arguments running a sibling bench module (`raw-https-server`, ...). */
export function benchEntry(module: string): string[] {
  return fromSource ? ['--import', 'tsx', join(benchDir, `${module}.ts`)] : [join(benchDir, `${module}.js`)];
}

/** True when the module at `importMetaUrl` is the one node was started with. */
export function isMain(importMetaUrl: string): boolean {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(importMetaUrl);
}

/** A started node child. */
export interface Child {
  readonly process: ChildProcess;
  /** Its stdout lines so far. */
  readonly lines: string[];
  /** SIGTERM, then SIGKILL after 10 s; resolves when it exited. */
  stop(): Promise<void>;
}

/** Starts a node child and waits for its stdout to match `ready`. */
export function startChild(args: readonly string[], ready: RegExp, timeoutMs = 60_000): Promise<{ child: Child; match: RegExpExecArray }> {
  const proc = spawn(process.execPath, [...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let out = '';
  const child: Child = {
    process: proc,
    lines,
    stop: () => new Promise((res) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return res();
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      proc.once('exit', () => { clearTimeout(t); res(); });
      proc.kill('SIGTERM');
    }),
  };
  return new Promise((res, rej) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); rej(new Error(`not ready after ${timeoutMs}ms:\n${out}`)); }, timeoutMs);
    proc.stderr?.on('data', (c: Buffer) => { out += c.toString(); });
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      lines.push(...c.toString().split('\n').filter(Boolean));
      const m = ready.exec(out);
      if (m) { clearTimeout(timer); res({ child, match: m }); }
    });
    proc.once('exit', (code) => { clearTimeout(timer); rej(new Error(`exited with ${code}:\n${out}`)); });
  });
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
