/**
 * The Swagger 2.0 document kube-apiserver serves at `/openapi/v2`, derived from the served v3 documents the way
 * kube-openapi's two builders differ: `allOf: [{$ref}]` becomes `$ref`, `default` is dropped, references move
 * from `#/components/schemas/` to `#/definitions/`, IntOrString and Quantity become `type: string`, request bodies
 * become `in: body` parameters, media types become per-operation `consumes`/`produces`. The discovery types and
 * paths that only v2 has come from the generated `discovery-v2.json`.
 */
import type { Names } from '@svc-apiserver/api';
import type { Catalog } from '../schema/catalog.js';
import { readGenerated } from '../schema/generated-data.js';
import { componentsRefPrefix } from '../schema/openapi-schema.js';
import { cached, servedKey, type BuiltDocument, type ServedResource } from './served.js';
import { built, openapiV3Document, renameDeep, renameMediaType, servedGroupVersionPaths } from './v3.js';

/** A Swagger 2.0 document (plain JSON). */
export interface SwaggerDocument {
  swagger: '2.0';
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, Record<string, unknown>>;
  securityDefinitions?: Record<string, unknown>;
  security?: unknown[];
}

interface DiscoveryV2 {
  definitions: Record<string, Record<string, unknown>>;
  paths: Record<string, Record<string, unknown>>;
  groupPathTemplate: Record<string, Record<string, unknown>>;
  securityDefinitions: Record<string, unknown>;
  security: unknown[];
  info: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const definitionsRefPrefix = '#/definitions/';
const operationMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** The Swagger 2.0 document for the served set, built once per served set. */
export function openapiV2Document(catalog: Catalog, served: readonly ServedResource[]): BuiltDocument<SwaggerDocument> {
  return cached(catalog, `v2\n${servedKey(served)}`, () => built(buildV2(catalog, served)));
}

function buildV2(catalog: Catalog, served: readonly ServedResource[]): SwaggerDocument {
  const names = catalog.names;
  const discovery = readGenerated<DiscoveryV2>('discovery-v2.json');
  const paths: Record<string, Json> = {};
  const definitions: Record<string, Json> = {};
  for (const [p, item] of Object.entries(discovery.paths)) paths[p] = renameDeep(item, names) as Json;
  for (const [n, d] of Object.entries(discovery.definitions)) definitions[n] = d;
  const groupsDone = new Set<string>();
  for (const gvPath of servedGroupVersionPaths(catalog, served)) {
    const v3 = openapiV3Document(catalog, gvPath, served);
    if (!v3) continue;
    for (const [p, item] of Object.entries(v3.document.paths)) paths[p] = pathItemToV2(item, names);
    for (const [n, s] of Object.entries(v3.document.components.schemas)) definitions[n] = definitionToV2(s as Json);
    const group = gvPath.startsWith('apis/') ? gvPath.split('/')[1] as string : '';
    if (group !== '' && !groupsDone.has(group)) {
      groupsDone.add(group);
      paths[`/apis/${group}/`] = groupPath(discovery.groupPathTemplate, v3.document, names);
    }
  }
  return {
    swagger: '2.0',
    info: discovery.info,
    paths: sorted(paths),
    definitions: sorted(definitions),
    securityDefinitions: discovery.securityDefinitions,
    security: discovery.security,
  };
}

/**
 * `/apis/<group>/` (getAPIGroup): the template's operation with the group's operationId and tag, taken from the
 * group-version's own discovery operation (`getCoordinationV1APIResources`, tag `coordination_v1`).
 */
function groupPath(template: Record<string, Json>, v3: { paths: Record<string, Json> }, names: Names): Json {
  const discoveryOp = Object.entries(v3.paths).find(([p]) => /^\/apis\/[^/]+\/[^/]+\/$/.test(p))?.[1]?.['get'] as Json | undefined;
  const get = renameDeep(template['get'], names) as Json;
  const opId = typeof discoveryOp?.['operationId'] === 'string' ? discoveryOp['operationId'] : undefined;
  const tag = Array.isArray(discoveryOp?.['tags']) ? String(discoveryOp['tags'][0]) : undefined;
  return {
    ...template,
    get: {
      ...get,
      ...(opId ? { operationId: opId.replace(/V\d+(?:(?:alpha|beta)\d+)?APIResources$/, 'APIGroup') } : {}),
      ...(tag ? { tags: [tag.replace(/_v\d+(?:(?:alpha|beta)\d+)?$/, '')] } : {}),
    },
  };
}

/** A definition in v2 form; IntOrString and Quantity (v3 `oneOf`) become `type: string`. */
export function definitionToV2(schema: Json): Json {
  const out = schemaToV2(schema) as Json;
  if (Array.isArray(schema['oneOf'])) {
    delete out['oneOf'];
    out['type'] = 'string';
  }
  return out;
}

/** A v3 schema in v2 form (recursively). */
export function schemaToV2(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaToV2);
  if (schema === null || typeof schema !== 'object') return schema;
  const s = schema as Json;
  const out: Json = {};
  const allOf = s['allOf'];
  const singleRef = Array.isArray(allOf) && allOf.length === 1 && typeof (allOf[0] as Json)?.['$ref'] === 'string';
  for (const [k, v] of Object.entries(s)) {
    if (k === 'default') continue;
    if (k === 'allOf' && singleRef) {
      out['$ref'] = v2Ref((allOf[0] as Json)['$ref'] as string);
    } else if (k === '$ref' && typeof v === 'string') {
      out[k] = v2Ref(v);
    } else if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, schemaToV2(ps)]));
    } else if (k === 'enum' || k === 'example' || k.startsWith('x-')) {
      out[k] = v;
    } else {
      out[k] = schemaToV2(v);
    }
  }
  return sorted(out);
}

function v2Ref(ref: string): string {
  return ref.startsWith(componentsRefPrefix) ? definitionsRefPrefix + ref.slice(componentsRefPrefix.length) : ref;
}

/** A v3 path item in v2 form (parameters inline, request bodies as body parameters, consumes and produces). */
export function pathItemToV2(item: Json, names: Names): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(item)) {
    if (k === 'parameters' && Array.isArray(v)) out[k] = v.map((p) => parameterToV2(p as Json));
    else if (operationMethods.includes(k)) out[k] = operationToV2(k, v as Json, names);
    else out[k] = v;
  }
  return sorted(out);
}

/** A v3 parameter (`schema: {type, ...}`) in v2 form (the schema's keys inline). */
function parameterToV2(p: Json): Json {
  const { schema, ...rest } = p;
  return sorted({ ...rest, ...(schema && typeof schema === 'object' ? (schemaToV2(schema) as Json) : {}) });
}

/** Order kube-apiserver lists media types in (JSON, YAML, protobuf, then their watch forms). */
function mediaRank(media: string, names: Names): number {
  const order = [
    'text/plain', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json',
    'application/apply-patch+yaml', 'application/json', 'application/yaml', names.name('protobufMediaType'),
    'application/json;stream=watch', `${names.name('protobufMediaType')};stream=watch`,
  ];
  const i = order.indexOf(media);
  return i < 0 ? order.length : i;
}

function rankMedia(list: Iterable<string>, names: Names): string[] {
  return [...new Set(list)].sort((a, b) => mediaRank(a, names) - mediaRank(b, names));
}

function operationToV2(method: string, op: Json, names: Names): Json {
  const out: Json = {};
  const body = op['requestBody'] as { content?: Record<string, { schema?: unknown }> } | undefined;
  const params: Json[] = [];
  let consumes: string[];
  if (body?.content) {
    const first = Object.values(body.content)[0];
    params.push({ in: 'body', name: 'body', ...(method === 'delete' ? {} : { required: true }), schema: schemaToV2(first?.schema) });
    consumes = rankMedia(Object.keys(body.content), names);
  } else {
    // Resource operations accept anything; the discovery operations list the serializers.
    consumes = op['x-kubernetes-action'] !== undefined
      ? ['*/*']
      : ['application/json', 'application/yaml', renameMediaType('application/vnd.kubernetes.protobuf', names)];
  }
  if (Array.isArray(op['parameters'])) for (const p of op['parameters']) params.push(parameterToV2(p as Json));
  const produces: string[] = [];
  const responses: Json = {};
  for (const [code, r] of Object.entries((op['responses'] ?? {}) as Record<string, Json>)) {
    const content = r['content'] as Record<string, { schema?: unknown }> | undefined;
    const first = content ? Object.values(content)[0] : undefined;
    if (content) produces.push(...Object.keys(content));
    responses[code] = { description: r['description'], ...(first?.schema ? { schema: schemaToV2(first.schema) } : {}) };
  }
  for (const [k, v] of Object.entries(op)) {
    if (k === 'requestBody' || k === 'parameters' || k === 'responses') continue;
    out[k] = v;
  }
  out['consumes'] = consumes;
  out['produces'] = rankMedia(produces, names);
  if (params.length) out['parameters'] = params;
  out['responses'] = responses;
  out['schemes'] = ['https'];
  return sorted(out);
}

function sorted<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k] as T]));
}
