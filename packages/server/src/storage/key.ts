/**
 * Storage keys, laid out as kube-apiserver lays them out in etcd: `/registry/<group>/<resource>/<namespace>/<name>`
 * for namespaced objects and `/registry/<group>/<resource>/<name>` for cluster-scoped ones. The group segment is the
 * neutral group key (`core` for the core group), so stored data does not depend on the served flavour.
 */

/** Root of every key the server writes. */
export const registryRoot = '/registry/';

/** The group segment of a key: the neutral group key, `core` for the core group (key `''`). */
export function groupSegment(groupKey: string): string {
  return groupKey === '' ? 'core' : groupKey;
}

/** Prefix of a resource's whole collection, ending in `/`: `/registry/core/configmaps/`. */
export function collectionPrefix(groupKey: string, resource: string): string {
  return `${registryRoot}${groupSegment(groupKey)}/${resource}/`;
}

/** Prefix of a namespaced resource's objects in one namespace, ending in `/`: `/registry/core/configmaps/default/`. */
export function namespacePrefix(groupKey: string, resource: string, namespace: string): string {
  return `${collectionPrefix(groupKey, resource)}${namespace}/`;
}

/** Where one object is stored. */
export interface ObjectKeyParts {
  readonly groupKey: string;
  readonly resource: string;
  /** Absent or `''` for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
}

/** The key of one object: `/registry/core/configmaps/default/cfg` or `/registry/core/namespaces/default`. */
export function objectKey(parts: ObjectKeyParts): string {
  const ns = parts.namespace === undefined || parts.namespace === '' ? '' : `${parts.namespace}/`;
  return `${collectionPrefix(parts.groupKey, parts.resource)}${ns}${parts.name}`;
}

/** The key of an object in a collection whose prefix is known (a ResourceDef's `keyPrefix`). */
export function keyUnderPrefix(prefix: string, namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? `${prefix}${name}` : `${prefix}${namespace}/${name}`;
}

/**
 * The smallest string greater than every string starting with `prefix` (etcd's "range end" of a prefix), or
 * `undefined` when there is none (empty prefix: everything). Keys compare by UTF-16 code unit, which is byte order
 * for the ASCII keys Kubernetes names allow.
 */
export function prefixEnd(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const code = prefix.charCodeAt(i);
    if (code < 0xffff) return prefix.slice(0, i) + String.fromCharCode(code + 1);
  }
  return undefined;
}
