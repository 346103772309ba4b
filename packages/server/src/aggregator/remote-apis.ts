/**
 * What the aggregator knows of the APIServices (kube-aggregator's proxy handlers and discovery manager): every
 * APIService by group-version from an informer, and for the remote ones, the discovery document and OpenAPI v3
 * and v2 documents last fetched from their server — so discovery lists their groups and resources (stale while the server
 * is unavailable), and requests for them are proxied.
 */
import type { Names } from '@svc-apiserver/api';
import type { ServedGroup, ServedGroupVersion } from '../http/routes/discovery.js';
import { compareKubeVersions } from '../http/routes/discovery.js';
import { startInformer, type Informer } from '../registry/informer.js';
import type { Registry } from '../registry/registry.js';
import type { ApiResource, ApiSubresource } from '../schema/catalog.js';
import { apiServiceSpec, availableCondition, isLocal, type ApiService } from './apiservice.js';

/** What was fetched from a remote group-version's server. */
export interface RemoteDocuments {
  readonly resources: readonly ApiResource[];
  /** Its `/openapi/v3/apis/<group>/<version>` document (JSON text), when it serves one. */
  readonly openapiV3?: string;
  /** Its server's `/openapi/v2` document (JSON text), when it serves one. */
  readonly openapiV2?: string;
}

/** The aggregator's view of APIServices. */
export interface RemoteApis {
  /** The APIService of a group-version, when one is registered. */
  lookup(group: string, version: string): ApiService | undefined;
  /** Every APIService. */
  all(): ApiService[];
  /** The remote groups for discovery, by descending priority; versions without documents have no resources. */
  groups(): ServedGroup[];
  /** Records what a remote group-version serves (undefined: nothing known of it). */
  setDocuments(group: string, version: string, documents: RemoteDocuments | undefined): void;
  documents(group: string, version: string): RemoteDocuments | undefined;
  readonly informer: Informer | undefined;
  stop(): void;
}

/** APIResources of an APIResourceList (subresources folded into their resources), as the catalog describes them. */
export function resourcesOfList(group: string, version: string, list: unknown, names: Names): ApiResource[] {
  const items = typeof list === 'object' && list !== null && Array.isArray((list as { resources?: unknown }).resources)
    ? (list as { resources: Record<string, unknown>[] }).resources : [];
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const byName = new Map<string, ApiResource & { subresources: ApiSubresource[] }>();
  for (const r of items) {
    const name = typeof r['name'] === 'string' ? r['name'] : '';
    if (name === '' || name.includes('/')) continue;
    const kind = typeof r['kind'] === 'string' ? r['kind'] : '';
    byName.set(name, {
      groupKey: names.groupKey(group), group, version, resource: name,
      singularName: typeof r['singularName'] === 'string' ? r['singularName'] : '',
      kind, listKind: `${kind}List`, namespaced: r['namespaced'] === true, verbs: strings(r['verbs']),
      shortNames: strings(r['shortNames']), categories: strings(r['categories']), subresources: [],
      schemaName: `${group}/${version}/${kind}`,
    });
  }
  for (const r of items) {
    const name = typeof r['name'] === 'string' ? r['name'] : '';
    const slash = name.indexOf('/');
    if (slash < 0) continue;
    const parent = byName.get(name.slice(0, slash));
    parent?.subresources.push({ name: name.slice(slash + 1), kind: typeof r['kind'] === 'string' ? r['kind'] : '', verbs: strings(r['verbs']) });
  }
  return [...byName.values()];
}

/** Starts watching the APIServices. */
export function startRemoteApis(registry: Registry): RemoteApis {
  const def = registry.lookup(registry.names.group('apiregistration'), 'v1', 'apiservices');
  const informer = def === undefined ? undefined : startInformer(registry, def);
  const documents = new Map<string, RemoteDocuments>();
  const key = (group: string, version: string) => `${group}/${version}`;
  const all = (): ApiService[] => (informer?.list() ?? []) as ApiService[];
  // Every request asks whether its group-version is remote: an index by group-version, kept from the informer.
  const byGroupVersion = new Map<string, ApiService>();
  const keyOf = (a: ApiService) => key(apiServiceSpec(a).group ?? '', apiServiceSpec(a).version ?? '');
  const removeListener = informer?.onChange((change, object, old) => {
    if (old !== undefined) byGroupVersion.delete(keyOf(old as ApiService));
    if (change === 'DELETED') byGroupVersion.delete(keyOf(object as ApiService));
    else byGroupVersion.set(keyOf(object as ApiService), object as ApiService);
  }, { replay: true });
  return {
    informer,
    all,
    lookup: (group, version) => byGroupVersion.get(key(group, version)),
    groups() {
      const remote = all().filter((a) => !isLocal(a) && (apiServiceSpec(a).group ?? '') !== '');
      const byGroup = new Map<string, ApiService[]>();
      for (const a of remote) {
        const g = apiServiceSpec(a).group!;
        byGroup.set(g, [...(byGroup.get(g) ?? []), a]);
      }
      const groups: (ServedGroup & { priority: number })[] = [];
      for (const [name, services] of byGroup) {
        const ordered = [...services].sort((a, b) => (apiServiceSpec(b).versionPriority ?? 0) - (apiServiceSpec(a).versionPriority ?? 0)
          || compareKubeVersions(apiServiceSpec(a).version ?? '', apiServiceSpec(b).version ?? ''));
        const versions: ServedGroupVersion[] = ordered.map((a) => {
          const version = apiServiceSpec(a).version ?? '';
          const available = availableCondition(a)?.status === 'True';
          const known = documents.get(key(name, version));
          // An unavailable server's resources stay listed as last known, marked stale (kube's aggregated discovery).
          return { group: name, version, resources: known?.resources ?? [], ...(known !== undefined && !available ? { stale: true } : {}) };
        });
        groups.push({ name, versions, priority: Math.max(...services.map((a) => apiServiceSpec(a).groupPriorityMinimum ?? 0)) });
      }
      return groups.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : 1)).map(({ priority: _p, ...g }) => g);
    },
    setDocuments(group, version, docs) {
      if (docs === undefined) documents.delete(key(group, version));
      else documents.set(key(group, version), docs);
    },
    documents: (group, version) => documents.get(key(group, version)),
    stop() {
      removeListener?.();
      informer?.stop();
    },
  };
}
