/**
 * Aggregated discovery (kube-apiserver 1.27, `apidiscovery.k8s.io/v2beta1`): `/api` and `/apis` answer one
 * APIGroupDiscoveryList with every version and resource when the client asks for it in Accept.
 */
import type { Names } from '@svc-apiserver/api';
import { parseAccept, rangeMatches } from '../media-type.js';
import type { ServedGroup } from './discovery.js';

/** The version of the aggregated discovery API served. */
export const aggregatedDiscoveryVersion = 'v2beta1';

/** The Content-Type of an aggregated discovery answer. */
export function aggregatedDiscoveryMediaType(names: Names): string {
  return `application/json;g=${names.group('apidiscovery')};v=${aggregatedDiscoveryVersion};as=APIGroupDiscoveryList`;
}

/**
 * What the Accept header asks of a discovery endpoint: the aggregated list, the plain document, or nothing we
 * write. The first acceptable entry (by q, then order) decides, as kube-apiserver's negotiation does.
 */
export function discoveryFormat(accept: string | undefined, names: Names): 'aggregated' | 'plain' | 'none' {
  const entries = parseAccept(accept);
  if (entries.length === 0) return 'plain';
  const group = names.group('apidiscovery');
  for (const m of entries) {
    const as = m.params['as'];
    if (as === 'APIGroupDiscoveryList') {
      if (rangeMatches(m.type, 'application/json') && m.params['g'] === group && m.params['v'] === aggregatedDiscoveryVersion) return 'aggregated';
      continue;
    }
    if (as !== undefined) continue;
    if (rangeMatches(m.type, 'application/json') || rangeMatches(m.type, 'application/yaml')) return 'plain';
  }
  return 'none';
}

/** The APIGroupDiscoveryList of the given groups (`/api`: the core group; `/apis`: the named groups). */
export function apiGroupDiscoveryList(groups: readonly ServedGroup[], names: Names): Record<string, unknown> {
  const items = groups.map((g) => ({
    metadata: g.name === '' ? { creationTimestamp: null } : { name: g.name, creationTimestamp: null },
    versions: g.versions.map((v) => ({
      version: v.version,
      resources: v.resources.map((r) => {
        const entry: Record<string, unknown> = {
          resource: r.resource,
          responseKind: { group: r.group, version: r.version, kind: r.kind },
          scope: r.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: r.singularName,
          verbs: [...r.verbs],
        };
        if (r.shortNames.length > 0) entry['shortNames'] = [...r.shortNames];
        if (r.categories.length > 0) entry['categories'] = [...r.categories];
        if (r.subresources.length > 0) {
          entry['subresources'] = r.subresources.map((s) => ({
            subresource: s.name,
            responseKind: { group: s.group ?? r.group, version: s.version ?? r.version, kind: s.kind },
            verbs: [...s.verbs],
          }));
        }
        return entry;
      }),
      freshness: v.stale === true ? 'Stale' : 'Current',
    })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `${names.group('apidiscovery')}/${aggregatedDiscoveryVersion}`, metadata: {}, items };
}
