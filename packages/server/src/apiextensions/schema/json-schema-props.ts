/**
 * The CustomResourceDefinition schema language (apiextensions/v1 JSONSchemaProps) as the server reads it from a
 * stored CRD: plain JSON, so every accessor here checks the shape it reads instead of trusting a type.
 */

/** A schema node as written in `spec.versions[*].schema.openAPIV3Schema`. */
export type JsonSchemaProps = Readonly<Record<string, unknown>>;

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `node[key]` when it is a schema node. */
export function schemaAt(node: JsonSchemaProps, key: string): JsonSchemaProps | undefined {
  const v = node[key];
  return isRecord(v) ? v : undefined;
}

/** `node.properties` as a map of schema nodes (non-object entries left out). */
export function propertiesOf(node: JsonSchemaProps): ReadonlyMap<string, JsonSchemaProps> | undefined {
  const props = node['properties'];
  if (!isRecord(props)) return undefined;
  const out = new Map<string, JsonSchemaProps>();
  for (const [k, v] of Object.entries(props)) if (isRecord(v)) out.set(k, v);
  return out;
}

/** `node.items` when it is one schema (JSONSchemaPropsOrArray's schema form). */
export function itemsOf(node: JsonSchemaProps): JsonSchemaProps | undefined {
  return schemaAt(node, 'items');
}

/** `node.additionalProperties` when it is a schema (`true` reads as an empty schema, `false` as undefined). */
export function additionalPropertiesOf(node: JsonSchemaProps): JsonSchemaProps | undefined {
  const v = node['additionalProperties'];
  if (v === true) return {};
  return isRecord(v) ? v : undefined;
}

/** A string field of a node, or undefined. */
export function stringOf(node: JsonSchemaProps, key: string): string | undefined {
  const v = node[key];
  return typeof v === 'string' ? v : undefined;
}

/** A number field of a node, or undefined. */
export function numberOf(node: JsonSchemaProps, key: string): number | undefined {
  const v = node[key];
  if (typeof v === 'bigint') return Number(v);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** True when a boolean field of a node is `true`. */
export function flag(node: JsonSchemaProps, key: string): boolean {
  return node[key] === true;
}

/** A list of schema nodes (`allOf`, `anyOf`, `oneOf`). */
export function schemaListOf(node: JsonSchemaProps, key: string): JsonSchemaProps[] {
  const v = node[key];
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

/** `x-kubernetes-list-map-keys` as strings. */
export function listMapKeysOf(node: JsonSchemaProps): string[] {
  const v = node['x-kubernetes-list-map-keys'];
  return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
}

/** The JSON type name kube-openapi prints for a value (`string`, `integer`, `number`, `boolean`, `object`, `array`, `null`). */
export function jsonTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/** How deep the walks over schemas and objects go before they stop (a 3 MiB body nests far deeper than any API). */
export const maxWalkDepth = 256;

/** The path of a property below `path` (`spec.replicas`; the root's children have no leading dot). */
export function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
