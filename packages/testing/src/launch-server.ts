/**
 * The real server as a child process, for integration tests and benchmarks: a temp data dir, port 0 on 127.0.0.1,
 * the startup lines read from its output, and stop by SIGTERM or `kill -9`. Runs the server package's
 * `dist/main.js`, or `src/main.ts` through tsx when the caller runs from source.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fail, ok, type Result } from '@svc-apiserver/api';
import { describeWaitFailure, moduleEntry, repoRoot, startNodeChild, type ExitInfo } from './node-child.js';

/** The server package of this repository. */
export const serverPackageDir = join(repoRoot, 'packages', 'server');

/** How to start a server. */
export interface LaunchOptions {
  /** Reuse a data dir (restart); a fresh temp dir otherwise, removed by `stop`/`kill` unless `keepDataDir`. */
  readonly dataDir?: string;
  readonly keepDataDir?: boolean;
  readonly flavour?: 'svc' | 'k8s';
  readonly storage?: 'sqlite' | 'memory';
  readonly extraArgs?: readonly string[];
  /** Arguments of node itself, before the server's module (`--cpu-prof`, ...). */
  readonly nodeArgs?: readonly string[];
  /** How long to wait for `ready`, in ms. Default 60 s. */
  readonly readyTimeoutMs?: number;
  /**
   * What to wait for: the `ready` line (default; /readyz passes), or only the `serving` and kubeconfig lines, for a
   * server that cannot get ready yet (its storage down). `readyMs` is then 0.
   */
  readonly waitFor?: 'ready' | 'serving';
}

/** A running server process. */
export interface LaunchedServer {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** The admin kubeconfig the server wrote. */
  readonly kubeconfigPath: string;
  /** The ms the server reported in its `ready in` line. */
  readonly readyMs: number;
  readonly child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process exits. */
  readonly exited: Promise<ExitInfo>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 15 s); removes a temp data dir. */
  stop(graceMs?: number): Promise<ExitInfo>;
  /** `kill -9`: no chance to flush anything; removes a temp data dir. */
  kill(): Promise<ExitInfo>;
}

const servingRe = /^svc-apiserver: serving on (https:\/\/\S+)$/m;
const kubeconfigRe = /^svc-apiserver: admin kubeconfig written to (.+)$/m;
const readyRe = /^svc-apiserver: ready in (\d+(?:\.\d+)?)ms$/m;

/** The command line that starts the server in this mode (compiled or source). */
export function serverCommand(args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [...moduleEntry(serverPackageDir, 'main'), ...args] };
}

/** The startup facts read from the server's output. */
interface Started {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly readyMs: number;
}

/** Starts a server and waits for its startup lines (in the contract's order: serving, kubeconfig, ready). */
export async function launchServer(options: LaunchOptions = {}): Promise<LaunchedServer> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const removeOwnDir = (): void => {
    if (ownDir && !options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const args = [`--data-dir=${dataDir}`, '--secure-port=0', '--bind-address=127.0.0.1'];
  if (options.flavour) args.push(`--flavour=${options.flavour}`);
  if (options.storage) args.push(`--storage=${options.storage}`);
  args.push(...(options.extraArgs ?? []));
  const child = startNodeChild([...(options.nodeArgs ?? []), ...serverCommand(args).args], { env: { ...process.env, NODE_ENV: 'test' } });

  const waited = await child.waitFor((out): Result<Started, string> | undefined => {
    const s = servingRe.exec(out);
    const k = kubeconfigRe.exec(out);
    if (!s?.[1] || !k?.[1]) return undefined;
    if (options.waitFor === 'serving') return ok({ url: s[1], kubeconfigPath: k[1].trim(), readyMs: 0 });
    const r = readyRe.exec(out);
    if (!r?.[1]) return undefined;
    if (!(s.index < k.index && k.index < r.index)) return fail('startup lines out of order');
    return ok({ url: s[1], kubeconfigPath: k[1].trim(), readyMs: Number(r[1]) });
  }, options.readyTimeoutMs ?? 60_000);
  const started = waited.ok ? waited.value : fail(`server ${describeWaitFailure(waited.error)}`);
  if (!started.ok) {
    await child.kill();
    removeOwnDir();
    throw new Error(`${started.error}; output:\n${child.output()}`);
  }
  return {
    url: started.value.url,
    port: Number(new URL(started.value.url).port),
    dataDir,
    kubeconfigPath: started.value.kubeconfigPath,
    readyMs: started.value.readyMs,
    child: child.process,
    output: () => child.output(),
    exited: child.exited,
    async stop(graceMs = 15_000) {
      const e = await child.stop(graceMs);
      removeOwnDir();
      return e;
    },
    async kill() {
      const e = await child.kill();
      removeOwnDir();
      return e;
    },
  };
}
