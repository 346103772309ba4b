/**
 * Parses a request path and method into a {@link RequestInfo}, as k8s.io/apiserver's RequestInfoFactory does.
 *
 * Resource paths:
 *   /api/v1/<resource>[/<name>[/<subresource>]]
 *   /api/v1/namespaces/<ns>/<resource>[/<name>[/<subresource>]]
 *   /apis/<group>/<version>/... (same shapes)
 *   /api/v1/watch/... and /apis/<group>/<version>/watch/... (deprecated watch paths)
 * `/api/v1/namespaces/<ns>` is the namespace object itself (and its `status` / `finalize` subresources).
 * Everything else (discovery, health, openapi, version) is a non-resource request whose verb is the lowercase method.
 */
import type { Result } from '@svc-apiserver/api';
import type { RequestInfo } from '../request/request-info.js';
import { boolParameter } from './handlers/request-options.js';

const slash = 0x2f;

/** Prefixes of resource paths; `api` has no group segment. */
const apiPrefixes = new Set(['api', 'apis']);
const grouplessApiPrefixes = new Set(['api']);
/** Path segments that are verbs, not resources (`/api/v1/watch/pods`). */
const specialVerbs = new Set(['proxy', 'watch']);
/** Verbs whose third segment is part of the proxied path, not a subresource. */
const specialVerbsNoSubresources = new Set(['proxy']);
/** Subresources of a namespace: `/api/v1/namespaces/<ns>/status` is not a namespaced `status` collection. */
const namespaceSubresources = new Set(['status', 'finalize']);

/** A request-info parse failure (a path that starts like a resource path but names no resource). */
export interface RequestInfoError {
  readonly message: string;
}

/** The `metadata.name` a field selector requires exactly (`metadata.name=x` or `metadata.name==x`), if any. */
function exactNameFromFieldSelector(selector: string | null): string | undefined {
  if (!selector) return undefined;
  for (const term of selector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m && m[1] !== undefined && !term.includes('!=')) return m[1];
  }
  return undefined;
}

/** True when a name can be a path segment (path.IsValidPathSegmentName). */
function isValidPathSegmentName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

function nonResource(path: string, method: string, parts: readonly string[]): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts,
  };
}

/**
 * Parses a request. `path` is the URL path without the query; `query` its parameters (`watch`, `fieldSelector`).
 * Returns an error only for paths like `/api/v1/watch` that name no resource after a special verb. Runs for every
 * request: the segments are split once and walked by index, with no copies of them until the result's `parts`.
 */
export function parseRequestInfo(
  method: string,
  path: string,
  query: URLSearchParams,
): Result<RequestInfo, RequestInfoError> {
  // kube's strings.Split(strings.Trim(path, "/"), "/").
  let from = 0;
  let to = path.length;
  while (from < to && path.charCodeAt(from) === slash) from++;
  while (to > from && path.charCodeAt(to - 1) === slash) to--;
  const all = from === to ? [] : path.slice(from, to).split('/');
  // Fewer than three segments can never be a resource request (/api/v1, /apis/apps).
  if (all.length < 3 || !apiPrefixes.has(all[0]!)) return { ok: true, value: nonResource(path, method, all) };

  const apiPrefix = all[0]!;
  let at = 1;
  let apiGroup = '';
  if (!grouplessApiPrefixes.has(apiPrefix)) {
    // /apis/<group>/<version> is discovery, not a resource.
    if (all.length - at < 3) return { ok: true, value: nonResource(path, method, all) };
    apiGroup = all[at++]!;
  }
  const apiVersion = all[at++]!;

  let verb: string;
  if (specialVerbs.has(all[at]!)) {
    if (all.length - at < 2) return { ok: false, error: { message: `unable to determine kind and namespace from url: ${path}` } };
    verb = all[at++]!;
  } else {
    verb = verbOfMethod(method);
  }

  let namespace = '';
  if (all[at] === 'namespaces' && all.length - at > 1) {
    namespace = all[at + 1]!;
    // /namespaces/<ns>/<resource>... is namespaced; /namespaces/<ns>[/status|/finalize] is the namespace itself.
    if (all.length - at > 2 && !namespaceSubresources.has(all[at + 2]!)) at += 2;
  }

  const left = all.length - at;
  const resource = left >= 1 ? all[at]! : '';
  let name = left >= 2 ? all[at + 1]! : '';
  const subresource = left >= 3 && !specialVerbsNoSubresources.has(verb) ? all[at + 2]! : '';

  if (verb === 'get') {
    const watch = query.size === 0 ? false : boolParameter(query, 'watch') ?? false;
    if (name === '') {
      // A GET without a name is a list or a watch; a field selector on metadata.name narrows it to one name.
      verb = watch ? 'watch' : 'list';
      const selected = exactNameFromFieldSelector(query.get('fieldSelector'));
      if (selected !== undefined && isValidPathSegmentName(selected)) name = selected;
    } else if (watch) {
      verb = 'watch';
    }
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  return {
    ok: true,
    value: { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts: all.slice(at) },
  };
}

/** The verb of a method on a path without a special verb segment. */
function verbOfMethod(method: string): string {
  switch (method) {
    case 'POST': return 'create';
    case 'GET': case 'HEAD': return 'get';
    case 'PUT': return 'update';
    case 'PATCH': return 'patch';
    case 'DELETE': return 'delete';
    default: {
      const upper = method.toUpperCase();
      return upper === method ? '' : verbOfMethod(upper);
    }
  }
}
