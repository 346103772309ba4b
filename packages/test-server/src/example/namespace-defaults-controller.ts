/**
 * An example controller, written as one writes a controller against the API (client-go's pattern): watches of the
 * objects it cares about feed namespace keys into a deduplicating work queue, and one `sync(namespace)` makes the
 * world match — every namespace labelled `example.com/defaults=true` holds a ConfigMap `defaults` with the
 * controller's data, made again when someone deletes it. `sync` reads the current state each time, so a missed or
 * repeated event only costs a repeated sync. Its tests run it against a real server started in-process.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { RestClient } from '@svc-apiserver/client';

/** The label that opts a namespace in. */
export const defaultsLabel = 'example.com/defaults';

/** The name of the ConfigMap the controller keeps in each opted-in namespace. */
export const defaultsConfigMap = 'defaults';

/** Options of the controller. */
export interface NamespaceDefaultsOptions {
  readonly client: RestClient;
  /** The data every `defaults` ConfigMap holds. */
  readonly data: Readonly<Record<string, string>>;
  /** Sync failures (the key is retried after `retryDelayMs`). */
  readonly onError?: (namespace: string, message: string) => void;
  readonly retryDelayMs?: number;
}

/** A running controller. */
export interface RunningController {
  /** Resolves when every key queued so far has been synced (tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const namespaces = { group: '', version: 'v1', resource: 'namespaces' };

/**
 * A work queue with client-go's guarantees for one worker: a key queued while waiting is queued once, a key queued
 * while being processed is processed again afterwards, and keys are processed one at a time.
 */
function workQueue(process: (key: string) => Promise<boolean>, retryDelayMs: number): { add(key: string): void; idle(): Promise<void>; stop(): void } {
  const queued = new Set<string>();
  let running = false;
  let stopped = false;
  let waiters: Array<() => void> = [];
  const timers = new Set<NodeJS.Timeout>();
  const drain = async (): Promise<void> => {
    if (running) return;
    running = true;
    while (queued.size > 0 && !stopped) {
      const key = queued.values().next().value as string;
      queued.delete(key);
      const done = await process(key);
      if (!done && !stopped) {
        const t = setTimeout(() => {
          timers.delete(t);
          add(key);
        }, retryDelayMs);
        timers.add(t);
      }
    }
    running = false;
    if (queued.size === 0 && timers.size === 0) {
      for (const w of waiters) w();
      waiters = [];
    }
  };
  const add = (key: string): void => {
    if (stopped) return;
    queued.add(key);
    void drain();
  };
  return {
    add,
    idle: () => (queued.size === 0 && !running && timers.size === 0 ? Promise.resolve() : new Promise((r) => waiters.push(r))),
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      for (const w of waiters) w();
    },
  };
}

/** Starts the controller: an initial list, then watches, all feeding the queue. */
export async function startNamespaceDefaultsController(options: NamespaceDefaultsOptions): Promise<RunningController> {
  const { client } = options;
  const sync = async (namespace: string): Promise<boolean> => {
    const ns = await client.get(namespaces, namespace);
    if (!ns.ok) return ns.error.code === 404;
    const wanted = ns.value.metadata?.labels?.[defaultsLabel] === 'true' && (ns.value as { status?: { phase?: string } }).status?.phase !== 'Terminating';
    if (!wanted) return true;
    const cms = { group: '', version: 'v1', resource: 'configmaps', namespace };
    const current = await client.get(cms, defaultsConfigMap);
    const desired: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: defaultsConfigMap, namespace, labels: { 'example.com/managed-by': 'namespace-defaults' } }, data: { ...options.data } };
    let result = current;
    if (!current.ok && current.error.code === 404) result = await client.create(cms, desired);
    else if (current.ok && JSON.stringify(current.value.data ?? {}) !== JSON.stringify(options.data)) {
      // the resourceVersion read makes a concurrent change a Conflict, and the key is synced again
      result = await client.update(cms, { ...desired, metadata: { ...desired.metadata, resourceVersion: current.value.metadata?.resourceVersion ?? '' } });
    }
    if (!result.ok) options.onError?.(namespace, result.error.message ?? 'sync failed');
    return result.ok;
  };
  const queue = workQueue(sync, options.retryDelayMs ?? 200);
  const listed = await client.list(namespaces, { labelSelector: `${defaultsLabel}=true` });
  if (!listed.ok) throw new Error(`listing namespaces: ${listed.error.message ?? ''}`);
  for (const ns of listed.value.items) queue.add(ns.metadata?.name ?? '');
  const rv = listed.value.metadata?.resourceVersion;
  const nsWatch = client.watch(namespaces, { ...(rv === undefined ? {} : { resourceVersion: rv }) });
  const cmWatch = client.watch({ group: '', version: 'v1', resource: 'configmaps' }, { fieldSelector: `metadata.name=${defaultsConfigMap}`, ...(rv === undefined ? {} : { resourceVersion: rv }) });
  const pump = async (events: AsyncIterable<{ type: string; object: KubeObject }>, keyOf: (o: KubeObject) => string | undefined): Promise<void> => {
    for await (const e of events) {
      if (e.type === 'ERROR' || e.type === 'BOOKMARK') continue;
      const key = keyOf(e.object);
      if (key) queue.add(key);
    }
  };
  const pumps = Promise.all([
    pump(nsWatch, (o) => o.metadata?.name),
    pump(cmWatch, (o) => o.metadata?.namespace),
  ]);
  return {
    idle: () => queue.idle(),
    async stop() {
      nsWatch.close();
      cmWatch.close();
      queue.stop();
      await pumps.catch(() => undefined);
    },
  };
}
