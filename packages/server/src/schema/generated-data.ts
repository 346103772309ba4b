/**
 * Reads the generated schema data (packages/server/generated/, written by scripts/generate-schemas.mjs) and the
 * upstream copies it was generated from. Paths are relative to this module so they work from src/ and dist/.
 * Everything here keeps upstream (`*.k8s.io`) names; renaming happens in the callers through `Names`.
 */
import { readFileSync } from 'node:fs';
import type { ApiResource, ApiSubresource } from './catalog.js';
import type { SchemaMap } from './openapi-schema.js';

/** A subresource as generated: the catalog's shape, with `group` spelled as upstream. */
export type GeneratedSubresource = ApiSubresource;

/** A resource as generated: the catalog's shape without the group-version fields, names as upstream spells them. */
export interface GeneratedResource extends Omit<ApiResource, 'groupKey' | 'group' | 'version' | 'subresources'> {
  readonly subresources: readonly GeneratedSubresource[];
}

/** One group-version as generated: upstream group, neutral key, and the upstream v3 document's file name. */
export interface GeneratedGroupVersion {
  readonly group: string;
  readonly groupKey: string;
  readonly version: string;
  /** File name of the upstream OpenAPI v3 document in upstream/k8s-1.27/openapi-v3/. */
  readonly file: string;
  readonly resources: readonly GeneratedResource[];
}

/** generated/resources.json. */
export interface GeneratedResources {
  readonly source: string;
  readonly groupVersions: readonly GeneratedGroupVersion[];
}

const generatedUrl = new URL('../../generated/', import.meta.url);
const upstreamV3Url = new URL('../../upstream/k8s-1.27/openapi-v3/', import.meta.url);

let resourcesCache: GeneratedResources | undefined;
let schemasCache: SchemaMap | undefined;

function readJson<T>(url: URL): T {
  return JSON.parse(readFileSync(url, 'utf8')) as T;
}

/** generated/resources.json, parsed once per process. */
export function generatedResources(): GeneratedResources {
  return (resourcesCache ??= readJson<GeneratedResources>(new URL('resources.json', generatedUrl)));
}

/** generated/schemas.json (every components.schemas entry, without descriptions), parsed once per process. */
export function generatedSchemas(): SchemaMap {
  return (schemasCache ??= readJson<SchemaMap>(new URL('schemas.json', generatedUrl)));
}

/** A generated JSON file by name (e.g. `discovery-v2.json`), parsed on each call. */
export function readGenerated<T>(name: string): T {
  return readJson<T>(new URL(name, generatedUrl));
}

/** The upstream OpenAPI v3 document of a group-version, as published (upstream names, with descriptions). */
export function readUpstreamV3(file: string): unknown {
  return readJson<unknown>(new URL(file, upstreamV3Url));
}

/** The upstream gnostic OpenAPIv2.proto text's location. */
export const gnosticOpenApiV2ProtoUrl = new URL('../../upstream/k8s-1.27/proto/gnostic/openapiv2/OpenAPIv2.proto', import.meta.url);
