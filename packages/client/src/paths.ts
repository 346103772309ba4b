/**
 * URL paths of resources, per document 1 §Path shapes: `/api/v1/...` for the core group, `/apis/<group>/<version>/...`
 * for named groups, `namespaces/<ns>/` for namespaced resources, `/<subresource>` after the name.
 */

/** Which resource a request is about. `namespace` absent means cluster scope or all namespaces. */
export interface ResourceRef {
  /** `''` for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural, as in the URL. */
  readonly resource: string;
  readonly namespace?: string;
}

/** The prefix of a group-version: `/api/v1` or `/apis/<group>/<version>`. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/**
 * A path segment escaped as Go's URL.EscapedPath escapes it for client-go: characters a segment may hold as they
 * are (`system:aggregate-to-edit` keeps its colon), everything else percent-encoded.
 */
export function pathSegment(text: string): string {
  return encodeURIComponent(text).replace(/%(24|26|2B|2C|3A|3B|3D|40)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The path of a collection, an object (`name`) or an object's subresource. */
export function resourcePath(ref: ResourceRef, name?: string, subresource?: string): string {
  let path = groupVersionPath(ref.group, ref.version);
  if (ref.namespace !== undefined && ref.namespace !== '') path += `/namespaces/${pathSegment(ref.namespace)}`;
  path += `/${ref.resource}`;
  if (name !== undefined) {
    path += `/${pathSegment(name)}`;
    if (subresource !== undefined && subresource !== '') path += `/${subresource}`;
  }
  return path;
}

/** Appends query parameters, skipping undefined ones; booleans and numbers are written as kube expects (`true`, `5`). */
export function withQuery(path: string, query: Readonly<Record<string, string | number | boolean | undefined>>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
