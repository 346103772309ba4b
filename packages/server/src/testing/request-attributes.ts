/**
 * Requests as the audit policy and flow control tests describe them: one flat record of the user and the request
 * info, split into the UserInfo and RequestInfo the code reads.
 */
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';

/** A user and a request in one record. */
export interface FlatRequest {
  readonly username: string;
  readonly groups: readonly string[];
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly path: string;
}

/** The user and the request info of `r`. */
export function userAndInfo(r: FlatRequest): [UserInfo, RequestInfo] {
  return [
    { username: r.username, groups: r.groups },
    {
      isResourceRequest: r.isResourceRequest, path: r.path, verb: r.verb, apiPrefix: r.isResourceRequest ? (r.apiGroup === '' ? 'api' : 'apis') : '',
      apiGroup: r.apiGroup, apiVersion: r.isResourceRequest ? 'v1' : '', namespace: r.namespace, resource: r.resource,
      subresource: r.subresource, name: r.name, parts: [],
    },
  ];
}
