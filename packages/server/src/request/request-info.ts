/**
 * Request info: what a request path and method mean (k8s.io/apiserver/pkg/endpoints/request.RequestInfo).
 * Parsed once by the request-info filter; every later filter and handler reads it.
 */

/** What a request is about. */
export interface RequestInfo {
  /** True for `/api/...` and `/apis/...` requests naming a resource; false for discovery, health, openapi, version. */
  readonly isResourceRequest: boolean;
  readonly path: string;
  /**
   * For resource requests: get, list, watch, create, update, patch, delete, deletecollection (and proxy).
   * For other requests: the lowercase HTTP method.
   */
  readonly verb: string;
  /** `api` or `apis` for resource requests, `''` otherwise. */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** Path segments after the version (resource request) or all segments (other requests). */
  readonly parts: readonly string[];
}
