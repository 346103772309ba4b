/**
 * An in-process informer (client-go's shared informer with its indexer, for code running inside the server): the
 * objects of one resource kept current from a watch served by the watch cache, indexed by namespace, with listeners
 * told of each change. The watch starts from the current state; when it ends it resumes from the last
 * resourceVersion seen, and when that history is gone (410) it starts again from the current state, telling
 * listeners of objects that vanished meanwhile.
 */
import type { KubeObject, Status, WatchEvent } from '@svc-apiserver/api';
import type { Registry } from './registry.js';
import type { ResourceDef } from './resource-def.js';
import { selectEverything, type Selection } from './selection.js';

/** A change as an informer's listeners see it. */
export type InformerChange = 'ADDED' | 'MODIFIED' | 'DELETED';

/** Told of each change after the informer's state has taken it in; `old` is the state replaced (MODIFIED, DELETED). */
export type InformerListener = (change: InformerChange, object: KubeObject, old: KubeObject | undefined) => void;

/** Options of {@link Informer.onChange}. */
export interface ListenerOptions {
  /**
   * Tell the listener first of every object already held, as ADDED (client-go's AddEventHandler on a running
   * informer), so a listener added late sees the same objects as one added at start.
   */
  readonly replay?: boolean;
}

/** The objects of one resource, kept current. */
export interface Informer {
  /** The resource it holds. */
  readonly def: ResourceDef;
  /** Resolves once the first full state has been read. */
  synced(): Promise<void>;
  hasSynced(): boolean;
  /** Whether a watch is open now (false before the first one starts and while a failed one waits to restart). */
  isWatching(): boolean;
  /** Every object, in no particular order. */
  list(): KubeObject[];
  /** The objects of one namespace (the namespace index: no scan of the others). */
  listIn(namespace: string): KubeObject[];
  get(namespace: string, name: string): KubeObject | undefined;
  /** Adds a listener (told of objects already held only with `replay`); returns its removal. */
  onChange(listener: InformerListener, options?: ListenerOptions): () => void;
  stop(): void;
}

/** Options of {@link startInformer}. */
export interface InformerOptions {
  /** Pause before a failed watch is started again (default 1 s). */
  readonly retryMs?: number;
  readonly log?: (message: string) => void;
  /**
   * What is kept of each object, applied before it is held and told (client-go's TransformFunc): an informer that
   * needs only metadata keeps only that, as kube's metadata informers do.
   */
  readonly transform?: (object: KubeObject) => KubeObject;
  /**
   * The objects watched (client-go's filtered informers, a field selector in their list options); default every
   * object. An object leaving the selection is told as deleted.
   */
  readonly selection?: Selection;
}

/** Objects by namespace, then by name (client-go's indexer with its namespace index). */
function namespaceIndex() {
  const byNamespace = new Map<string, Map<string, KubeObject>>();
  const where = (o: KubeObject): [string, string] => [o.metadata?.namespace ?? '', o.metadata?.name ?? ''];
  const get = (namespace: string, name: string): KubeObject | undefined => byNamespace.get(namespace)?.get(name);
  return {
    get,
    /** The object held under the namespace and name of `o`. */
    heldAs: (o: KubeObject): KubeObject | undefined => get(...where(o)),
    set(o: KubeObject): void {
      const [namespace, name] = where(o);
      let names = byNamespace.get(namespace);
      if (names === undefined) byNamespace.set(namespace, (names = new Map()));
      names.set(name, o);
    },
    delete(o: KubeObject): void {
      const [namespace, name] = where(o);
      const names = byNamespace.get(namespace);
      if (names === undefined) return;
      names.delete(name);
      if (names.size === 0) byNamespace.delete(namespace);
    },
    in: (namespace: string): KubeObject[] => [...(byNamespace.get(namespace)?.values() ?? [])],
    *all(): IterableIterator<KubeObject> {
      for (const names of byNamespace.values()) yield* names.values();
    },
  };
}

/** Starts an informer over every namespace of `def`. */
export function startInformer(registry: Registry, def: ResourceDef, options: InformerOptions = {}): Informer {
  const retryMs = options.retryMs ?? 1000;
  const transform = options.transform ?? ((o: KubeObject) => o);
  const objects = namespaceIndex();
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
    // The objects of the initial state of a fresh watch: anything else held was deleted meanwhile.
    let fresh: Set<KubeObject> | undefined = after === undefined ? new Set() : undefined;
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
      namespace: '', selection: options.selection ?? selectEverything, ...(after !== undefined ? { resourceVersion: after } : {}),
    }, {
      event(e: WatchEvent) {
        if (stopped || ended) return;
        const rv = (e.object as KubeObject).metadata?.resourceVersion;
        if (rv !== undefined && rv !== '') last = rv;
        if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') return;
        const object = transform(e.object as KubeObject);
        const old = objects.heldAs(object);
        if (e.type === 'DELETED') {
          objects.delete(object);
          tell('DELETED', object, old);
          return;
        }
        fresh?.add(object);
        objects.set(object);
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
      restart(started.error.code === 410 ? undefined : last, started.error.message ?? 'watch failed');
      return;
    }
    if (stopped) {
      started.value.cancel();
      return;
    }
    cancel = () => started.value.cancel();
    if (fresh !== undefined) {
      // The initial state is delivered before the watch resolves.
      for (const object of [...objects.all()]) {
        if (fresh.has(object)) continue;
        objects.delete(object);
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
    def,
    synced: () => syncedPromise,
    hasSynced: () => synced,
    isWatching: () => cancel !== undefined,
    list: () => [...objects.all()],
    listIn: (namespace) => objects.in(namespace),
    get: (namespace, name) => objects.get(namespace, name),
    onChange(listener, listenerOptions = {}) {
      listeners.add(listener);
      if (listenerOptions.replay === true) for (const o of [...objects.all()]) listener('ADDED', o, undefined);
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
