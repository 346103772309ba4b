/**
 * The controllers that run inside the server process: the system namespace bootstrap, the namespace
 * controller and the garbage collector. They act on the registry in-process (not over HTTP), through the same operations as clients.
 */
import type { Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import type { Registry } from '../registry/registry.js';
import { startGarbageCollector } from './garbage-collector.js';
import { startNamespaceController } from './namespace-controller.js';
import { startSystemNamespaces } from './system-namespaces.js';

/** What {@link startControllers} needs. */
export interface ControllerOptions {
  readonly registry: Registry;
  readonly names: Names;
  /** Pause before retrying failed or unfinished work (default 1 s). */
  readonly retryMs?: number;
}

/** Running controllers. */
export interface Controllers {
  readonly checks: HealthCheck[];
  stop(): Promise<void>;
}

/** Starts every controller. */
export async function startControllers(options: ControllerOptions): Promise<Controllers> {
  const retryMs = options.retryMs ?? 1000;
  const bootstrap = startSystemNamespaces(options.registry, options.names, retryMs);
  const namespaces = startNamespaceController(options.registry, options.names, { retryMs });
  const garbage = startGarbageCollector(options.registry, { retryMs });
  return {
    checks: [...bootstrap.checks, ...namespaces.checks, ...garbage.checks],
    async stop() {
      bootstrap.stop();
      await bootstrap.done;
      await namespaces.stop();
      await garbage.stop();
    },
  };
}
