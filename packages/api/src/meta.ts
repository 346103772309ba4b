/**
 * Object and list metadata (meta/v1), as document 1 §Resources describes them.
 */

/** One managedFields entry. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** An owner reference. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** ObjectMeta. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
}

/** ListMeta. */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Any API object: kind, apiVersion, metadata and whatever its type holds. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** A `<Kind>List`. */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

/** A watch event as it travels on the wire. */
export interface WatchEvent<T = KubeObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** A group, version and resource. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** A group, version and kind. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** `v1` for the core group, `group/version` otherwise. */
export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** Splits an apiVersion into group and version. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
