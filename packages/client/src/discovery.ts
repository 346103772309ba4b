/**
 * Resource discovery: reads `/api`, `/api/v1`, `/apis` and each group's preferred version to learn which resources
 * exist, then resolves what a user types (`configmaps`, `configmap`, `cm`, `ConfigMap`, `leases.coordination.x.io`)
 * to one resource, as kubectl's RESTMapper does.
 */
import { apiVersionOf, fail, ok, parseApiVersion, type Result } from '@svc-apiserver/api';
import { groupVersionPath } from './paths.js';
import type { RestClient } from './rest-client.js';

/** One discovered resource. */
export interface DiscoveredResource {
  /** `''` for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural, as in the URL. */
  readonly resource: string;
  readonly singularName: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** Subresource names (`status`, `finalize`, ...). */
  readonly subresources: readonly string[];
  /** True when this group-version is the group's preferred one. */
  readonly preferred: boolean;
}

interface ApiResourceJson {
  name: string;
  singularName?: string;
  namespaced?: boolean;
  kind: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
  group?: string;
  version?: string;
}

interface ApiGroupJson {
  name: string;
  versions: Array<{ groupVersion: string; version: string }>;
  preferredVersion?: { groupVersion: string; version: string };
}

function toResources(group: string, version: string, preferred: boolean, list: ApiResourceJson[]): DiscoveredResource[] {
  const subs = new Map<string, string[]>();
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash > 0) {
      const parent = r.name.slice(0, slash);
      subs.set(parent, [...(subs.get(parent) ?? []), r.name.slice(slash + 1)]);
    }
  }
  return list
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({
      group,
      version,
      resource: r.name,
      singularName: r.singularName || r.kind.toLowerCase(),
      kind: r.kind,
      namespaced: r.namespaced === true,
      verbs: r.verbs ?? [],
      shortNames: r.shortNames ?? [],
      categories: r.categories ?? [],
      subresources: subs.get(r.name) ?? [],
      preferred,
    }));
}

/**
 * Discovers every resource of every served group-version (preferred versions first within a group).
 * `allVersions` false reads only each group's preferred version, as `kubectl api-resources` shows.
 */
export async function discoverResources(client: RestClient, options: { allVersions?: boolean } = {}): Promise<Result<DiscoveredResource[]>> {
  const accept = { accept: 'application/json' };
  const core = await client.request<{ versions: string[] }>({ method: 'GET', path: '/api', headers: accept });
  if (!core.ok) return core;
  const groups = await client.request<{ groups: ApiGroupJson[] }>({ method: 'GET', path: '/apis', headers: accept });
  if (!groups.ok) return groups;
  const targets: Array<{ group: string; version: string; preferred: boolean }> = [];
  core.value.versions.forEach((v, i) => {
    if (options.allVersions || i === 0) targets.push({ group: '', version: v, preferred: i === 0 });
  });
  for (const g of groups.value.groups ?? []) {
    const preferred = g.preferredVersion?.version ?? g.versions[0]?.version;
    for (const v of g.versions) {
      if (options.allVersions || v.version === preferred) targets.push({ group: g.name, version: v.version, preferred: v.version === preferred });
    }
  }
  const lists = await Promise.all(targets.map((t) =>
    client.request<{ resources: ApiResourceJson[] }>({ method: 'GET', path: groupVersionPath(t.group, t.version), headers: accept })));
  const out: DiscoveredResource[] = [];
  for (const [i, t] of targets.entries()) {
    const list = lists[i];
    if (!list) continue;
    if (!list.ok) return fail(list.error);
    out.push(...toResources(t.group, t.version, t.preferred, list.value.resources ?? []));
  }
  // preferred versions first so resolution picks them
  out.sort((a, b) => Number(b.preferred) - Number(a.preferred));
  return ok(out);
}

/**
 * Resolves a user's resource argument: plural, singular, short name or kind (case-insensitive), optionally
 * qualified as `<name>.<group>` or `<name>.<version>.<group>`. The core group wins ties, as kubectl's does.
 */
export function resolveResource(resources: readonly DiscoveredResource[], arg: string): DiscoveredResource | undefined {
  const lower = arg.toLowerCase();
  const matchesName = (r: DiscoveredResource, n: string): boolean =>
    r.resource === n || r.singularName === n || r.shortNames.includes(n) || r.kind.toLowerCase() === n;
  const direct = resources.filter((r) => matchesName(r, lower));
  if (direct.length > 0) return direct.find((r) => r.group === '') ?? direct[0];
  const dot = lower.indexOf('.');
  if (dot < 0) return undefined;
  const name = lower.slice(0, dot);
  const rest = lower.slice(dot + 1);
  return resources.find((r) => matchesName(r, name) && (r.group === rest || `${r.version}.${r.group}` === rest));
}

/** Finds the resource serving `kind` in `apiVersion` (for objects read from files). */
export function resolveKind(resources: readonly DiscoveredResource[], apiVersion: string, kind: string): DiscoveredResource | undefined {
  const { group, version } = parseApiVersion(apiVersion);
  return resources.find((r) => r.group === group && r.version === version && r.kind === kind);
}

/** The apiVersion string of a discovered resource. */
export function resourceApiVersion(r: DiscoveredResource): string {
  return apiVersionOf(r.group, r.version);
}
