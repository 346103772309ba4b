/**
 * The objects every server writes at start, created together. kube-apiserver's bootstrap writers (the system
 * namespaces, the default RBAC policy, the API Priority and Fairness configuration, ...) each create their objects
 * one request after another; here each writer hands the creates of its first attempt to one batch, and once every
 * writer has, they are created in two transactions: the cluster-scoped objects (the namespaces among them) first,
 * then the namespaced ones, whose namespace admission requires to exist.
 *
 * A writer joins while the server starts, before it is sealed; the batch is created when it is sealed and every
 * writer has handed its creates (or released its place, when its first attempt ends without creates). Later creates
 * (retries, periodic reconciling, a writer that joins after the seal) are made at once. More start objects join by
 * joining a writer before the server seals the batch.
 */
import type { KubeObject, Result } from '@svc-apiserver/api';
import { createObjects, type CreateItem } from '../registry/operations/create-objects.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import type { Registry } from '../registry/registry.js';

/** One writer's place in the batch. */
export interface StartupWriter {
  /** Creates the objects, as the loopback user: the first call waits for the batch, later calls create at once. */
  create(items: readonly CreateItem[]): Promise<Result<KubeObject>[]>;
  /** Gives up the writer's place without creating anything (no-op once its creates were handed). */
  release(): void;
}

/** The batch. */
export interface StartupBatch {
  /** A new writer's place. */
  join(): StartupWriter;
  /** No more writers: the batch is created once those that joined have handed their creates. */
  seal(): void;
}


/**
 * Creates `items` in two waves: the cluster-scoped objects (namespaces among them) first, then the namespaced ones,
 * whose namespace admission requires to exist before they are prepared. Results are in the order of `items`.
 */
async function createInWaves(registry: Registry, items: readonly CreateItem[]): Promise<Result<KubeObject>[]> {
  const results = new Map<CreateItem, Result<KubeObject>>();
  for (const wave of [items.filter((i) => !i.def.namespaced), items.filter((i) => i.def.namespaced)]) {
    if (wave.length === 0) continue;
    const created = await createObjects(registry, wave, loopbackContext(registry.names, 'apiserver'));
    wave.forEach((item, i) => results.set(item, created[i]!));
  }
  return items.map((item) => results.get(item)!);
}

/** Creates objects at once, outside any batch (a writer started alone, as in a test, or after the start). */
export function directWriter(registry: Registry): StartupWriter {
  return { create: (items) => createInWaves(registry, items), release: () => {} };
}

interface Waiting {
  readonly items: readonly CreateItem[];
  readonly resolve: (results: Result<KubeObject>[]) => void;
  readonly reject: (error: unknown) => void;
}

/** A batch over the registry. */
export function startupBatch(registry: Registry): StartupBatch {
  let sealed = false;
  let flushed = false;
  let pending = 0;
  const waiting: Waiting[] = [];

  const flush = async (): Promise<void> => {
    flushed = true;
    const all = waiting.flatMap((w) => w.items);
    let created: Result<KubeObject>[];
    try {
      created = await createInWaves(registry, all);
    } catch (error) {
      for (const w of waiting) w.reject(error);
      return;
    }
    let at = 0;
    for (const w of waiting) {
      w.resolve(created.slice(at, at + w.items.length));
      at += w.items.length;
    }
  };
  const settle = (): void => {
    if (sealed && !flushed && pending === 0) void flush();
  };

  return {
    join() {
      if (sealed || flushed) return directWriter(registry);
      pending += 1;
      let handed = false;
      const hand = (): boolean => {
        if (handed) return false;
        handed = true;
        pending -= 1;
        return true;
      };
      return {
        create(items) {
          if (!hand()) return createInWaves(registry, items);
          const answer = new Promise<Result<KubeObject>[]>((resolve, reject) => waiting.push({ items, resolve, reject }));
          settle();
          return answer;
        },
        release() {
          if (hand()) settle();
        },
      };
    },
    seal() {
      sealed = true;
      settle();
    },
  };
}

