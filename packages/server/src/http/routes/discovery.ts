/**
 * API discovery (k8s.io/apiserver's discovery package): `/api` (APIVersions), `/api/v1` and
 * `/apis/<group>/<version>` (APIResourceList), `/apis` (APIGroupList), `/apis/<group>` (APIGroup), built from the
 * served resources.
 */
import { createHash } from 'node:crypto';
import type { ApiResource } from '../../schema/catalog.js';

/** A group-version with its resources. */
export interface ServedGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly ApiResource[];
  /** The resources are as last known from a server that is unavailable now (an APIService's). */
  readonly stale?: boolean;
}

/** A served group, versions in preference order (first = preferred). */
export interface ServedGroup {
  readonly name: string;
  readonly versions: readonly ServedGroupVersion[];
}

/**
 * Orders versions as kube-apiserver prefers them (version.CompareKubeAwareVersionStrings): GA before beta before
 * alpha, higher numbers first, then non-Kubernetes-style versions alphabetically.
 */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    const stage = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
    return [stage, Number(m[1]), m[3] === undefined ? 0 : Number(m[3])];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) return pb[0] - pa[0] || pb[1] - pa[1] || pb[2] - pa[2];
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Groups served resources: core first, then named groups in order of first appearance. */
export function groupServed(resources: readonly ApiResource[]): ServedGroup[] {
  const byGroup = new Map<string, Map<string, ApiResource[]>>();
  for (const r of resources) {
    let versions = byGroup.get(r.group);
    if (!versions) byGroup.set(r.group, (versions = new Map()));
    let list = versions.get(r.version);
    if (!list) versions.set(r.version, (list = []));
    list.push(r);
  }
  const groups: ServedGroup[] = [];
  for (const [name, versions] of byGroup) {
    const ordered = [...versions.keys()].sort(compareKubeVersions);
    groups.push({ name, versions: ordered.map((v) => ({ group: name, version: v, resources: versions.get(v)! })) });
  }
  return groups.sort((a, b) => (a.name === '' ? -1 : b.name === '' ? 1 : 0));
}

/** `group/version` or `version` for the core group. */
export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** kube-apiserver's storageVersionHash: base64 of the first 8 bytes of sha256(`group/version/kind`). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** The APIResourceList of one group-version. */
export function apiResourceList(gv: ServedGroupVersion): Record<string, unknown> {
  const resources: Record<string, unknown>[] = [];
  for (const r of gv.resources) {
    const entry: Record<string, unknown> = {
      name: r.resource,
      singularName: r.singularName,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs],
    };
    if (r.shortNames.length > 0) entry['shortNames'] = [...r.shortNames];
    if (r.categories.length > 0) entry['categories'] = [...r.categories];
    entry['storageVersionHash'] = storageVersionHash(r.group, r.version, r.kind);
    resources.push(entry);
    for (const s of r.subresources) {
      const sub: Record<string, unknown> = { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced };
      if (s.group !== undefined) sub['group'] = s.group;
      if (s.version !== undefined) sub['version'] = s.version;
      sub['kind'] = s.kind;
      sub['verbs'] = [...s.verbs];
      resources.push(sub);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionString(gv.group, gv.version), resources };
}

/** The APIGroup of one named group. */
export function apiGroup(group: ServedGroup): Record<string, unknown> {
  const versions = group.versions.map((v) => ({ groupVersion: groupVersionString(group.name, v.version), version: v.version }));
  return { name: group.name, versions, preferredVersion: versions[0] };
}

/** The APIGroupList of `/apis`. */
export function apiGroupList(groups: readonly ServedGroup[]): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.filter((g) => g.name !== '').map(apiGroup) };
}

/** The APIVersions of `/api`. */
export function apiVersions(groups: readonly ServedGroup[], serverAddress: string): Record<string, unknown> {
  const core = groups.find((g) => g.name === '');
  return {
    kind: 'APIVersions',
    versions: core ? core.versions.map((v) => v.version) : [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}
