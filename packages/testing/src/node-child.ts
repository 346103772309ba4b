/**
 * Node child processes for tests and benchmarks: a module run by this node, its output collected, a wait for what
 * it prints, and stop by SIGTERM then SIGKILL. Modules run compiled, or from source through tsx when this package
 * itself runs from source (`node --import tsx`), so children run the same form of the code as their parent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, ok, type Result } from '@svc-apiserver/api';

const here = fileURLToPath(import.meta.url);

/** True when this package runs from source (tsx): children then run from source too. */
export const fromSource = here.endsWith('.ts');

/** The repository root (where tsx resolves for `--import tsx`, and the working directory of children). */
export const repoRoot = resolve(dirname(here), '..', '..', '..');

/**
 * Node arguments that run a module of a package of this repository: `<package>/dist/<module>.js`, or
 * `<package>/src/<module>.ts` through tsx from source (`module` without extension, `main`, `raw-https-server`).
 */
export function moduleEntry(packageDir: string, module: string): string[] {
  return fromSource ? ['--import', 'tsx', join(packageDir, 'src', `${module}.ts`)] : [join(packageDir, 'dist', `${module}.js`)];
}

/** How a child ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Why a wait ended without an answer: the time ran out, or the child exited first. */
export type WaitFailure = { readonly reason: 'timeout'; readonly timeoutMs: number } | { readonly reason: 'exited'; readonly exit: ExitInfo };

/** Words for a {@link WaitFailure}: `not ready after 60000ms`, `exited early (code 2, signal null)`. */
export function describeWaitFailure(failure: WaitFailure): string {
  return failure.reason === 'timeout'
    ? `not ready after ${failure.timeoutMs}ms`
    : `exited early (code ${failure.exit.code}, signal ${failure.exit.signal})`;
}

/** A started node child. */
export interface NodeChild {
  readonly process: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves when it exits. */
  readonly exited: Promise<ExitInfo>;
  /**
   * The first answer of `probe` over the output so far (asked at each output), or why there was none: the child
   * exited first, or `timeoutMs` (default 60 s) passed.
   */
  waitFor<T>(probe: (output: string) => T | undefined, timeoutMs?: number): Promise<Result<T, WaitFailure>>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 10 s); resolves when it exited. */
  stop(graceMs?: number): Promise<ExitInfo>;
  /** SIGKILL at once, as a crash would. */
  kill(): Promise<ExitInfo>;
}

/** Options of {@link startNodeChild}. */
export interface NodeChildOptions {
  /** Default: the repository root. */
  readonly cwd?: string;
  /** Default: this process's environment. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts `node <args>` with its output piped. */
export function startNodeChild(args: readonly string[], options: NodeChildOptions = {}): NodeChild {
  const child = spawn(process.execPath, [...args], { cwd: options.cwd ?? repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  let out = '';
  const watchers = new Set<() => void>();
  const take = (chunk: string): void => {
    out += chunk;
    for (const w of [...watchers]) w();
  };
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<ExitInfo>((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  return {
    process: child,
    output: () => out,
    exited,
    waitFor<T>(probe: (output: string) => T | undefined, timeoutMs = 60_000): Promise<Result<T, WaitFailure>> {
      return new Promise((settle) => {
        let timer: NodeJS.Timeout | undefined;
        const finish = (result: Result<T, WaitFailure>): void => {
          watchers.delete(check);
          if (timer !== undefined) clearTimeout(timer);
          settle(result);
        };
        const check = (): void => {
          const answer = probe(out);
          if (answer !== undefined) finish(ok(answer));
        };
        timer = setTimeout(() => finish(fail({ reason: 'timeout', timeoutMs })), timeoutMs);
        watchers.add(check);
        void exited.then((exit) => finish(fail({ reason: 'exited', exit })));
        check();
      });
    },
    async stop(graceMs = 10_000) {
      if (!running()) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const e = await exited;
      clearTimeout(timer);
      return e;
    },
    async kill() {
      if (running()) child.kill('SIGKILL');
      return exited;
    },
  };
}
