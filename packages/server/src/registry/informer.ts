/**
 * An in-process informer (client-go's shared informer with its indexer, for code running inside the server): the
 * objects of one resource kept current from a watch served by the watch cache, with listeners told of each change.
 * The watch starts from the current state; when it ends it resumes from the last resourceVersion seen, and when that
 * history is gone (410) it starts again from the current state, telling listeners of objects that vanished meanwhile.
 */
import type { KubeObject, Status, WatchEvent } from '@svc-apiserver/api';
import type { Registry } from './registry.js';
import type { ResourceDef } from './resource-def.js';
import { selectEverything } from './selection.js';

/** A change as an informer's listeners see it. */
export type InformerChange = 'ADDED' | 'MODIFIED' | 'DELETED';

/** Told of each change after the informer's state has taken it in; `old` is the state replaced (MODIFIED, DELETED). */
export type InformerListener = (change: InformerChange, object: KubeObject, old: KubeObject | undefined) => void;

/** The objects of one resource, kept current. */
export interface Informer {
  /** Resolves once the first full state has been read. */
  synced(): Promise<void>;
  hasSynced(): boolean;
  /** Every object, in no particular order. */
  list(): KubeObject[];
  /** The objects of one namespace. */
  listIn(namespace: string): KubeObject[];
  get(namespace: string, name: string): KubeObject | undefined;
  /** Adds a listener (it is not told of objects already held); returns its removal. */
  onChange(listener: InformerListener): () => void;
  stop(): void;
}

/** Options of {@link startInformer}. */
export interface InformerOptions {
  /** Pause before a failed watch is started again (default 1 s). */
  readonly retryMs?: number;
  readonly log?: (message: string) => void;
}

function keyOf(object: KubeObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/** Starts an informer over every namespace of `def`. */
export function startInformer(registry: Registry, def: ResourceDef, options: InformerOptions = {}): Informer {
  const retryMs = options.retryMs ?? 1000;
  const objects = new Map<string, KubeObject>();
  const listeners = new Set<InformerListener>();
  let stopped = false;
  let synced = false;
  let cancel: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let resolveSynced!: () => void;
  const syncedPromise = new Promise<void>((resolve) => {
    resolveSynced = resolve;
  });

  const tell = (change: InformerChange, object: KubeObject, old: KubeObject | undefined): void => {
    for (const l of listeners) l(change, object, old);
  };

  const watch = async (after: string | undefined): Promise<void> => {
    if (stopped) return;
    let last = after;
    // Keys seen in the initial state of a fresh watch: anything held but not in it was deleted meanwhile.
    let fresh: Set<string> | undefined = after === undefined ? new Set() : undefined;
    let ended = false;
    const restart = (from: string | undefined, why: string): void => {
      if (ended || stopped) return;
      ended = true;
      cancel = undefined;
      options.log?.(`informer for ${def.resource}: ${why}; watching again`);
      timer = setTimeout(() => void watch(from), retryMs);
      timer.unref();
    };
    const started = await registry.store.watch(def, {
      namespace: '', selection: selectEverything, ...(after !== undefined ? { resourceVersion: after } : {}),
    }, {
      event(e: WatchEvent) {
        if (stopped || ended) return;
        const object = e.object as KubeObject;
        const rv = object.metadata?.resourceVersion;
        if (rv !== undefined && rv !== '') last = rv;
        if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') return;
        const key = keyOf(object);
        const old = objects.get(key);
        if (e.type === 'DELETED') {
          objects.delete(key);
          tell('DELETED', object, old);
          return;
        }
        fresh?.add(key);
        objects.set(key, object);
        tell(old === undefined ? 'ADDED' : 'MODIFIED', object, old);
      },
      error(status: Status) {
        restart(status.code === 410 ? undefined : last, status.message ?? 'watch failed');
      },
      end() {
        restart(last, 'watch ended');
      },
    });
    if (!started.ok) {
      restart(started.status.code === 410 ? undefined : last, started.status.message ?? 'watch failed');
      return;
    }
    if (stopped) {
      started.value.cancel();
      return;
    }
    cancel = () => started.value.cancel();
    if (fresh !== undefined) {
      // The initial state is delivered before the watch resolves.
      for (const [key, object] of [...objects]) {
        if (fresh.has(key)) continue;
        objects.delete(key);
        tell('DELETED', object, object);
      }
      fresh = undefined;
    }
    if (!synced) {
      synced = true;
      resolveSynced();
    }
  };
  void watch(undefined);

  return {
    synced: () => syncedPromise,
    hasSynced: () => synced,
    list: () => [...objects.values()],
    listIn(namespace) {
      const out: KubeObject[] = [];
      for (const o of objects.values()) if ((o.metadata?.namespace ?? '') === namespace) out.push(o);
      return out;
    },
    get: (namespace, name) => objects.get(`${namespace}/${name}`),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      cancel?.();
      cancel = undefined;
    },
  };
}
