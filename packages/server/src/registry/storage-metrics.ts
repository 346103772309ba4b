/**
 * The storage metrics of kube-apiserver 1.27 (k8s.io/apiserver/pkg/storage/etcd3/metrics), with kube's names,
 * help, labels and buckets:
 *
 * - `etcd_request_duration_seconds{operation, type}`: every call to the store, whichever store it is (embedded or
 *   etcd), timed by a decorator of the Backend; operations as kube names them (get, list, listWithCount, create,
 *   update, delete) and the type as kube 1.27 labels it, the stored kind's Go type (`*core.Pod`,
 *   `*apps.Deployment`; custom resources `*unstructured.Unstructured`);
 * - `apiserver_storage_objects{resource}`: the objects stored of each served resource (`pods`, `deployments.apps`),
 *   counted in the store when scraped (kube counts every minute);
 * - the watch cache's events received and dispatched, its initializations (`apiserver_watch_cache_*`), and the
 *   watchers ended for falling behind (`apiserver_terminated_watchers_total`), by resource.
 */
import { requestLatencyBuckets } from '../metrics/endpoint-metrics.js';
import { metricSet, type Counter, type Gauge, type Histogram } from '../metrics/metrics-registry.js';
import type { Backend } from '../storage/backend.js';
import { resourcePrefixOf, type CacheObserver } from '../storage/watch-cache/cache-set.js';
import type { ResourceDef } from './resource-def.js';

/** The storage metrics of one registry. */
export interface StorageMetrics {
  readonly requestDuration: Histogram;
  readonly objects: Gauge;
  /**
   * Counts the objects of `resources()` in `backend` at each scrape, until the returned function is called (each
   * server of a process adds its own store).
   */
  countObjects(backend: Backend, resources: () => readonly ResourceDef[]): () => void;
}

/** A stored kind's type label, as kube 1.27's Go type names it. */
export function storageTypeOf(def: Pick<ResourceDef, 'groupKey' | 'kind' | 'custom'>): string {
  if (def.custom !== undefined) return '*unstructured.Unstructured';
  return `*${def.groupKey === '' ? 'core' : def.groupKey.split('.')[0]}.${def.kind}`;
}

/** The resource label of the storage and watch cache metrics (kube's GroupResource.String()): `pods`, `deployments.apps`. */
export const storedResourceLabel = (def: Pick<ResourceDef, 'group' | 'resource'>): string => (def.group === '' ? def.resource : `${def.resource}.${def.group}`);

/** The storage metrics of a registry (the server's by default), declared on first use. */
export const storageMetrics = metricSet((registry): StorageMetrics => {
  const sources = new Set<{ backend: Backend; resources: () => readonly ResourceDef[] }>();
  const objects = registry.gauge('apiserver_storage_objects', 'Number of stored objects at the time of last check split by kind.', ['resource'], 'STABLE', {
    async collect(set) {
      const counts = new Map<string, number>();
      for (const source of sources) {
        // Versions of one resource share their store prefix: each prefix is counted once.
        const prefixes = new Map<string, string>();
        for (const def of source.resources()) if (!prefixes.has(def.keyPrefix)) prefixes.set(def.keyPrefix, storedResourceLabel(def));
        for (const [prefix, label] of prefixes) {
          const counted = await source.backend.count(prefix).catch(() => undefined);
          if (counted !== undefined) counts.set(label, (counts.get(label) ?? 0) + counted.count);
        }
      }
      for (const [resource, n] of counts) set({ resource }, n);
    },
  });
  return {
    requestDuration: registry.histogram('etcd_request_duration_seconds', 'Etcd request latency in seconds for each operation and object type.',
      ['operation', 'type'], requestLatencyBuckets, 'ALPHA'),
    objects,
    countObjects(backend, resources) {
      const source = { backend, resources };
      sources.add(source);
      return () => sources.delete(source);
    },
  };
});

/** The served resource stored under a store prefix (read at each use: the served set changes as CRDs come and go). */
export type StoredResourceOf = (prefix: string) => Pick<ResourceDef, 'groupKey' | 'group' | 'resource' | 'kind' | 'custom'> | undefined;

/**
 * `backend` with every call timed into `etcd_request_duration_seconds`, typed by the resource its key is stored
 * under.
 */
export function instrumentBackend(backend: Backend, resourceOf: StoredResourceOf, metrics: StorageMetrics = storageMetrics()): Backend {
  const typeOf = (key: string): string => {
    const def = resourceOf(resourcePrefixOf(key) ?? key);
    return def === undefined ? '' : storageTypeOf(def);
  };
  const timed = <T>(operation: string, key: string, call: Promise<T>): Promise<T> => {
    const started = performance.now();
    const labels = { operation, type: typeOf(key) };
    const done = (): void => metrics.requestDuration.observe(labels, (performance.now() - started) / 1000);
    call.then(done, done);
    return call;
  };
  return {
    name: backend.name,
    currentRevision: () => backend.currentRevision(),
    compactRevision: () => backend.compactRevision(),
    get: (key, options) => timed('get', key, backend.get(key, options)),
    list: (prefix, options) => timed('list', prefix, backend.list(prefix, options)),
    count: (prefix) => timed('listWithCount', prefix, backend.count(prefix)),
    create: (key, value) => timed('create', key, backend.create(key, value)),
    update: (key, value, expected) => timed('update', key, backend.update(key, value, expected)),
    delete: (key, expected) => timed('delete', key, backend.delete(key, expected)),
    watch: (prefix, after, listener) => backend.watch(prefix, after, listener),
    ...(backend.reportsProgress === undefined ? {} : { reportsProgress: () => backend.reportsProgress!() }),
    compact: (revision) => backend.compact(revision),
    close: () => backend.close(),
  };
}

/** The watch cache metrics of one registry (kube's cacher metrics, 1.27 names). */
export interface WatchCacheMetrics {
  /** `apiserver_cache_list_total`, `_fetched_objects_total`, `_returned_objects_total`: lists served from the cache. */
  observeList(def: Pick<ResourceDef, 'resource' | 'group' | 'custom'>, fetched: number, returned: number): void;
  readonly received: Counter;
  readonly dispatched: Counter;
  readonly initializations: Counter;
  /** `apiserver_terminated_watchers_total`: watchers ended because they could not keep up. */
  readonly terminatedWatchers: Counter;
}

/** The watch cache metrics of a registry (the server's by default), declared on first use. */
export const watchCacheMetrics = metricSet((registry): WatchCacheMetrics => {
  const lists = registry.counter('apiserver_cache_list_total', 'Number of LIST requests served from watch cache', ['resource_prefix', 'index'], 'ALPHA');
  const fetched = registry.counter('apiserver_cache_list_fetched_objects_total', 'Number of objects read from watch cache in the course of serving a LIST request',
    ['resource_prefix', 'index'], 'ALPHA');
  const returned = registry.counter('apiserver_cache_list_returned_objects_total', 'Number of objects returned for a LIST request from watch cache', ['resource_prefix'], 'ALPHA');
  return {
    observeList(def, fetchedCount, returnedCount) {
      // kube's resource prefix: the built-in resource's own (`/pods`), a custom resource's under its group.
      const prefix = def.custom === undefined ? `/${def.resource}` : `/${def.group}/${def.resource}`;
      lists.inc({ resource_prefix: prefix, index: '' });
      fetched.inc({ resource_prefix: prefix, index: '' }, fetchedCount);
      returned.inc({ resource_prefix: prefix }, returnedCount);
    },
    received: registry.counter('apiserver_watch_cache_events_received_total', 'Counter of events received in watch cache broken by resource type.', ['resource'], 'ALPHA'),
    dispatched: registry.counter('apiserver_watch_cache_events_dispatched_total', 'Counter of events dispatched in watch cache broken by resource type.', ['resource'], 'ALPHA'),
    initializations: registry.counter('apiserver_watch_cache_initializations_total', 'Counter of watch cache initializations broken by resource type.', ['resource'], 'ALPHA'),
    terminatedWatchers: registry.counter('apiserver_terminated_watchers_total', 'Counter of watchers closed due to unresponsiveness broken by resource type.', ['resource'], 'ALPHA'),
  };
});


/** An observer of the watch caches that fills the watch cache metrics. */
export function watchCacheObserver(resourceOf: StoredResourceOf, metrics: WatchCacheMetrics = watchCacheMetrics()): CacheObserver {
  const label = (prefix: string): { resource: string } => {
    const def = resourceOf(prefix);
    return { resource: def === undefined ? '' : storedResourceLabel(def) };
  };
  return {
    received: (prefix) => metrics.received.inc(label(prefix)),
    dispatched: (prefix) => metrics.dispatched.inc(label(prefix)),
    initialized: (prefix) => metrics.initializations.inc(label(prefix)),
  };
}
