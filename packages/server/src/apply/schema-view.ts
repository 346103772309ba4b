/**
 * What server-side apply reads from a schema node, following how Kubernetes turns OpenAPI into
 * structured-merge-diff types (kube-openapi's schemaconv): a list's type is `x-kubernetes-list-type`; without it, a
 * patch strategy containing `merge` makes it a map keyed by the patch merge key (or a set when it has none), and
 * anything else is atomic. Maps and structs are granular unless `x-kubernetes-map-type: atomic`. A node without a
 * schema (custom resources without one, fields of unknown shape) is "deduced": objects are granular maps, lists
 * atomic (document 1 §Merge markers).
 */
import { permissivePatchSchema, type PatchSchema } from '../patch/patch-schema.js';
import { indexElement, keyElement, valueElement } from './field-path.js';

/** The schema type of a node. */
export type Schema = PatchSchema;

/** The deduced schema of values nobody describes. */
export const deducedSchema: Schema = permissivePatchSchema;

/** How a list's items are told apart. */
export type ListKind =
  | { readonly kind: 'atomic' }
  | { readonly kind: 'set' }
  | { readonly kind: 'map'; readonly keys: readonly string[]; readonly keyDefaults: Readonly<Record<string, unknown>> };

const atomicList: ListKind = { kind: 'atomic' };
const setList: ListKind = { kind: 'set' };

/** The list kind of a list node. */
export function listKindOf(schema: Schema): ListKind {
  if (schema === deducedSchema) return atomicList;
  switch (schema.listType) {
    case 'atomic':
      return atomicList;
    case 'set':
      return setList;
    case 'map':
      return mapList(schema, schema.listMapKeys ?? []);
    default:
      break;
  }
  const strategies = (schema.patchStrategy ?? '').split(',');
  if (strategies.includes('merge')) return schema.patchMergeKey ? mapList(schema, [schema.patchMergeKey]) : setList;
  return atomicList;
}

const mapLists = new WeakMap<Schema, ListKind>();

/** An associative list's kind, with the defaults its items' key fields declare (computed once per schema node). */
function mapList(schema: Schema, keys: readonly string[]): ListKind {
  const known = mapLists.get(schema);
  if (known !== undefined) return known;
  const items = schema.items();
  const keyDefaults: Record<string, unknown> = {};
  for (const key of keys) {
    const value = items?.field(key)?.default;
    if (value !== undefined) keyDefaults[key] = value;
  }
  const made: ListKind = { kind: 'map', keys, keyDefaults };
  mapLists.set(schema, made);
  return made;
}

/** True when a map or struct node is owned as a whole. */
export function isAtomicMap(schema: Schema): boolean {
  return schema.mapType === 'atomic';
}

/** The schema of a map's key: the declared field, else the map's value type, else deduced. */
export function fieldSchemaOf(schema: Schema, name: string): Schema {
  return schema.field(name) ?? schema.additionalProperties() ?? deducedSchema;
}

/** True when `name` is a declared field of a struct (not a map key, not a field of a deduced object). */
export function isNamedField(schema: Schema, name: string): boolean {
  return schema !== deducedSchema && schema.field(name) !== undefined;
}

/** The schema of a list's items. */
export function itemSchemaOf(schema: Schema): Schema {
  return schema.items() ?? deducedSchema;
}

/** A plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path element of a list item: by key fields, by value, or by position when it has neither. */
export function itemElement(item: unknown, kind: ListKind, index: number): string {
  if (kind.kind === 'map' && isObject(item) && kind.keys.length > 0 && kind.keys.some((k) => item[k] !== undefined)) {
    return keyElement(item, kind.keys, kind.keyDefaults);
  }
  if (kind.kind === 'set' || (kind.kind === 'map' && !isObject(item))) return valueElement(item);
  return indexElement(index);
}

/** Deep equality of JSON values (key order ignored for objects). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!(k in b) || !jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}
