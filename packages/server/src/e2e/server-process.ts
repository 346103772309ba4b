/**
 * Runs the real server as a child process for integration tests: a temp data dir, port 0 on 127.0.0.1, the
 * startup lines parsed from stdout, admin and anonymous clients, and stop by SIGTERM or `kill -9`.
 * Runs `dist/main.js` when the tests run compiled and `src/main.ts` through tsx when they run from source.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { createNamespace } from './http.js';
import { createClient, loadKubeconfig, type ConnectionConfig, type RestClient } from '@svc-apiserver/client';

const here = fileURLToPath(import.meta.url);
const fromSource = here.endsWith('.ts');
/** packages/server */
export const serverPackageDir = resolve(dirname(here), '..', '..');
/** The repository root (where tsx resolves for `--import tsx`). */
export const repoRoot = resolve(serverPackageDir, '..', '..');

/** How to start a server. */
export interface ServerProcessOptions {
  /** Reuse a data dir (restart); a fresh temp dir otherwise, removed by `stop`/`kill` unless `keepDataDir`. */
  readonly dataDir?: string;
  readonly keepDataDir?: boolean;
  readonly flavour?: 'svc' | 'k8s';
  readonly storage?: 'sqlite' | 'memory';
  readonly extraArgs?: readonly string[];
  /** How long to wait for `ready`, in ms. Default 60 s. */
  readonly readyTimeoutMs?: number;
  /**
   * What to wait for: the `ready` line (default; /readyz passes), or only the `serving` and kubeconfig lines, for a
   * server that cannot get ready yet (its storage down). `readyMs` is then 0.
   */
  readonly waitFor?: 'ready' | 'serving';
}

/** How a child ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running server. */
export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly kubeconfigPath: string;
  /** The ms the server reported in its `ready in` line. */
  readonly readyMs: number;
  readonly child: ChildProcess;
  /** The admin connection from the written kubeconfig. */
  readonly admin: ConnectionConfig;
  /** A client with the admin certificate. */
  readonly client: RestClient;
  /** A client that verifies the server but presents no credentials. */
  readonly anonymous: RestClient;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process exits. */
  readonly exited: Promise<ExitInfo>;
  /** SIGTERM, then SIGKILL after `graceMs`; closes the clients; removes a temp data dir. */
  stop(graceMs?: number): Promise<ExitInfo>;
  /** `kill -9`: no chance to flush anything. */
  kill(): Promise<ExitInfo>;
}

const servingRe = /^svc-apiserver: serving on (https:\/\/\S+)$/m;
const kubeconfigRe = /^svc-apiserver: admin kubeconfig written to (.+)$/m;
const readyRe = /^svc-apiserver: ready in (\d+(?:\.\d+)?)ms$/m;

/** The command line that starts the server in this mode (compiled or source). */
export function serverCommand(args: readonly string[]): { command: string; args: string[] } {
  const entry = fromSource
    ? ['--import', 'tsx', join(serverPackageDir, 'src', 'main.ts')]
    : [join(serverPackageDir, 'dist', 'main.js')];
  return { command: process.execPath, args: [...entry, ...args] };
}

/** Starts a server and waits for its three startup lines. */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const args = [`--data-dir=${dataDir}`, '--secure-port=0', '--bind-address=127.0.0.1'];
  if (options.flavour) args.push(`--flavour=${options.flavour}`);
  if (options.storage) args.push(`--storage=${options.storage}`);
  args.push(...(options.extraArgs ?? []));
  const cmd = serverCommand(args);
  const child = spawn(cmd.command, cmd.args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } });
  let out = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  const exited = new Promise<ExitInfo>((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));

  const ready = await new Promise<{ url: string; kubeconfigPath: string; readyMs: number } | { error: string }>((resolveReady) => {
    const timer = setTimeout(() => resolveReady({ error: `server not ready after ${options.readyTimeoutMs ?? 60_000}ms` }), options.readyTimeoutMs ?? 60_000);
    const onData = (chunk: string): void => {
      out += chunk;
      const s = servingRe.exec(out);
      const k = kubeconfigRe.exec(out);
      const r = readyRe.exec(out);
      if (s?.[1] && k?.[1] && options.waitFor === 'serving') {
        clearTimeout(timer);
        resolveReady({ url: s[1], kubeconfigPath: k[1].trim(), readyMs: 0 });
      } else if (s?.[1] && k?.[1] && r?.[1]) {
        clearTimeout(timer);
        // the lines must come in the contract's order
        if (!(s.index < k.index && k.index < r.index)) resolveReady({ error: 'startup lines out of order' });
        else resolveReady({ url: s[1], kubeconfigPath: k[1].trim(), readyMs: Number(r[1]) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: string) => { out += c; });
    void exited.then((e) => {
      clearTimeout(timer);
      resolveReady({ error: `server exited early (code ${e.code}, signal ${e.signal})` });
    });
  });
  if ('error' in ready) {
    child.kill('SIGKILL');
    await exited;
    if (ownDir && !options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${ready.error}; output:\n${out}`);
  }
  const conn = loadKubeconfig({ path: ready.kubeconfigPath });
  if (!conn.ok) {
    child.kill('SIGKILL');
    throw new Error(`admin kubeconfig unusable: ${conn.error}`);
  }
  const client = createClient(conn.value);
  const anonConfig: ConnectionConfig = { server: conn.value.server, namespace: 'default', ...(conn.value.ca ? { ca: conn.value.ca } : {}) };
  const anonymous = createClient(anonConfig);
  const cleanup = (): void => {
    client.close();
    anonymous.close();
    if (ownDir && !options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const port = Number(new URL(ready.url).port);
  return {
    url: ready.url,
    port,
    dataDir,
    kubeconfigPath: ready.kubeconfigPath,
    readyMs: ready.readyMs,
    child,
    admin: conn.value,
    client,
    anonymous,
    output: () => out,
    exited,
    async stop(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const e = await exited;
        clearTimeout(timer);
        cleanup();
        return e;
      }
      cleanup();
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      const e = await exited;
      cleanup();
      return e;
    },
  };
}

/**
 * One server for a whole test file: started, with `namespace` created in it, before the file's tests and stopped
 * after them. Returns a getter, since the server exists only once the file's `before` hook has run.
 */
export function serverForFile(options: ServerProcessOptions = {}, namespace?: string): () => ServerProcess {
  let server: ServerProcess | undefined;
  before(async () => {
    server = await startServerProcess(options);
    if (namespace !== undefined) await createNamespace(server.client, namespace);
  });
  after(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error('the test file\'s server has not started');
    return server;
  };
}
