/**
 * Expression types from structural schemas (document 3 §Expression language, the schema → type table; kube's
 * SchemaDeclType): objects with properties are object types, objects with additionalProperties maps, arrays lists
 * (keeping their `x-kubernetes-list-type` for equality and concatenation), int-or-string and unknown shapes dynamic,
 * string formats byte/date/date-time/duration bytes/timestamp/timestamp/duration. Each type also carries the worst-case
 * size the cost estimator assumes: the declared maxItems/maxLength/maxProperties, or what fits in one request.
 */
import { escapePropertyName } from './escaping.js';
import { maxRequestSizeBytes } from './limits.js';

/** The list types of `x-kubernetes-list-type`. */
export type ListType = 'atomic' | 'set' | 'map';

/**
 * A structural schema node: the JSON of an OpenAPI v3 schema carrying `x-kubernetes-*` extensions, as a CRD's
 * `openAPIV3Schema` or a built-in type's published schema holds it. `$ref` (`#/components/schemas/<name>`) and a lone
 * `allOf: [{$ref}]` are followed through the resolver given to {@link declTypeOf}.
 */
export interface StructuralSchema {
  readonly type?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly required?: readonly string[];
  readonly items?: StructuralSchema;
  readonly additionalProperties?: StructuralSchema | boolean;
  readonly maxItems?: number;
  readonly maxLength?: number;
  readonly maxProperties?: number;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly nullable?: boolean;
  readonly $ref?: string;
  readonly allOf?: readonly StructuralSchema[];
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-list-type'?: string;
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly [extension: `x-${string}`]: unknown;
}

/** A scalar expression type. */
export type ScalarKind = 'string' | 'int' | 'double' | 'bool' | 'bytes' | 'timestamp' | 'duration' | 'dyn';

/** One accessible property of an object type. */
export interface DeclField {
  /** The name expressions use (escaped). */
  readonly name: string;
  /** The property's name in JSON. */
  readonly jsonName: string;
  readonly type: DeclType;
  readonly required: boolean;
}

/**
 * The expression type of a schema node (kube's DeclType). `maxElements` is the worst-case size (characters, bytes,
 * items or properties) and `minSerializedSize` the fewest JSON bytes a value takes, both for cost estimation.
 */
export type DeclType =
  | { readonly kind: 'scalar'; readonly scalar: ScalarKind; readonly maxElements: number; readonly minSerializedSize: number }
  | {
    readonly kind: 'list';
    readonly elem: DeclType;
    readonly listType: ListType;
    readonly mapKeys: readonly string[];
    readonly maxElements: number;
    readonly minSerializedSize: number;
  }
  | { readonly kind: 'map'; readonly value: DeclType; readonly maxElements: number; readonly minSerializedSize: number }
  | { readonly kind: 'library'; readonly typeName: string; readonly maxElements: number; readonly minSerializedSize: number }
  | {
    readonly kind: 'object';
    /** A unique name: the root's name, then `.field`, `.__idx__` (list items) and `.__elem__` (map values), like kube's `@idx`/`@elem`. */
    readonly typeName: string;
    readonly fields: ReadonlyMap<string, DeclField>;
    readonly maxElements: number;
    readonly minSerializedSize: number;
  };

/** Finds the schema a `$ref` names (the built-in types' `#/components/schemas/<name>`). */
export type SchemaResolver = (ref: string) => StructuralSchema | undefined;

/** Options of {@link declTypeOf}. */
export interface DeclTypeOptions {
  /** The name of the root object type (kube gives each rule's `self` a unique one). */
  readonly typeName: string;
  /** True at the root of a resource: `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` are implied. */
  readonly isResourceRoot?: boolean;
  readonly resolve?: SchemaResolver;
}

// Serialized-size and length bounds of k8s.io/apiserver/pkg/cel limits.go.
const minStringSize = 2;
const minBoolSize = 4;
const minNumberSize = 1;
const maxDurationSizeJson = 32;
const maxDatetimeSizeJson = 32;
const minDurationSizeJson = 3;
const jsonDateSize = 12;
const minDatetimeSizeJson = 21;

const scalar = (s: ScalarKind, maxElements: number, minSerializedSize: number): DeclType =>
  ({ kind: 'scalar', scalar: s, maxElements, minSerializedSize });

/** The type of a policy's `authorizer` variable (the authorizer library's value). */
export const authorizerType: DeclType = { kind: 'library', typeName: 'kubernetes.authorization.Authorizer', maxElements: 0, minSerializedSize: 0 };

/** The dynamic type of `object` in policies and of values whose shape no schema tells. */
export const dynType: DeclType = scalar('dyn', maxRequestSizeBytes - 2, 1);

const zeroIfNegative = (v: number): number => (v < 0 ? 0 : v);

function estimateMaxStringLength(s: StructuralSchema): number {
  if (s['x-kubernetes-int-or-string']) return maxRequestSizeBytes - 2;
  switch (s.format) {
    case 'duration': return maxDurationSizeJson;
    case 'date': return jsonDateSize;
    case 'date-time': return maxDatetimeSizeJson;
    default: return maxRequestSizeBytes - 2;
  }
}

const estimateMaxArrayItems = (minSize: number): number => Math.floor((maxRequestSizeBytes - 2) / (minSize + 1));
const estimateMaxAdditionalProperties = (minSize: number): number => Math.floor((maxRequestSizeBytes - 2) / (minSize + 6));

function resolveNode(s: StructuralSchema, resolve: SchemaResolver | undefined, seen: ReadonlySet<string>): { schema: StructuralSchema; ref?: string } | undefined {
  let node = s;
  for (let hops = 0; hops < 8; hops++) {
    const ref = node.$ref ?? (node.allOf?.length === 1 ? node.allOf[0]!.$ref : undefined);
    if (ref === undefined) return { schema: node };
    if (seen.has(ref) || resolve === undefined) return undefined;
    const target = resolve(ref);
    if (target === undefined) return undefined;
    if (target.$ref === undefined && !(target.allOf?.length === 1)) return { schema: target, ref };
    node = target;
  }
  return undefined;
}

function withTypeAndObjectMeta(s: StructuralSchema): StructuralSchema {
  const props = s.properties ?? {};
  const meta = props['metadata'];
  if (props['kind']?.type === 'string' && props['apiVersion']?.type === 'string' && meta?.type === 'object'
    && meta.properties?.['name']?.type === 'string' && meta.properties?.['generateName']?.type === 'string') return s;
  return {
    ...s,
    properties: {
      ...props,
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

/**
 * The expression type of schema node `schema`, or undefined when the node is not exposed to expressions (no type,
 * items or value schema that is not exposed). Properties whose names cannot be escaped are left out, as are unknown
 * fields under `x-kubernetes-preserve-unknown-fields`.
 */
export function declTypeOf(schema: StructuralSchema, options: DeclTypeOptions): DeclType | undefined {
  return convert(schema, options.typeName, options.isResourceRoot ?? false, options.resolve, new Set());
}

function convert(input: StructuralSchema, name: string, isResourceRoot: boolean, resolve: SchemaResolver | undefined, seen: ReadonlySet<string>): DeclType | undefined {
  const resolved = resolveNode(input, resolve, seen);
  // A type that contains itself (possible only among the built-in types) is dynamic from its second occurrence on.
  if (resolved === undefined) return input.$ref !== undefined || input.allOf !== undefined ? dynType : undefined;
  const inner = resolved.ref !== undefined ? new Set([...seen, resolved.ref]) : seen;
  let s = resolved.schema;
  if (s['x-kubernetes-int-or-string']) return dynType;
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      if (s.items === undefined) return undefined;
      const elem = convert(s.items, `${name}.__idx__`, s.items['x-kubernetes-embedded-resource'] === true, resolve, inner);
      if (elem === undefined) return undefined;
      const listType = s['x-kubernetes-list-type'];
      return {
        kind: 'list',
        elem,
        listType: listType === 'set' || listType === 'map' ? listType : 'atomic',
        mapKeys: s['x-kubernetes-list-map-keys'] ?? [],
        maxElements: s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : estimateMaxArrayItems(elem.minSerializedSize),
        minSerializedSize: 2,
      };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') {
        const value = convert(ap, `${name}.__elem__`, ap['x-kubernetes-embedded-resource'] === true, resolve, inner);
        if (value === undefined) return undefined;
        return {
          kind: 'map',
          value,
          maxElements: s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : estimateMaxAdditionalProperties(value.minSerializedSize),
          minSerializedSize: 2,
        };
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, DeclField>();
      let minSerializedSize = 2;
      for (const [jsonName, prop] of Object.entries(s.properties ?? {})) {
        const escaped = escapePropertyName(jsonName);
        const type = convert(prop, `${name}.${escaped ?? jsonName}`, prop['x-kubernetes-embedded-resource'] === true, resolve, inner);
        if (type === undefined) continue;
        if (escaped !== undefined) fields.set(escaped, { name: escaped, jsonName, type, required: required.has(jsonName) });
        // Required properties without a default are in every serialized value.
        if (required.has(jsonName) && prop.default === undefined) minSerializedSize += jsonName.length + type.minSerializedSize + 4;
      }
      return { kind: 'object', typeName: name, fields, maxElements: 0, minSerializedSize };
    }
    case 'string':
      switch (s.format) {
        case 'byte': return scalar('bytes', s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : estimateMaxStringLength(s), minStringSize);
        case 'duration': return scalar('duration', estimateMaxStringLength(s), minDurationSizeJson);
        case 'date': return scalar('timestamp', estimateMaxStringLength(s), jsonDateSize);
        case 'date-time': return scalar('timestamp', estimateMaxStringLength(s), minDatetimeSizeJson);
        default:
          // maxLength counts code points; sizes are reasoned about in bytes, up to four per code point.
          return scalar('string', s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : estimateMaxStringLength(s), minStringSize);
      }
    case 'boolean': return scalar('bool', 0, minBoolSize);
    case 'number': return scalar('double', 0, minNumberSize);
    case 'integer': return scalar('int', 0, minNumberSize);
    default:
      // An object of unknown shape (x-kubernetes-preserve-unknown-fields without a type) exposes nothing typed.
      return s['x-kubernetes-preserve-unknown-fields'] ? { kind: 'object', typeName: name, fields: new Map(), maxElements: 0, minSerializedSize: 2 } : undefined;
  }
}

/** The cel-js type string of a declared type. */
export function celTypeName(t: DeclType): string {
  switch (t.kind) {
    case 'scalar':
      switch (t.scalar) {
        case 'timestamp': return 'google.protobuf.Timestamp';
        case 'duration': return 'google.protobuf.Duration';
        default: return t.scalar;
      }
    case 'list': return `list<${celTypeName(t.elem)}>`;
    case 'map': return `map<string, ${celTypeName(t.value)}>`;
    case 'object': case 'library': return t.typeName;
  }
}

/** Every object type within `t`, innermost first (the order in which they can be declared). */
export function objectTypesOf(t: DeclType, out: Extract<DeclType, { kind: 'object' }>[] = []): Extract<DeclType, { kind: 'object' }>[] {
  switch (t.kind) {
    case 'list': objectTypesOf(t.elem, out); break;
    case 'map': objectTypesOf(t.value, out); break;
    case 'object':
      for (const f of t.fields.values()) objectTypesOf(f.type, out);
      if (!out.includes(t)) out.push(t);
      break;
    default: break;
  }
  return out;
}
