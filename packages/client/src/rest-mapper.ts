/**
 * A cached RESTMapper, as client-go's DeferredDiscoveryRESTMapper over a memory-cached discovery client: discovery
 * (every served version) is read once and kept for `ttlMs`; a name or kind that is not found refreshes it once (a
 * CRD may just have been made) before the lookup fails. Maps kinds ↔ resources, resolves short names, singular
 * names and `<resource>.<group>` forms, and prefers each group's preferred version.
 */
import { failure, fail, ok, parseApiVersion, type Result } from '@svc-apiserver/api';
import { discoverResources, resolveKind, resolveResource, type DiscoveredResource } from './discovery.js';
import type { RestClient } from './rest-client.js';
import type { ResourceRef } from './paths.js';

/** A RESTMapper over one server. */
export interface RestMapper {
  /** Every served resource of every version, preferred versions first. */
  resources(): Promise<Result<readonly DiscoveredResource[]>>;
  /** What a user types (`cm`, `configmap`, `ConfigMap`, `deployments.apps`, `leases.v1.coordination.svc.io`). */
  resourceFor(arg: string): Promise<Result<DiscoveredResource>>;
  /** The resource serving `kind` in `apiVersion`, or in the group's preferred version when `apiVersion` is a bare group. */
  mappingFor(apiVersion: string, kind: string): Promise<Result<DiscoveredResource>>;
  /** The kind of a resource; `version` absent means the group's preferred version. */
  kindFor(group: string, resource: string, version?: string): Promise<Result<DiscoveredResource>>;
  /** The group's preferred version (`v1` for the core group). */
  preferredVersion(group: string): Promise<Result<string>>;
  /** Forgets the cached discovery. */
  invalidate(): void;
}

/** Options of {@link createRestMapper}. */
export interface RestMapperOptions {
  /** How long discovery is trusted. Default 10 minutes, as kubectl's discovery cache. */
  readonly ttlMs?: number;
}

/** The path parts of a discovered resource, in `namespace` (dropped for cluster-scoped resources). */
export function refOf(r: DiscoveredResource, namespace?: string): ResourceRef {
  const ref = { group: r.group, version: r.version, resource: r.resource };
  return r.namespaced && namespace !== undefined ? { ...ref, namespace } : ref;
}

/** Makes a RESTMapper that discovers through `client`. */
export function createRestMapper(client: RestClient, options: RestMapperOptions = {}): RestMapper {
  const ttl = options.ttlMs ?? 10 * 60_000;
  let cache: { at: number; resources: Promise<Result<DiscoveredResource[]>> } | undefined;

  function load(force: boolean): Promise<Result<DiscoveredResource[]>> {
    if (force || cache === undefined || Date.now() - cache.at > ttl) {
      const resources = discoverResources(client, { allVersions: true });
      cache = { at: Date.now(), resources };
      // a failed discovery is not cached
      void resources.then((r) => {
        if (!r.ok && cache?.resources === resources) cache = undefined;
      });
    }
    return cache.resources;
  }

  /** Looks up with the cache, then once more with fresh discovery unless the cache was just filled. */
  async function lookup<T>(find: (all: readonly DiscoveredResource[]) => T | undefined, missing: () => string): Promise<Result<T>> {
    const fresh = cache === undefined;
    for (const force of fresh ? [false] : [false, true]) {
      const all = await load(force);
      if (!all.ok) return all;
      const found = find(all.value);
      if (found !== undefined) return ok(found);
    }
    return fail(failure('NotFound', missing(), undefined, 404));
  }

  const preferredIn = (all: readonly DiscoveredResource[], group: string): string | undefined =>
    all.find((r) => r.group === group && r.preferred)?.version;

  return {
    resources: () => load(false),
    resourceFor: (arg) => lookup((all) => resolveResource(all, arg), () => `the server doesn't have a resource type "${arg}"`),
    mappingFor(apiVersion, kind) {
      const { group, version } = apiVersion.includes('/') || /^v\d/.test(apiVersion) ? parseApiVersion(apiVersion) : { group: apiVersion, version: '' };
      return lookup((all) => {
        if (version !== '') return resolveKind(all, apiVersion, kind);
        const preferred = preferredIn(all, group);
        return all.find((r) => r.group === group && r.kind === kind && r.version === preferred) ?? all.find((r) => r.group === group && r.kind === kind);
      }, () => `no matches for kind "${kind}" in version "${apiVersion}"`);
    },
    kindFor(group, resource, version) {
      return lookup((all) => {
        const v = version ?? preferredIn(all, group);
        return all.find((r) => r.group === group && r.resource === resource && r.version === v);
      }, () => `no matches for resource "${resource}" in group "${group}"${version ? ` version "${version}"` : ''}`);
    },
    preferredVersion: (group) => lookup((all) => preferredIn(all, group), () => `the server does not serve the group "${group}"`),
    invalidate() {
      cache = undefined;
    },
  };
}
