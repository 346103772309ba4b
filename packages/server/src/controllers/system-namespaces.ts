/**
 * Creates the namespaces every cluster has when they are missing: `default` and the system, public and node-lease
 * namespaces (kube's start-system-namespaces-controller; the bootstrap controller, which keeps the `kubernetes`
 * Service, creates `default` again whenever it is missing). Retries until it succeeds. The creates of its first
 * attempt join the start-up batch.
 */
import type { Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import { createObject } from '../registry/operations/create-object.js';
import type { Registry } from '../registry/registry.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { runPostStartHook } from './post-start-hook.js';
import { directWriter, type StartupWriter } from './startup-batch.js';

/** A running bootstrap. */
export interface SystemNamespaces {
  readonly checks: HealthCheck[];
  /** Resolves once every namespace exists (or the bootstrap was stopped). */
  readonly done: Promise<void>;
  stop(): void;
}

/** kube's createNamespaceIfNeeded: creates the namespace unless it exists; undefined when done, else why not. */
export async function ensureNamespace(registry: Registry, name: string): Promise<string | undefined> {
  const def = registry.lookup('', 'v1', 'namespaces');
  if (def === undefined) return undefined;
  const got = await registry.store.get(def, '', name);
  if (got.ok) return undefined;
  const created = await createObject(registry, def, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, loopbackContext(registry.names, 'apiserver'));
  return created.ok || created.error.reason === 'AlreadyExists' ? undefined : created.error.message ?? 'namespace creation failed';
}

/** Starts the bootstrap; `retryMs` is the pause after a failed attempt; its creates go through `writer`. */
export function startSystemNamespaces(registry: Registry, names: Names, retryMs = 1000, writer?: StartupWriter): SystemNamespaces {
  const creates = writer ?? directWriter(registry);
  const wanted = ['default', names.name('systemNamespace'), names.name('publicNamespace'), names.name('nodeLeaseNamespace')];
  const hook = runPostStartHook(async () => {
    try {
      const def = registry.lookup('', 'v1', 'namespaces');
      if (def === undefined) return undefined;
      const present = await Promise.all(wanted.map((name) => registry.store.get(def, '', name)));
      const missing = wanted.filter((_, i) => !present[i]!.ok);
      const created = await creates.create(missing.map((name) => ({ def, object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } })));
      const failed = created.find((c) => !c.ok && c.error.reason !== 'AlreadyExists');
      return failed === undefined || failed.ok ? undefined : failed.error.message ?? 'namespace creation failed';
    } finally {
      creates.release();
    }
  }, retryMs);
  return {
    checks: [{ name: 'poststarthook/start-system-namespaces-controller', check: hook.check }],
    done: hook.done,
    stop: hook.stop,
  };
}
