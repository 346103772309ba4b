/**
 * Virtual resources: kube's create-only REST storages (TokenReview, SubjectAccessReview, SelfSubjectReview, ...).
 * A create is answered from the request alone by the resource's own function and nothing is stored, so a dry run
 * is the same as a real request. The registry owns the shape; authentication and authorization implement it for
 * their reviews, and the HTTP layer decodes, checks and serves it like any create.
 */
import type { KubeObject, Result } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import type { ResourceDef } from './resource-def.js';

/** What a virtual create reads of its request. */
export interface VirtualRequest {
  /** Who asks (the self reviews answer about them). */
  readonly user: UserInfo;
  /** The namespace of the request path; `''` for cluster-scoped resources. */
  readonly namespace: string;
}

/** Answers a virtual create from its request and the decoded, checked body. */
export type VirtualCreate = (request: VirtualRequest, def: ResourceDef, object: KubeObject) => Promise<Result<KubeObject>>;

/** The virtual resources by {@link virtualKey}. */
export type VirtualResources = ReadonlyMap<string, VirtualCreate>;

/** The key of a virtual resource: `<groupKey>/<version>/<resource>` (`authentication/v1/tokenreviews`). */
export function virtualKey(groupKey: string, version: string, resource: string): string {
  return `${groupKey}/${version}/${resource}`;
}

/**
 * A read-only resource answered by code on every get and list, nothing stored (kube's componentstatus REST
 * storage, which probes the components at each request).
 */
export interface VirtualRead {
  /** The objects as they are now. */
  list(): Promise<KubeObject[]>;
}

/** The virtual reads by {@link virtualKey}. */
export type VirtualReads = ReadonlyMap<string, VirtualRead>;
