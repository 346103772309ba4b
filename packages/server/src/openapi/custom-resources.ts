/**
 * OpenAPI for custom resources, as apiextensions-apiserver's builder publishes it per CRD version: one v3 document
 * per group-version (`/openapi/v3/apis/<group>/<version>`) with the kind's schema (the structural schema plus
 * `apiVersion`, `kind`, `metadata` and `x-kubernetes-group-version-kind`), its list, and the resource's paths; and
 * the same in the v2 document (value validations and `nullable` dropped, as kube's v2 form does), so `kubectl
 * explain` finds custom resources. Paths follow the shapes of built-in resources of the same scope (kube installs
 * custom resource endpoints with the same installer), made from the upstream 1.27 documents with the names changed.
 */
import type { Names } from '@svc-apiserver/api';
import type { ApiResource } from '../schema/catalog.js';
import { readUpstreamV3 } from '../schema/generated-data.js';
import { componentsRefPrefix, type OpenApiSchema } from '../schema/openapi-schema.js';
import type { BuiltDocument } from './served.js';
import { definitionToV2, pathItemToV2, schemaToV2, type SwaggerDocument } from './v2.js';
import { built, groupVersionPath, renameDeep, type OpenApiV3Document } from './v3.js';

/** What the documents need of a served custom resource: its catalog facts and its version's schema. */
type CustomResource = Pick<ApiResource, 'group' | 'version' | 'kind' | 'listKind' | 'resource' | 'namespaced' | 'subresources'> & {
  readonly custom?: { readonly schema: OpenApiSchema };
};

type Json = Record<string, unknown>;

const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const listMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const apiVersionDescription = 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const kindDescription = 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

let coreDocument: OpenApiV3Document | undefined;
const core = (): OpenApiV3Document => (coreDocument ??= readUpstreamV3('api__v1_openapi.json') as OpenApiV3Document);

/** kube's REST-friendly definition name: `stable.example.com/v1/CronTab` → `com.example.stable.v1.CronTab`. */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

/** `stable.example.com` + `v1` → `StableExampleComV1`, as operation ids spell a group-version. */
function operationGroup(group: string, version: string): string {
  const camel = group.split(/[.-]/).filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  return `${camel}${version[0]!.toUpperCase()}${version.slice(1)}`;
}

/** `stable.example.com` → `stableExampleCom`, as tags spell a group. */
function tagGroup(group: string): string {
  const camel = operationGroup(group, 'x').slice(0, -1);
  return camel[0]!.toLowerCase() + camel.slice(1);
}

/** Paths of the built-in resource whose shape a custom resource's paths copy. */
function templatePaths(namespaced: boolean, subresource: string): [string, Json][] {
  const paths = core().paths;
  const pick = (p: string): [string, Json][] => (paths[p] === undefined ? [] : [[p, paths[p] as Json]]);
  if (subresource === 'scale') {
    const scale = pick('/api/v1/namespaces/{namespace}/replicationcontrollers/{name}/scale');
    return namespaced ? scale : scale.map(([p, item]) => [p.replace('/namespaces/{namespace}', ''), clusterScoped(item)]);
  }
  const plural = namespaced ? 'resourcequotas' : 'persistentvolumes';
  const prefix = namespaced ? '/api/v1/namespaces/{namespace}' : '/api/v1';
  if (subresource === 'status') return pick(`${prefix}/${plural}/{name}/status`);
  const out = [...pick(`${prefix}/${plural}`), ...pick(`${prefix}/${plural}/{name}`)];
  if (namespaced) out.push(...pick(`/api/v1/${plural}`));
  return out;
}

/** A namespaced path item without its namespace parameter. */
function clusterScoped(item: Json): Json {
  const copy = structuredClone(item);
  const params = copy['parameters'];
  if (Array.isArray(params)) copy['parameters'] = params.filter((p) => (p as Json)['name'] !== 'namespace');
  return JSON.parse(JSON.stringify(copy).replaceAll('Namespaced', '')) as Json;
}

/** The paths of one custom resource version. */
function resourcePaths(def: CustomResource, names: Names): Record<string, Json> {
  const templateKind = def.namespaced ? 'ResourceQuota' : 'PersistentVolume';
  const templatePlural = def.namespaced ? 'resourcequotas' : 'persistentvolumes';
  const name = definitionName(def.group, def.version, def.kind);
  const gvPrefix = `/${groupVersionPath(def.group, def.version)}/`;
  const out: Record<string, Json> = {};
  const subs = ['', ...def.subresources.map((s) => s.name).filter((s) => s === 'status' || s === 'scale')];
  for (const sub of subs) {
    for (const [path, item] of templatePaths(def.namespaced, sub)) {
      let text = JSON.stringify(renameDeep(item, names));
      text = text
        .replaceAll(`io.k8s.api.core.v1.${templateKind}List`, `${name}List`)
        .replaceAll(`io.k8s.api.core.v1.${templateKind}`, name)
        .replaceAll('io.k8s.api.core.v1.ReplicationController', name)
        .replaceAll('CoreV1', operationGroup(def.group, def.version))
        .replaceAll('"core_v1"', JSON.stringify(`${tagGroup(def.group)}_${def.version}`))
        .replaceAll(templateKind, def.kind)
        .replaceAll('ReplicationController', def.kind)
        .replaceAll('"group":""', `"group":${JSON.stringify(def.group)}`);
      const parsed = JSON.parse(text) as Json;
      fixGroupVersionKinds(parsed, def);
      const target = path.replace('/api/v1/', gvPrefix).replace(templatePlural, def.resource).replace('replicationcontrollers', def.resource);
      out[target] = parsed;
    }
  }
  return out;
}

/** Every `x-kubernetes-group-version-kind` of the operations names the custom resource's group and version. */
function fixGroupVersionKinds(node: unknown, def: CustomResource): void {
  if (Array.isArray(node)) {
    for (const n of node) fixGroupVersionKinds(n, def);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Json;
  const gvk = o['x-kubernetes-group-version-kind'];
  if (gvk !== null && typeof gvk === 'object' && !Array.isArray(gvk) && (gvk as Json)['kind'] !== 'Scale') {
    o['x-kubernetes-group-version-kind'] = { group: def.group, kind: def.kind, version: def.version };
  }
  for (const v of Object.values(o)) fixGroupVersionKinds(v, def);
}

/** The kind's schema and its list's, as kube's builder makes them. */
function kindSchemas(def: CustomResource): Record<string, Json> {
  const name = definitionName(def.group, def.version, def.kind);
  const schema = structuredClone(def.custom?.schema ?? {}) as Json;
  const props = (schema['properties'] ?? {}) as Json;
  schema['properties'] = {
    apiVersion: { description: apiVersionDescription, type: 'string' },
    kind: { description: kindDescription, type: 'string' },
    metadata: { allOf: [{ $ref: componentsRefPrefix + objectMeta }], description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata" },
    ...Object.fromEntries(Object.entries(props).filter(([k]) => k !== 'apiVersion' && k !== 'kind' && k !== 'metadata')),
  };
  schema['x-kubernetes-group-version-kind'] = [{ group: def.group, kind: def.kind, version: def.version }];
  const list: Json = {
    description: `${def.listKind} is a list of ${def.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { description: apiVersionDescription, type: 'string' },
      items: { description: `List of ${def.resource}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`, type: 'array', items: { $ref: componentsRefPrefix + name } },
      kind: { description: kindDescription, type: 'string' },
      metadata: { allOf: [{ $ref: componentsRefPrefix + listMeta }], description: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' },
    },
    'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.listKind, version: def.version }],
  };
  return { [name]: schema, [`${name}List`]: list };
}

/** The built-in schemas a custom resource's document refers to (metadata, Status, DeleteOptions, Scale, ...). */
function referencedSchemas(node: unknown, names: Names): Record<string, unknown> {
  const all = core().components.schemas;
  const out: Record<string, unknown> = {};
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const x of n) visit(x);
      return;
    }
    if (n === null || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(componentsRefPrefix)) {
        const ref = v.slice(componentsRefPrefix.length);
        if (out[ref] === undefined && all[ref] !== undefined) {
          out[ref] = renameDeep(all[ref], names);
          visit(all[ref]);
        }
      } else visit(v);
    }
  };
  visit(node);
  return out;
}

/** The v3 document of one custom group-version (its served custom resources). */
export function customResourceV3Document(defs: readonly CustomResource[], names: Names): OpenApiV3Document {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = {};
  for (const def of defs) {
    Object.assign(paths, resourcePaths(def, names));
    Object.assign(schemas, kindSchemas(def));
  }
  Object.assign(schemas, referencedSchemas({ paths, schemas }, names));
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' },
    paths: sortedObject(paths),
    components: { schemas: sortedObject(schemas) },
  };
}

/** A schema in kube's v2 form for custom resources: no nullable, no value validations, no int-or-string type. */
function customSchemaToV2(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(customSchemaToV2);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'nullable' || k === 'oneOf' || k === 'anyOf' || k === 'not' || k === 'x-kubernetes-validations') continue;
    out[k] = k === 'enum' || k === 'default' || k === 'example' ? v : customSchemaToV2(v);
  }
  return out;
}

/** The v2 document with every custom group-version's paths and definitions added. */
export function withCustomResourcesV2(
  builtin: SwaggerDocument, documents: readonly OpenApiV3Document[], names: Names,
): BuiltDocument<SwaggerDocument> {
  const paths: Record<string, Record<string, unknown>> = { ...builtin.paths };
  const definitions: Record<string, Record<string, unknown>> = { ...builtin.definitions };
  for (const doc of documents) {
    for (const [p, item] of Object.entries(doc.paths)) paths[p] = pathItemToV2(item, names);
    for (const [n, s] of Object.entries(doc.components.schemas)) {
      if (definitions[n] !== undefined) continue;
      definitions[n] = definitionToV2(schemaToV2(customSchemaToV2(s)) as Json);
    }
  }
  return built({ ...builtin, paths: sortedObject(paths), definitions: sortedObject(definitions) });
}

function sortedObject<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k] as T]));
}

/** The OpenAPI of the custom resources served now, rebuilt only after the served set changed. */
export interface CustomResourceOpenApi {
  /** Built v3 documents by group-version path (`apis/stable.example.com/v1`). */
  documents(): ReadonlyMap<string, BuiltDocument<OpenApiV3Document>>;
  /** The v2 document with the custom resources added to `builtin`. */
  v2(builtin: BuiltDocument<SwaggerDocument>): BuiltDocument<SwaggerDocument>;
}

/** Keeps the custom resources' OpenAPI for a registry's served set. */
export function customResourceOpenApi(
  served: { all(): readonly CustomResource[]; onChange(listener: () => void): () => void }, names: Names,
): CustomResourceOpenApi {
  let docs: Map<string, BuiltDocument<OpenApiV3Document>> | undefined;
  let v2: { base: string; doc: BuiltDocument<SwaggerDocument> } | undefined;
  served.onChange(() => {
    docs = undefined;
    v2 = undefined;
  });
  const documents = (): Map<string, BuiltDocument<OpenApiV3Document>> => {
    if (docs !== undefined) return docs;
    const byGv = new Map<string, CustomResource[]>();
    for (const d of served.all()) {
      if (d.custom === undefined) continue;
      const gv = groupVersionPath(d.group, d.version);
      byGv.set(gv, [...(byGv.get(gv) ?? []), d]);
    }
    docs = new Map([...byGv].map(([gv, defs]) => [gv, built(customResourceV3Document(defs, names))]));
    return docs;
  };
  return {
    documents,
    v2(builtin) {
      const all = documents();
      if (all.size === 0) return builtin;
      if (v2?.base !== builtin.hash) v2 = { base: builtin.hash, doc: withCustomResourcesV2(builtin.document, [...all.values()].map((d) => d.document), names) };
      return v2.doc;
    },
  };
}
