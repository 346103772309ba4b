/**
 * The server of the overload tests, alone in its own process so that its memory and handles are its own: forked
 * with its start options as JSON, it reports where it serves once ready, then answers `stats` (after a full garbage
 * collection when run with --expose-gc) and stops on `stop`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type StartServerOptions } from '../server.js';
import { pkiFiles } from '../pki/ensure-pki.js';

/** What the test process sends. */
export type OverloadServerRequest = { readonly kind: 'stats' } | { readonly kind: 'stop' };

/** What the server process reports. */
export type OverloadServerMessage =
  | {
    readonly kind: 'ready'; readonly url: string; readonly ca: string; readonly adminCert: string; readonly adminKey: string;
    /** The serving certificate and key, for a control server that answers TLS clients as this one does. */
    readonly servingCert: string; readonly servingKey: string;
  }
  | { readonly kind: 'stats'; readonly stats: OverloadServerStats }
  | { readonly kind: 'failed'; readonly message: string };

/** The server process's memory and live handles. */
export interface OverloadServerStats {
  readonly rss: number;
  readonly heapUsed: number;
  /** Memory of buffers and other objects outside V8's heap that JavaScript holds. */
  readonly external: number;
  /** Open TCP connections (the listener not counted). */
  readonly sockets: number;
  /** Pending timers: every watch holds one until it ends. */
  readonly timers: number;
  /** How late the event loop ran timers since the last stats (p99 and max, ms): how long it was held. */
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
}

/** The event loop's delay, sampled every 10 ms. */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

/** Start options as the test sends them: `tokens` becomes a token file (`token,user,uid,"groups"` lines). */
export type OverloadServerOptions = Omit<StartServerOptions, 'log' | 'dataDir'> & { readonly tokens?: string };

function stats(): OverloadServerStats {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  const resources = process.getActiveResourcesInfo();
  const p99 = loopDelay.percentile(99) / 1e6;
  const max = loopDelay.max / 1e6;
  loopDelay.reset();
  return {
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external,
    sockets: resources.filter((r) => r === 'TCPSocketWrap').length,
    timers: resources.filter((r) => r === 'Timeout').length,
    loopDelayP99Ms: Math.round(p99),
    loopDelayMaxMs: Math.round(max),
  };
}

async function main(): Promise<void> {
  const send = (m: OverloadServerMessage): void => void process.send?.(m);
  const { tokens, ...options } = JSON.parse(process.argv[2] ?? '{}') as OverloadServerOptions;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-overload-'));
  if (tokens !== undefined) writeFileSync(join(dataDir, 'tokens.csv'), tokens);
  try {
    const server = await startServer({
      ...options, dataDir, securePort: 0, bindAddress: '127.0.0.1', log: () => {},
      ...(tokens !== undefined ? { tokenAuthFile: join(dataDir, 'tokens.csv') } : {}),
    });
    await server.ready();
    process.on('message', (m: OverloadServerRequest) => {
      if (m.kind === 'stats') send({ kind: 'stats', stats: stats() });
      else void server.close().finally(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    });
    loopDelay.enable();
    send({
      kind: 'ready', url: server.url, ca: server.ca, adminCert: server.adminCert, adminKey: server.adminKey,
      servingCert: readFileSync(join(dataDir, pkiFiles.servingCert), 'utf8'), servingKey: readFileSync(join(dataDir, pkiFiles.servingKey), 'utf8'),
    });
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    send({ kind: 'failed', message: e instanceof Error ? e.stack ?? e.message : String(e) });
    process.exit(1);
  }
}

void main();
