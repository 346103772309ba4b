/**
 * The servers a reliability run talks to, each a replica with a succession of lives: a life begins when the server
 * serves and ends when it is killed (SIGKILL), stopped or restarted. Clients ask for the current life of a replica
 * and wait while it is down; the run asks when a life ended, because a write cut off by the end of a server that
 * owns its store (SQLite) cannot take effect afterwards.
 *
 * Replicas run as child processes (the real `svc-apiserver` command, killed with SIGKILL as a crash would) or
 * in-process through `startServer` (stopped gracefully; used where a run needs options that have no flag).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionConfig } from '@svc-apiserver/client';
import { serverCommand } from '@svc-apiserver/testing/launch-server';
import { startServerProcess, type ServerProcess } from '../e2e/server-process.js';
import { startServer, type RunningServer, type StartServerOptions } from '../server.js';

/** One life of a replica. */
export interface ReplicaLife {
  readonly config: ConnectionConfig;
  /** Counts the replica's lives from 0. */
  readonly generation: number;
}

/** A server the run's clients and watchers use. */
export interface Replica {
  readonly name: string;
  /** The life now serving, or undefined while the replica is down. */
  current(): ReplicaLife | undefined;
  /** Resolves with the life serving once the replica is up (at once when it is). */
  whenUp(): Promise<ReplicaLife>;
  /** When a life ended (harness clock, ms), or undefined while it lasts. */
  endOf(generation: number): number | undefined;
}

/** A replica the run can crash and restart. */
export interface ControlledReplica extends Replica {
  /** Ends the current life at once: SIGKILL for a process, a graceful close in-process. */
  kill(): Promise<void>;
  /** Starts a new life (after `kill`). */
  restart(): Promise<void>;
  /** Ends the current life gracefully (SIGTERM, or close) and resolves with the exit; idempotent. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Starts a life and kills it during its startup, `afterMs` after spawning (processes only). */
  killDuringStartup?(afterMs: number): Promise<void>;
  /** The replica's data directory (certificates; the SQLite store unless it uses etcd). */
  readonly dataDir: string;
  /** Releases the data directory. */
  dispose(): void;
}

/** The plumbing shared by both kinds: lives, their ends, and waiters for the next life. */
function lifeBook(name: string): {
  replica: Replica;
  begin(config: ConnectionConfig): void;
  end(): void;
} {
  let life: ReplicaLife | undefined;
  let generation = -1;
  const ends: number[] = [];
  let waiters: ((l: ReplicaLife) => void)[] = [];
  return {
    replica: {
      name,
      current: () => life,
      whenUp: () => (life !== undefined ? Promise.resolve(life) : new Promise((resolve) => waiters.push(resolve))),
      endOf: (g) => ends[g],
    },
    begin(config) {
      generation += 1;
      life = { config, generation };
      const ready = waiters;
      waiters = [];
      for (const w of ready) w(life);
    },
    end() {
      if (life === undefined) return;
      ends[life.generation] = performance.now();
      life = undefined;
    },
  };
}

/** Options of {@link startProcessReplica}. */
export interface ProcessReplicaOptions {
  readonly name: string;
  /** Flags beyond data dir, port and address (e.g. `--etcd-servers=...`). */
  readonly extraArgs?: readonly string[];
}

/** Starts `svc-apiserver` as a child process with its own data directory. */
export async function startProcessReplica(options: ProcessReplicaOptions): Promise<ControlledReplica> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-reliability-'));
  const book = lifeBook(options.name);
  let proc: ServerProcess | undefined;
  const launch = async (): Promise<void> => {
    proc = await startServerProcess({ dataDir, keepDataDir: true, extraArgs: options.extraArgs ?? [] });
    book.begin({ ...proc.admin, server: proc.url });
  };
  await launch();
  return {
    ...book.replica,
    dataDir,
    async kill() {
      const p = proc;
      proc = undefined;
      if (p === undefined) return;
      await p.kill();
      book.end();
    },
    async restart() {
      if (proc === undefined) await launch();
    },
    async stop() {
      const p = proc;
      proc = undefined;
      if (p === undefined) return { code: 0, signal: null };
      const exit = await p.stop();
      book.end();
      return exit;
    },
    async killDuringStartup(afterMs) {
      if (proc !== undefined) throw new Error('killDuringStartup needs the replica down');
      const cmd = serverCommand([`--data-dir=${dataDir}`, '--secure-port=0', '--bind-address=127.0.0.1', ...(options.extraArgs ?? [])]);
      const child = spawn(cmd.command, cmd.args, { stdio: 'ignore', env: { ...process.env, NODE_ENV: 'test' } });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await Promise.race([new Promise((resolve) => setTimeout(resolve, afterMs)), exited]);
      child.kill('SIGKILL');
      await exited;
    },
    dispose() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Options of {@link startInProcessReplica}. */
export interface InProcessReplicaOptions {
  readonly name: string;
  /** Server options beyond data dir, port, address and log. */
  readonly server?: StartServerOptions;
}

/** Starts the server in this process with its own data directory; `kill` is a graceful close here. */
export async function startInProcessReplica(options: InProcessReplicaOptions): Promise<ControlledReplica> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-reliability-'));
  const book = lifeBook(options.name);
  let server: RunningServer | undefined;
  const launch = async (): Promise<void> => {
    const s = await startServer({ ...options.server, dataDir, securePort: 0, bindAddress: '127.0.0.1', log: () => {} });
    await s.ready();
    server = s;
    book.begin({ server: s.url, ca: Buffer.from(s.ca), cert: Buffer.from(s.adminCert), key: Buffer.from(s.adminKey), namespace: 'default' });
  };
  const close = async (): Promise<{ code: number | null; signal: NodeJS.Signals | null }> => {
    const s = server;
    server = undefined;
    if (s === undefined) return { code: 0, signal: null };
    await s.close();
    book.end();
    return { code: 0, signal: null };
  };
  await launch();
  return {
    ...book.replica,
    dataDir,
    async kill() {
      await close();
    },
    async restart() {
      if (server === undefined) await launch();
    },
    stop: close,
    dispose() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
