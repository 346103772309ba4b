/**
 * The namespace controller (pkg/controller/namespace): for every namespace being deleted, deletes every object of
 * every served namespaced resource in it (through the same two-phase delete a client gets, so finalizers are
 * honoured), and once none remain removes the namespace finalizer through `/finalize` and deletes the namespace,
 * which is then removed. Namespaces still holding content are retried after a pause.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import { deleteObject } from '../registry/operations/delete-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import { selectEverything } from '../registry/selection.js';
import { controllerUser } from './controller-user.js';

/** A running namespace controller. */
export interface NamespaceController {
  readonly checks: HealthCheck[];
  /** Resolves when the work queue is empty (tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of the controller. */
export interface NamespaceControllerOptions {
  /** Pause before a namespace with remaining content is looked at again. */
  readonly retryMs?: number;
}

type SyncResult = 'done' | 'retry';

/** Starts the controller. */
export function startNamespaceController(registry: Registry, names: Names, options: NamespaceControllerOptions = {}): NamespaceController {
  const retryMs = options.retryMs ?? 1000;
  const finalizer = names.name('namespaceFinalizer');
  const nsDef = registry.lookup('', 'v1', 'namespaces');
  const op = { user: controllerUser, dryRun: false };
  const queue = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let running = false;
  let stopped = false;
  let watching = false;
  let cancelWatch: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];

  const removeContent = async (namespace: string): Promise<number> => {
    let remaining = 0;
    for (const def of registry.all()) {
      if (!def.namespaced) continue;
      const listed = await registry.store.list(def, { namespace, selection: selectEverything });
      if (!listed.ok) {
        remaining++;
        continue;
      }
      for (const item of listed.value.items) {
        const result = await deleteObject(registry, def, namespace, item.metadata?.name ?? '', op);
        if (!result.ok ? result.status.code !== 404 : !result.value.removed) remaining++;
      }
    }
    return remaining;
  };

  const sync = async (name: string): Promise<SyncResult> => {
    if (nsDef === undefined) return 'done';
    const got = await registry.store.get(nsDef, '', name);
    if (!got.ok) return got.status.code === 404 ? 'done' : 'retry';
    const ns = got.value;
    if (ns.metadata?.deletionTimestamp === undefined) return 'done';
    if (await removeContent(name) > 0) return 'retry';
    const spec = (ns.spec ?? {}) as { finalizers?: string[] };
    if ((spec.finalizers ?? []).includes(finalizer)) {
      const next: KubeObject = structuredClone(ns);
      (next.spec as { finalizers?: string[] }).finalizers = (spec.finalizers ?? []).filter((f) => f !== finalizer);
      const finalized = await updateObject(registry, nsDef, 'finalize', next, ns, op);
      if (!finalized.ok) return 'retry';
      if (((finalized.value.spec ?? {}) as { finalizers?: string[] }).finalizers?.length) return 'done';
    } else if ((spec.finalizers ?? []).length > 0) {
      return 'done';
    }
    const deleted = await deleteObject(registry, nsDef, '', name, op, ns.metadata?.uid ? { uid: ns.metadata.uid } : undefined);
    if (!deleted.ok) return deleted.status.code === 404 ? 'done' : 'retry';
    return 'done';
  };

  const run = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      while (!stopped && queue.size > 0) {
        const name = queue.values().next().value as string;
        queue.delete(name);
        let result: SyncResult;
        try {
          result = await sync(name);
        } catch {
          result = 'retry';
        }
        if (result === 'retry' && !stopped) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            enqueue(name);
          }, retryMs);
          timers.add(timer);
        }
      }
    } finally {
      running = false;
      if (queue.size === 0 && timers.size === 0) {
        for (const w of idleWaiters.splice(0)) w();
      }
    }
  };

  function enqueue(name: string): void {
    if (stopped) return;
    queue.add(name);
    void run();
  }

  const watch = async (): Promise<void> => {
    if (nsDef === undefined || stopped) return;
    const started = await registry.store.watch(nsDef, { namespace: '', selection: selectEverything }, {
      event(e) {
        if (e.type !== 'DELETED' && e.object.metadata?.deletionTimestamp !== undefined) enqueue(e.object.metadata.name ?? '');
      },
      error() {
        // History gone or store lost: list and watch again.
        watching = false;
        cancelWatch?.();
        setTimeout(() => void watch(), retryMs).unref();
      },
    });
    if (started.ok) {
      cancelWatch = () => started.value.cancel();
      watching = true;
    } else {
      setTimeout(() => void watch(), retryMs).unref();
    }
  };
  void watch();

  return {
    checks: [{ name: 'namespace-controller', check: async () => (watching || nsDef === undefined ? undefined : 'not watching namespaces') }],
    idle() {
      if (!running && queue.size === 0 && timers.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      stopped = true;
      cancelWatch?.();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const w of idleWaiters.splice(0)) w();
      idleWaiters = [];
    },
  };
}
