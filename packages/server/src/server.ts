/**
 * `startServer(options)`: the whole server in-process (kube-apiserver's CreateServerChain + Run, in one call).
 * Opens the store, loads the catalog, builds admission, the registry and the controllers, ensures the PKI and
 * serves HTTPS. `close()` shuts down gracefully in kube-apiserver's order: readyz fails, after the shutdown delay
 * the listener closes, in-flight requests finish, watches end, controllers stop, the store closes.
 */
import { join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { namesFor } from '@svc-apiserver/api';
import { defaultServerOptions, type ServerOptions } from './config.js';
import type { Backend } from './storage/backend.js';
import { openSqliteBackend } from './storage/sqlite/sqlite-backend.js';
import { openMemoryBackend } from './storage/memory/memory-backend.js';
import { startCompactor } from './storage/compactor.js';
import { loadCatalog } from './schema/load-catalog.js';
import { createRegistry } from './registry/registry.js';
import { createAdmissionChain } from './admission/chain.js';
import { startControllers } from './controllers/index.js';
import { resourceHandler } from './http/handlers/resource-handler.js';
import { openapiV2Document } from './openapi/v2.js';
import { openapiV3Document, openapiV3Index } from './openapi/v3.js';
import type { ServedResource } from './openapi/served.js';
import type { OpenApiSource } from './http/routes/openapi.js';
import { startApiServer, type ApiServer } from './http/api-server.js';
import { storageCheck, flagCheck } from './health/checks.js';
import type { ResourceDef } from './registry/resource-def.js';

/** Options of {@link startServer}: the flags, each optional (defaults as the flags'). */
export type StartServerOptions = Partial<ServerOptions> & {
  /** Where log lines go (default: stderr). */
  readonly log?: (message: string, error?: unknown) => void;
  /** Compaction window of the store's history (default 5 minutes). */
  readonly compactionWindowMs?: number;
};

/** A running server: where it serves, the admin credentials, and how long it took to start. */
export interface RunningServer extends Omit<ApiServer, 'shuttingDown'> {
  /** Milliseconds from the call to ready. */
  readonly startupMs: number;
}

/** The default log: one line per message on stderr. */
export function stderrLog(message: string, error?: unknown): void {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  process.stderr.write(`svc-apiserver: ${message}${detail}\n`);
}

/** The served set the OpenAPI documents cover: every served resource and subresource. */
function servedForOpenApi(defs: readonly ResourceDef[]): ServedResource[] {
  const out: ServedResource[] = [];
  for (const d of defs) {
    out.push({ groupKey: d.groupKey, version: d.version, resource: d.resource });
    for (const s of d.subresources) out.push({ groupKey: d.groupKey, version: d.version, resource: `${d.resource}/${s.name}` });
  }
  return out;
}

/** Starts a server. Rejects when it cannot start (bad admission plugin name, port in use, unreadable data). */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const started = performance.now();
  const o: ServerOptions = { ...defaultServerOptions, ...options };
  const log = options.log ?? stderrLog;
  const names = namesFor(o.flavour);
  const dataDir = resolve(o.dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });

  const backend: Backend = o.storage === 'memory' ? openMemoryBackend() : openSqliteBackend({ path: join(dataDir, 'state.db') });
  const cleanups: (() => Promise<void> | void)[] = [() => backend.close()];
  const cleanup = async (): Promise<void> => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (e) {
        log('shutdown step failed', e);
      }
    }
  };
  try {
    const compactor = startCompactor(backend, {
      windowMs: options.compactionWindowMs ?? 5 * 60 * 1000,
      onError: (e) => log('compaction failed', e),
    });
    cleanups.push(() => compactor.stop());
    const catalog = loadCatalog(names);
    const admission = createAdmissionChain({ enable: [...o.enableAdmissionPlugins], disable: [...o.disableAdmissionPlugins], names });
    if (!admission.ok) throw new Error(admission.status.message ?? 'invalid admission configuration');
    const registry = createRegistry({ backend, catalog, names, admission: admission.value });
    let controllersStarted = false;
    const controllers = await startControllers({ registry, names });
    controllersStarted = true;
    cleanups.push(() => controllers.stop());

    let protobufCache: { hash: string; bytes: Uint8Array } | undefined;
    const served = (): ServedResource[] => servedForOpenApi(registry.all());
    const openapi: OpenApiSource = {
      v2: () => openapiV2Document(catalog, served()),
      v2Protobuf: async () => {
        const doc = openapiV2Document(catalog, served());
        // protobufjs is loaded on the first request for this form (kubectl's), not at start.
        const { openapiV2Protobuf } = await import('./openapi/v2-protobuf.js');
        if (protobufCache?.hash !== doc.hash) protobufCache = { hash: doc.hash, bytes: openapiV2Protobuf(doc.document) };
        return protobufCache.bytes;
      },
      v3Index: () => openapiV3Index(catalog, served()),
      v3: (gv) => openapiV3Document(catalog, gv, served()),
    };

    const api = await startApiServer({
      dataDir,
      bindAddress: o.bindAddress,
      port: o.securePort,
      tlsSans: o.tlsSans,
      names,
      maxRequestBodyBytes: o.maxRequestBodyBytes,
      livezGracePeriodMs: o.livezGracePeriodMs,
      shutdownDelayMs: o.shutdownDelayMs,
      resourceHandler: resourceHandler(registry),
      resources: () => registry.all(),
      openapi,
      checks: [storageCheck(backend), ...controllers.checks],
      readyChecks: [flagCheck('informer-sync', () => controllersStarted, 'controllers have not started')],
      log,
    });
    let closing: Promise<void> | undefined;
    return {
      url: api.url,
      port: api.port,
      dataDir: api.dataDir,
      kubeconfigPath: api.kubeconfigPath,
      ca: api.ca,
      adminCert: api.adminCert,
      adminKey: api.adminKey,
      startupMs: Math.round(performance.now() - started),
      close() {
        closing ??= (async () => {
          await api.close();
          await cleanup();
        })();
        return closing;
      },
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
