/**
 * An example controller, written as client-go controllers are: shared informers keep local caches of the objects
 * it cares about and feed namespace keys into a work queue; workers take keys one at a time and `sync(namespace)`
 * makes the world match — every namespace labelled `example.com/defaults=true` holds a ConfigMap `defaults` with
 * the controller's data, made again when someone deletes or edits it. `sync` reads the caches, never the events,
 * so a missed or repeated event only costs a repeated sync; a failed write (a Conflict with a change the cache has
 * not seen yet) is retried with the queue's per-key back-off. Its tests run it against a real server in-process.
 */
import type { Result } from '@svc-apiserver/api';
import { coreV1, createInformerFactory, createWorkQueue, typed, type RestClient } from '@svc-apiserver/client';

/** The label that opts a namespace in. */
export const defaultsLabel = 'example.com/defaults';

/** The name of the ConfigMap the controller keeps in each opted-in namespace. */
export const defaultsConfigMap = 'defaults';

/** Options of the controller. */
export interface NamespaceDefaultsOptions {
  readonly client: RestClient;
  /** The data every `defaults` ConfigMap holds. */
  readonly data: Readonly<Record<string, string>>;
  /** Sync failures (the key is retried with back-off). */
  readonly onError?: (namespace: string, message: string) => void;
  /** Keys synced at once. Default 2. */
  readonly workers?: number;
}

/** A running controller. */
export interface RunningController {
  /** Resolves when nothing is queued, being synced or waiting for a retry (tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the controller; resolves once its caches are filled and its workers run. */
export async function startNamespaceDefaultsController(options: NamespaceDefaultsOptions): Promise<RunningController> {
  const { client } = options;
  const factory = createInformerFactory(client);
  const namespaces = factory.informerFor<coreV1.Namespace>({ group: '', version: 'v1', resource: 'namespaces' });
  const configMaps = factory.informerFor<coreV1.ConfigMap>(
    { group: '', version: 'v1', resource: 'configmaps' }, { fieldSelector: `metadata.name=${defaultsConfigMap}` });
  const queue = createWorkQueue();

  namespaces.addEventHandler({
    onAdd: (ns) => queue.add(ns.metadata?.name ?? ''),
    onUpdate: (_old, ns) => queue.add(ns.metadata?.name ?? ''),
  });
  const byNamespace = (cm: coreV1.ConfigMap): void => queue.add(cm.metadata?.namespace ?? '');
  configMaps.addEventHandler({ onAdd: byNamespace, onUpdate: (_old, cm) => byNamespace(cm), onDelete: byNamespace });

  const sameData = (data: Readonly<Record<string, string>> | undefined): boolean =>
    JSON.stringify(Object.entries(data ?? {}).sort()) === JSON.stringify(Object.entries(options.data).sort());

  /** Makes one namespace match; answers whether it had to write, or the write's failure. */
  async function sync(namespace: string): Promise<Result<unknown>> {
    const ns = namespaces.store.getByName(namespace);
    const wanted = ns?.metadata?.labels?.[defaultsLabel] === 'true' && ns.status?.phase !== 'Terminating';
    if (!wanted) return { ok: true, value: undefined };
    const cms = typed(client, coreV1.configmaps, namespace);
    const current = configMaps.store.getByName(defaultsConfigMap, namespace);
    const desired: coreV1.ConfigMap = {
      metadata: { name: defaultsConfigMap, labels: { 'example.com/managed-by': 'namespace-defaults' } },
      data: { ...options.data },
    };
    if (current === undefined) return cms.create(desired);
    if (sameData(current.data)) return { ok: true, value: undefined };
    // the resourceVersion cached makes a change the cache has not seen yet a Conflict: the key is retried
    return cms.update({ ...desired, metadata: { ...desired.metadata, resourceVersion: current.metadata?.resourceVersion ?? '' } });
  }

  async function worker(): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        const result = await sync(key);
        if (result.ok) queue.forget(key);
        else {
          options.onError?.(key, result.error.message ?? 'sync failed');
          queue.addRateLimited(key);
        }
      } finally {
        queue.done(key);
      }
    }
  }

  factory.start();
  if (!(await factory.waitForCacheSync())) throw new Error('the caches never filled');
  const workers = Array.from({ length: options.workers ?? 2 }, () => worker());
  return {
    idle: () => queue.idle(),
    async stop() {
      await queue.shutDown();
      await Promise.all(workers);
      await factory.stop();
    },
  };
}
