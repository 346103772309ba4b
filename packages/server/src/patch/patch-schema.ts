/**
 * The view of a schema that strategic merge patch needs: which fields exist, what a list's items and a map's values
 * are, and the patch metadata on a field (`x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`), read from
 * the OpenAPI v3 `components.schemas` map. kube-apiserver reads the same metadata from the Go struct tags
 * (`patchStrategy`, `patchMergeKey`) of the built-in types; the published OpenAPI carries those tags as extensions.
 */
import { componentsRefPrefix, refName, type OpenApiSchema } from '../schema/openapi-schema.js';

/** One schema node, seen by strategic merge patch. The metadata sits on the node of the field that holds a list. */
export interface PatchSchema {
  /** `x-kubernetes-patch-strategy` as written: `merge`, `retainKeys`, `merge,retainKeys`, `replace`. */
  readonly patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key`: the key that identifies an item of a merged list of objects. */
  readonly patchMergeKey?: string;
  /** `x-kubernetes-list-type`: `atomic`, `set` or `map` (used by server-side apply, not by strategic merge patch). */
  readonly listType?: string;
  /** `x-kubernetes-list-map-keys`, for `listType: map`. */
  readonly listMapKeys?: readonly string[];
  /** `x-kubernetes-map-type`: `atomic` or `granular` (used by server-side apply for maps and structs). */
  readonly mapType?: string;
  /**
   * The node's `default` (server-side apply keys an associative list item lacking a key field by the key field's
   * default, as structured-merge-diff does with defaulted list-map keys such as a port's `protocol`).
   */
  readonly default?: unknown;
  /**
   * The object's `required` properties: in the built-in types' schemas, the fields without omitempty (server-side
   * apply compares typed objects, which always hold them).
   */
  readonly required?: readonly string[];
  /** The schema of a declared property of this object, or undefined when the object does not declare it. */
  field(name: string): PatchSchema | undefined;
  /** The schema of this list's items. */
  items(): PatchSchema | undefined;
  /** The schema of this map's values (`additionalProperties`). */
  additionalProperties(): PatchSchema | undefined;
}

/**
 * The view of a schema nobody knows (custom resources, fields outside the schema): every field exists and is
 * itself unknown, so lists carry no merge strategy and are replaced, and objects merge key by key like a JSON
 * merge patch.
 */
export const permissivePatchSchema: PatchSchema = {
  field: () => permissivePatchSchema,
  items: () => permissivePatchSchema,
  additionalProperties: () => permissivePatchSchema,
};

/** What one node says once its `$ref` and `allOf` members are folded in; the outermost value wins. */
interface FoldedNode {
  patchStrategy?: string;
  patchMergeKey?: string;
  listType?: string;
  listMapKeys?: readonly string[];
  mapType?: string;
  default?: unknown;
  required?: readonly string[];
  properties?: Readonly<Record<string, OpenApiSchema>>;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
}

/**
 * Builds the patch view of `schemaName` over an OpenAPI v3 `components.schemas` map, lazily: a node is resolved
 * (following `$ref` and `allOf: [{ $ref }]`) only when the patch reaches it. An unknown name gives the permissive view.
 */
export function patchSchemaFromOpenApi(schemas: Readonly<Record<string, unknown>>, schemaName: string): PatchSchema {
  const root = schemas[schemaName];
  if (!isObject(root)) return permissivePatchSchema;
  const named = new Map<string, PatchSchema>();

  function lookup(name: string): OpenApiSchema | undefined {
    const found = schemas[name];
    return isObject(found) ? (found as OpenApiSchema) : undefined;
  }

  function fold(node: OpenApiSchema, into: FoldedNode, seen: Set<string>): void {
    const strategy = node['x-kubernetes-patch-strategy'];
    if (into.patchStrategy === undefined && typeof strategy === 'string') into.patchStrategy = strategy;
    const mergeKey = node['x-kubernetes-patch-merge-key'];
    if (into.patchMergeKey === undefined && typeof mergeKey === 'string') into.patchMergeKey = mergeKey;
    const listType = node['x-kubernetes-list-type'];
    if (into.listType === undefined && typeof listType === 'string') into.listType = listType;
    const mapKeys = node['x-kubernetes-list-map-keys'];
    if (into.listMapKeys === undefined && Array.isArray(mapKeys)) {
      into.listMapKeys = mapKeys.filter((k): k is string => typeof k === 'string');
    }
    const mapType = node['x-kubernetes-map-type'];
    if (into.mapType === undefined && typeof mapType === 'string') into.mapType = mapType;
    if (into.default === undefined && node['default'] !== undefined) into.default = node['default'];
    const required = node['required'];
    if (into.required === undefined && Array.isArray(required)) into.required = required.filter((r): r is string => typeof r === 'string');
    if (into.properties === undefined && isObject(node.properties)) into.properties = node.properties;
    if (into.items === undefined && isObject(node.items)) into.items = node.items;
    if (into.additionalProperties === undefined && node.additionalProperties !== undefined) {
      into.additionalProperties = node.additionalProperties;
    }
    if (typeof node.$ref === 'string') {
      const name = refName(node.$ref);
      const target = lookup(name);
      if (target !== undefined && !seen.has(name)) fold(target, into, new Set(seen).add(name));
    }
    for (const member of node.allOf ?? []) {
      if (isObject(member)) fold(member as OpenApiSchema, into, seen);
    }
  }

  function view(node: OpenApiSchema): PatchSchema {
    // A bare reference to a named schema shares one view, so recursive types (JSONSchemaProps) stay finite.
    if (typeof node.$ref === 'string' && Object.keys(node).length === 1) {
      const name = refName(node.$ref);
      const cached = named.get(name);
      if (cached !== undefined) return cached;
      const target = lookup(name);
      const made = target === undefined ? permissivePatchSchema : build(target);
      named.set(name, made);
      return made;
    }
    return build(node);
  }

  function build(node: OpenApiSchema): PatchSchema {
    const folded: FoldedNode = {};
    fold(node, folded, new Set());
    const fields = new Map<string, PatchSchema>();
    let itemsView: PatchSchema | undefined;
    let valuesView: PatchSchema | undefined;
    const result: {
      -readonly [K in keyof PatchSchema]: PatchSchema[K];
    } = {
      field(name) {
        const known = fields.get(name);
        if (known !== undefined) return known;
        const props = folded.properties;
        if (props === undefined || !Object.hasOwn(props, name)) return undefined;
        const child = props[name];
        if (!isObject(child)) return undefined;
        const made = view(child as OpenApiSchema);
        fields.set(name, made);
        return made;
      },
      items() {
        if (itemsView === undefined && folded.items !== undefined) itemsView = view(folded.items);
        return itemsView;
      },
      additionalProperties() {
        const values = folded.additionalProperties;
        if (values === undefined || values === false) return undefined;
        if (values === true) return permissivePatchSchema;
        valuesView ??= view(values);
        return valuesView;
      },
    };
    if (folded.patchStrategy !== undefined) result.patchStrategy = folded.patchStrategy;
    if (folded.patchMergeKey !== undefined) result.patchMergeKey = folded.patchMergeKey;
    if (folded.listType !== undefined) result.listType = folded.listType;
    if (folded.listMapKeys !== undefined) result.listMapKeys = folded.listMapKeys;
    if (folded.mapType !== undefined) result.mapType = folded.mapType;
    if (folded.default !== undefined) result.default = folded.default;
    if (folded.required !== undefined) result.required = folded.required;
    return result;
  }

  return view({ $ref: componentsRefPrefix + schemaName });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
