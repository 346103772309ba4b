/**
 * Shared pieces of the overload tests: the server in its own process (see overload-server.ts), the scale switch
 * (`SVC_SOAK=1` runs every check at full scale), percentiles and TLS clients.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { OverloadServerMessage, OverloadServerOptions, OverloadServerRequest, OverloadServerStats } from './overload-server.js';

/** True when the soak runs: checks use their full scale. */
export const soak = process.env['SVC_SOAK'] === '1';

/** A running overload server. */
export interface OverloadServer {
  readonly url: string;
  readonly port: number;
  readonly ca: string;
  readonly adminCert: string;
  readonly adminKey: string;
  readonly servingCert: string;
  readonly servingKey: string;
  readonly child: ChildProcess;
  stats(): Promise<OverloadServerStats>;
  stop(): Promise<void>;
}

const entry = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './overload-server.ts' : './overload-server.js', import.meta.url));

/** Forks the server process and waits until it serves. */
export async function startOverloadServer(options: OverloadServerOptions = {}): Promise<OverloadServer> {
  const child = fork(entry, [JSON.stringify(options)], {
    execArgv: [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), '--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Extract<OverloadServerMessage, { kind: 'ready' }>>((resolve, reject) => {
    child.once('message', (m: OverloadServerMessage) => (m.kind === 'ready' ? resolve(m) : reject(new Error(m.kind === 'failed' ? m.message : m.kind))));
    child.once('exit', (code) => reject(new Error(`the server process exited with ${code}`)));
  });
  const ask = (request: OverloadServerRequest): void => void child.send(request);
  return {
    url: ready.url,
    port: Number(new URL(ready.url).port),
    ca: ready.ca,
    adminCert: ready.adminCert,
    adminKey: ready.adminKey,
    servingCert: ready.servingCert,
    servingKey: ready.servingKey,
    child,
    stats: () => new Promise((resolve) => {
      const on = (m: OverloadServerMessage): void => {
        if (m.kind !== 'stats') return;
        child.off('message', on);
        resolve(m.stats);
      };
      child.on('message', on);
      ask({ kind: 'stats' });
    }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      ask({ kind: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The `p`-quantile (0..1) of `values`, by rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** Polls `probe` until it holds or `ms` pass; returns its last answer. */
export async function until(probe: () => Promise<boolean>, ms: number, everyMs = 100): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Megabytes, for messages. */
export const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;
