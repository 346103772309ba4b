/**
 * OpenAPI v3 documents as kube-apiserver serves them at `/openapi/v3` (the index) and
 * `/openapi/v3/api/v1`, `/openapi/v3/apis/<group>/<version>` (one document per group-version): the upstream
 * 1.27 documents with the enums a running kube-apiserver publishes (enums.ts), renamed into the server's flavour and
 * restricted to the served resources.
 */
import { createHash } from 'node:crypto';
import type { Names } from '@svc-apiserver/api';
import type { Catalog } from '../schema/catalog.js';
import { generatedResources, readUpstreamV3, type GeneratedGroupVersion } from '../schema/generated-data.js';
import { componentsRefPrefix } from '../schema/openapi-schema.js';
import { withPublishedEnums } from './enums.js';
import { cached, servedKey, type BuiltDocument, type ServedResource } from './served.js';

/** An OpenAPI v3 document (the parts this module reads; everything else is carried through). */
export interface OpenApiV3Document {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

/** The `/openapi/v3` index: group-version path → URL of its document with the content hash. */
export interface OpenApiV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

/** `api/v1` or `apis/<served group>/<version>`, the key kube-apiserver uses in the `/openapi/v3` index. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/**
 * The `/openapi/v3` index, as kube-apiserver answers it: every served group-version with
 * `serverRelativeURL: /openapi/v3/<gv path>?hash=<etag>`.
 */
export function openapiV3Index(catalog: Catalog, served: readonly ServedResource[]): BuiltDocument<OpenApiV3Index> {
  return cached(catalog, `v3-index\n${servedKey(served)}`, () => {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const gvPath of servedGroupVersionPaths(catalog, served)) {
      const doc = openapiV3Document(catalog, gvPath, served);
      if (doc) paths[gvPath] = { serverRelativeURL: `/openapi/v3/${gvPath}?hash=${doc.hash}` };
    }
    return built({ paths });
  });
}

/**
 * The document of one group-version (`api/v1`, `apis/coordination.svc.io/v1`), or undefined when nothing of it
 * is served (kube-apiserver answers 404). Paths and group names are in the server's flavour.
 */
export function openapiV3Document(
  catalog: Catalog, groupVersion: string, served: readonly ServedResource[],
): BuiltDocument<OpenApiV3Document> | undefined {
  return cached(catalog, `v3\n${groupVersion}\n${servedKey(served)}`, () => {
    const gv = findGroupVersion(catalog.names, groupVersion);
    if (!gv) return undefined;
    const mine = new Set(served.filter((s) => s.groupKey === gv.groupKey && s.version === gv.version).map((s) => s.resource));
    if (mine.size === 0) return undefined;
    return built(buildDocument(catalog.names, gv, mine));
  });
}

/** The group-version paths (`api/v1`, `apis/apps/v1`) of a served set, core first, in catalog order. */
export function servedGroupVersionPaths(catalog: Catalog, served: readonly ServedResource[]): string[] {
  const wanted = new Set(served.map((s) => `${s.groupKey}/${s.version}`));
  return generatedResources().groupVersions
    .filter((gv) => wanted.has(`${gv.groupKey}/${gv.version}`))
    .map((gv) => groupVersionPath(catalog.names.group(gv.groupKey), gv.version));
}

function findGroupVersion(names: Names, groupVersion: string): GeneratedGroupVersion | undefined {
  return generatedResources().groupVersions.find((gv) => groupVersionPath(names.group(gv.groupKey), gv.version) === groupVersion);
}

function buildDocument(names: Names, gv: GeneratedGroupVersion, mine: ReadonlySet<string>): OpenApiV3Document {
  const upstream = readUpstreamV3(gv.file) as OpenApiV3Document;
  const upstreamPrefix = `/${groupVersionPath(gv.group, gv.version)}/`;
  const servedPrefix = `/${groupVersionPath(names.group(gv.groupKey), gv.version)}/`;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(upstream.paths)) {
    if (!path.startsWith(upstreamPrefix)) continue;
    const target = resourceOfPath(path.slice(upstreamPrefix.length));
    if (target !== '' && !mine.has(target)) continue;
    paths[servedPrefix + path.slice(upstreamPrefix.length)] = renameDeep(item, names) as Record<string, unknown>;
  }
  const allSchemas = upstream.components.schemas;
  const schemas: Record<string, unknown> = {};
  for (const name of reachableSchemas(paths, allSchemas)) schemas[name] = renameDeep(withPublishedEnums(name, allSchemas[name]), names);
  return { ...upstream, paths, components: { ...upstream.components, schemas: sortedObject(schemas) } };
}

/**
 * The resource (`leases`) or subresource (`pods/status`) a path below the group-version prefix addresses;
 * `''` for the group-version's own discovery path. Same path shapes as the generator reads.
 */
export function resourceOfPath(rest: string): string {
  let segs = rest.split('/').filter(Boolean);
  if (segs.length === 0) return '';
  if (segs[0] === 'watch') segs = segs.slice(1);
  if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length > 2) segs = segs.slice(2);
  const [resource, , sub] = segs;
  return sub === undefined ? resource ?? '' : `${resource}/${sub}`;
}

/** Names of the schemas reachable by `$ref` from the given paths. */
function reachableSchemas(paths: unknown, schemas: Record<string, unknown>): string[] {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
    } else if (node !== null && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith(componentsRefPrefix)) {
          const name = v.slice(componentsRefPrefix.length);
          if (!seen.has(name) && name in schemas) {
            seen.add(name);
            visit(schemas[name]);
          }
        } else if (typeof v === 'object') {
          visit(v);
        }
      }
    }
  };
  visit(paths);
  return [...seen];
}

/**
 * A copy of upstream data with the names the flavour renames rewritten: groups in
 * `x-kubernetes-group-version-kind`, and the protobuf media type in `content` keys and in v2 `consumes`/`produces`.
 * Descriptions are left as upstream wrote them.
 */
export function renameDeep(node: unknown, names: Names): unknown {
  if (Array.isArray(node)) return node.map((n) => renameDeep(n, names));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'x-kubernetes-group-version-kind') out[k] = renameGvk(v, names);
    else if (k === 'content' && v !== null && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v).map(([media, body]) => [renameMediaType(media, names), renameDeep(body, names)]));
    } else if ((k === 'consumes' || k === 'produces') && Array.isArray(v)) {
      out[k] = v.map((media) => (typeof media === 'string' ? renameMediaType(media, names) : media));
    } else out[k] = renameDeep(v, names);
  }
  return out;
}

function renameGvk(v: unknown, names: Names): unknown {
  if (Array.isArray(v)) return v.map((x) => renameGvk(x, names));
  if (v !== null && typeof v === 'object' && 'group' in v) {
    const gvk = v as Record<string, unknown>;
    return { ...gvk, group: names.fromUpstream(String(gvk['group'])) };
  }
  return v;
}

/** `application/vnd.kubernetes.protobuf;stream=watch` → the flavour's protobuf media type, parameters kept. */
export function renameMediaType(media: string, names: Names): string {
  const i = media.indexOf(';');
  const base = i < 0 ? media : media.slice(0, i);
  return names.fromUpstream(base) + (i < 0 ? '' : media.slice(i));
}

function sortedObject<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k] as T]));
}

/** Serializes and hashes a document once. */
export function built<T>(document: T): BuiltDocument<T> {
  const json = JSON.stringify(document);
  return { document, json, hash: createHash('sha512').update(json).digest('hex').toUpperCase() };
}
