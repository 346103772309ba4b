/**
 * The informer's local cache: objects by key (`<namespace>/<name>`, or `<name>` for cluster-scoped objects, as
 * client-go's MetaNamespaceKeyFunc), with indexes kept up to date on every write (client-go's thread-safe store and
 * Indexer). Two indexes are always present: `namespace` and `label` (one entry per `key=value` label pair).
 */
import type { KubeObject } from '@svc-apiserver/api';

/**
 * What a cache needs of an object: its metadata's name, namespace, resourceVersion and labels. Both the loose
 * `KubeObject` and the generated types (`coreV1.Pod`) are such objects.
 */
export interface CachedObject {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly resourceVersion?: string;
    readonly labels?: Readonly<Record<string, string>>;
  };
}

/** Computes the index values of an object. */
export type IndexFunc<T> = (object: T) => readonly string[];

/** The key of an object in a store. */
export function objectKey(object: CachedObject): string {
  const ns = object.metadata?.namespace;
  const name = object.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

/** The built-in index names. */
export const namespaceIndex = 'namespace';
export const labelIndex = 'label';

/** A read view of an informer's cache. */
export interface StoreReader<T extends CachedObject = KubeObject> {
  get(key: string): T | undefined;
  /** The object `name` in `namespace` (omit it for cluster-scoped objects). */
  getByName(name: string, namespace?: string): T | undefined;
  list(): T[];
  keys(): string[];
  readonly size: number;
  /** Objects whose index `indexName` holds `value`. */
  byIndex(indexName: string, value: string): T[];
  /** Objects in a namespace (the namespace index). */
  listInNamespace(namespace: string): T[];
  /** Objects carrying every label of `labels` (the label index). */
  listByLabels(labels: Readonly<Record<string, string>>): T[];
}

/** A store an informer writes. */
export interface IndexedStore<T extends CachedObject = KubeObject> extends StoreReader<T> {
  /** Adds or replaces; returns the previous object. */
  put(object: T): T | undefined;
  /** Removes by key; returns the removed object. */
  remove(key: string): T | undefined;
}

/** Makes an empty store with the built-in indexes and `indexers`. */
export function createIndexedStore<T extends CachedObject = KubeObject>(indexers: Readonly<Record<string, IndexFunc<T>>> = {}): IndexedStore<T> {
  const all: Record<string, IndexFunc<T>> = {
    [namespaceIndex]: (o) => [o.metadata?.namespace ?? ''],
    [labelIndex]: (o) => {
      const labels = o.metadata?.labels;
      if (labels === undefined) return [];
      const out: string[] = [];
      for (const k in labels) out.push(`${k}=${labels[k]!}`);
      return out;
    },
    ...indexers,
  };
  const items = new Map<string, T>();
  /** index name → value → keys */
  const indexes = new Map<string, Map<string, Set<string>>>(Object.keys(all).map((n) => [n, new Map()]));

  /** Each index function with its index, listed once: a sync of thousands of objects walks them per object. */
  const indexList = Object.entries(all).map(([name, fn]) => [fn, indexes.get(name)!] as const);
  const unindex = (key: string, object: T): void => {
    for (const [fn, idx] of indexList) {
      for (const v of fn(object)) {
        const set = idx.get(v);
        set?.delete(key);
        if (set?.size === 0) idx.delete(v);
      }
    }
  };
  const index = (key: string, object: T): void => {
    for (const [fn, idx] of indexList) {
      for (const v of fn(object)) {
        let set = idx.get(v);
        if (set === undefined) idx.set(v, (set = new Set()));
        set.add(key);
      }
    }
  };
  const byIndex = (indexName: string, value: string): T[] => {
    const keys = indexes.get(indexName)?.get(value);
    if (keys === undefined) return [];
    const out: T[] = [];
    for (const k of keys) {
      const o = items.get(k);
      if (o !== undefined) out.push(o);
    }
    return out;
  };

  return {
    get: (key) => items.get(key),
    getByName: (name, namespace) => items.get(namespace ? `${namespace}/${name}` : name),
    list: () => [...items.values()],
    keys: () => [...items.keys()],
    get size() {
      return items.size;
    },
    byIndex,
    listInNamespace: (ns) => byIndex(namespaceIndex, ns),
    listByLabels(labels) {
      const pairs = Object.entries(labels);
      if (pairs.length === 0) return [...items.values()];
      const [first, ...rest] = pairs.map(([k, v]) => `${k}=${v}`);
      return byIndex(labelIndex, first ?? '').filter((o) => rest.every((p) => {
        const eq = p.indexOf('=');
        return o.metadata?.labels?.[p.slice(0, eq)] === p.slice(eq + 1);
      }));
    },
    put(object) {
      const key = objectKey(object);
      const old = items.get(key);
      if (old !== undefined) unindex(key, old);
      items.set(key, object);
      index(key, object);
      return old;
    },
    remove(key) {
      const old = items.get(key);
      if (old === undefined) return undefined;
      unindex(key, old);
      items.delete(key);
      return old;
    },
  };
}
