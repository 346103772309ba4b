/**
 * The served set the OpenAPI documents are restricted to, and the per-catalog cache of built documents.
 */
import type { Catalog } from '../schema/catalog.js';

/**
 * One served resource or subresource: `resource` is the plural (`pods`) or `<plural>/<subresource>`
 * (`pods/status`). A subresource's paths appear in the documents only when it is listed.
 */
export interface ServedResource {
  readonly groupKey: string;
  readonly version: string;
  readonly resource: string;
}

/** A built document with its serialization and content hash (kube-openapi's ETag: SHA-512, upper-case hex). */
export interface BuiltDocument<T> {
  readonly document: T;
  readonly json: string;
  readonly hash: string;
}

/** A stable key for a served set (order-independent). */
export function servedKey(served: readonly ServedResource[]): string {
  return served.map((s) => `${s.groupKey}/${s.version}/${s.resource}`).sort().join('\n');
}

const caches = new WeakMap<Catalog, Map<string, unknown>>();

/**
 * Memoizes `build` per catalog and key: documents are computed once per served set, as kube-apiserver computes
 * its OpenAPI documents once when its routes are installed.
 */
export function cached<T>(catalog: Catalog, key: string, build: () => T): T {
  let cache = caches.get(catalog);
  if (!cache) {
    cache = new Map();
    caches.set(catalog, cache);
  }
  if (cache.has(key)) return cache.get(key) as T;
  const value = build();
  cache.set(key, value);
  return value;
}

/** Every resource and subresource of the catalog as a served set (for tests and for serving everything). */
export function everyResource(catalog: Catalog): ServedResource[] {
  const out: ServedResource[] = [];
  for (const r of catalog.resources) {
    out.push({ groupKey: r.groupKey, version: r.version, resource: r.resource });
    for (const s of r.subresources) out.push({ groupKey: r.groupKey, version: r.version, resource: `${r.resource}/${s.name}` });
  }
  return out;
}
