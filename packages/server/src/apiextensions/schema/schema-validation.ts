/**
 * Validation of a CRD version's `openAPIV3Schema` as apiextensions-apiserver 1.27 validates it: the generic rules of
 * ValidateCustomResourceDefinitionOpenAPISchema (uniqueItems, properties beside additionalProperties, the list and
 * map type extensions and their keys, `x-kubernetes-preserve-unknown-fields: false`), the structural rules of
 * structuralschema.ValidateStructural (a type on every specified node, `object` at the root, metadata limited to
 * name and generateName, embedded resources, int-or-string, nothing but value validations inside allOf, anyOf,
 * oneOf and not), and defaults that validate against their schema and survive pruning. Messages and field paths are
 * kube's (`spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: ...`).
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import {
  isRecord, listMapKeysOf, maxWalkDepth, propertiesOf, schemaAt, stringOf, type JsonSchemaProps,
} from './json-schema-props.js';
import { prune } from './pruning.js';
import { validateValue } from './value-validation.js';

type Level = 'root' | 'field' | 'item';

const metaFields: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);
/** Keywords of JSON Schema a structural schema may not use anywhere. */
const unsupported = ['$ref', '$schema', 'definitions', 'dependencies', 'additionalItems', 'patternProperties', 'id'];
/**
 * What a value validation (inside allOf, anyOf, oneOf, not) may not say, as it would change the structure, with
 * the word kube's validateNestedValueValidation uses for each: strings and lists must be empty, flags false, the
 * rest undefined. Each applies only when set (a flag when true, a list or string when non-empty).
 */
const structuralOnly: readonly (readonly [string, 'empty' | 'undefined' | 'false'])[] = [
  ['type', 'empty'], ['additionalProperties', 'undefined'], ['default', 'undefined'], ['title', 'empty'], ['description', 'empty'],
  ['nullable', 'false'], ['x-kubernetes-preserve-unknown-fields', 'false'], ['x-kubernetes-embedded-resource', 'false'],
  ['x-kubernetes-int-or-string', 'false'], ['x-kubernetes-list-map-keys', 'empty'], ['x-kubernetes-list-type', 'undefined'],
  ['x-kubernetes-map-type', 'undefined'], ['x-kubernetes-validations', 'empty'],
];

/** Whether a forbidden keyword is set in the sense kube checks it (`false`, `''` and `[]` are unset for their kinds). */
function isSet(value: unknown, word: 'empty' | 'undefined' | 'false'): boolean {
  if (value === undefined || value === null) return false;
  if (word === 'false') return value === true;
  if (word === 'empty') return !(value === '' || (Array.isArray(value) && value.length === 0));
  return true;
}

/** isIntOrStringAnyOfPattern: `anyOf: [{type: integer}, {type: string}]`, which kube leaves unchecked. */
function isIntOrStringAnyOf(anyOf: unknown): boolean {
  const only = (v: unknown, type: string): boolean => isRecord(v) && Object.keys(v).length === 1 && v['type'] === type;
  return Array.isArray(anyOf) && anyOf.length === 2 && only(anyOf[0], 'integer') && only(anyOf[1], 'string');
}

/** Validates a schema at `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function validateSchema(schema: JsonSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  structural(schema, path, 'root', errors, 0);
  if (errors.length === 0) defaults(schema, path, errors, 0);
  return errors;
}

const key = (path: string, k: string): string => `${path}.properties[${k}]`;

function structural(s: JsonSchemaProps, path: string, level: Level, errors: FieldError[], depth: number): void {
  if (depth > maxWalkDepth) {
    errors.push(fieldError.invalid(path, '', `exceeds the maximum nesting depth of ${maxWalkDepth}`));
    return;
  }
  generic(s, path, errors);
  const type = stringOf(s, 'type') ?? '';
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const props = propertiesOf(s);
  const items = schemaAt(s, 'items');
  if (type === 'array' && items === undefined) errors.push(fieldError.required(`${path}.items`, 'must be specified'));
  if (items !== undefined) structural(items, `${path}.items`, 'item', errors, depth + 1);
  const additional = schemaAt(s, 'additionalProperties');
  if (additional !== undefined) structural(additional, `${path}.additionalProperties`, 'field', errors, depth + 1);
  for (const [k, v] of props ?? []) structural(v, key(path, k), 'field', errors, depth + 1);
  // The int-or-string idiom, directly or as the first allOf's anyOf, is the one value validation with types.
  const allOf = Array.isArray(s['allOf']) ? s['allOf'] : [];
  const skipFirstAllOfAnyOf = isRecord(allOf[0]) && isIntOrStringAnyOf(allOf[0]['anyOf']);
  for (const [i, v] of valueValidationSchemas(s, isIntOrStringAnyOf(s['anyOf']))) {
    valueValidation(v, `${path}.${i}`, errors, depth + 1, skipFirstAllOfAnyOf && i === 'allOf[0]');
  }
  if (level === 'root' && s['additionalProperties'] !== undefined) errors.push(fieldError.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));

  if (intOrString && s['x-kubernetes-preserve-unknown-fields'] === true) {
    errors.push(fieldError.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (intOrString && embedded) {
    errors.push(fieldError.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (embedded && type !== 'object') {
    if (type === '') errors.push(fieldError.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else errors.push(fieldError.invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && s['x-kubernetes-preserve-unknown-fields'] !== true) {
    const where = level === 'root' ? 'at the root' : level === 'item' ? 'for specified array items' : 'for specified object fields';
    errors.push(fieldError.required(`${path}.type`, `must not be empty ${where}`));
  }
  if (intOrString && type !== '') errors.push(fieldError.invalid(`${path}.type`, type, 'must be empty if x-kubernetes-int-or-string is true'));
  if (embedded && s['additionalProperties'] !== undefined) {
    errors.push(fieldError.required(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (level === 'root' && type !== '' && type !== 'object') errors.push(fieldError.invalid(`${path}.type`, type, 'must be object at the root'));
  if (level === 'root' && s['default'] !== undefined) errors.push(fieldError.forbidden(`${path}.default`, 'must not be set at the root'));
  if (level === 'root' && s['nullable'] === true) errors.push(fieldError.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  if (level === 'root' || embedded) {
    const kind = props?.get('kind');
    if (kind !== undefined && stringOf(kind, 'type') !== 'string') {
      errors.push(fieldError.invalid(`${key(path, 'kind')}.type`, stringOf(kind, 'type') ?? '', 'must be string'));
    }
    const apiVersion = props?.get('apiVersion');
    if (apiVersion !== undefined && stringOf(apiVersion, 'type') !== 'string') {
      errors.push(fieldError.invalid(`${key(path, 'apiVersion')}.type`, stringOf(apiVersion, 'type') ?? '', 'must be string'));
    }
    const metadata = props?.get('metadata');
    if (metadata !== undefined && stringOf(metadata, 'type') !== 'object') {
      errors.push(fieldError.invalid(`${key(path, 'metadata')}.type`, stringOf(metadata, 'type') ?? '', 'must be object'));
    }
  }
  const metadata = props?.get('metadata');
  if (level === 'root' && metadata !== undefined && !onlyNameAndGenerateName(metadata)) {
    errors.push(fieldError.forbidden(key(path, 'metadata'),
      'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  if (embedded && s['x-kubernetes-preserve-unknown-fields'] !== true && (props?.size ?? 0) === 0) {
    errors.push(fieldError.required(`${path}.properties`,
      'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

/** The rules every node follows, structural or value validation. */
function generic(s: JsonSchemaProps, path: string, errors: FieldError[]): void {
  for (const k of unsupported) if (s[k] !== undefined) errors.push(fieldError.forbidden(`${path}.${k}`, `${k} is not supported`));
  if (s['uniqueItems'] === true) {
    errors.push(fieldError.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }
  const additional = s['additionalProperties'];
  if (additional !== undefined && (propertiesOf(s)?.size ?? 0) > 0 && additional !== true) {
    errors.push(fieldError.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (additional === false) errors.push(fieldError.forbidden(`${path}.additionalProperties`, 'additionalProperties cannot be set to false'));
  if (Array.isArray(s['items'])) errors.push(fieldError.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errors.push(fieldError.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  }
  const type = stringOf(s, 'type') ?? '';
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (type !== 'object') {
      if (type === '') errors.push(fieldError.required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
      else errors.push(fieldError.invalid(`${path}.type`, type, 'must be object if x-kubernetes-map-type is specified'));
    }
    if (mapType !== 'atomic' && mapType !== 'granular') errors.push(fieldError.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  }
  const listType = s['x-kubernetes-list-type'];
  const items = schemaAt(s, 'items');
  if (listType !== undefined) {
    if (type !== 'array') {
      if (type === '') errors.push(fieldError.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
      else errors.push(fieldError.invalid(`${path}.type`, type, 'must be array if x-kubernetes-list-type is specified'));
    } else if (listType === 'set' && items !== undefined) {
      const itemType = stringOf(items, 'type');
      if (itemType === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
        errors.push(fieldError.invalid(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
      if (itemType === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
        errors.push(fieldError.invalid(`${path}.items.x-kubernetes-map-type`, items['x-kubernetes-map-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    }
    if (listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
      errors.push(fieldError.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
    }
  }
  const mapKeys = listMapKeysOf(s);
  if (mapKeys.length > 0) {
    if (listType === undefined) errors.push(fieldError.required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errors.push(fieldError.invalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (mapKeys.length === 0) errors.push(fieldError.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (items === undefined) errors.push(fieldError.required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    else if (stringOf(items, 'type') !== 'object') {
      errors.push(fieldError.invalid(`${path}.items.type`, stringOf(items, 'type') ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    } else {
      const itemProps = propertiesOf(items);
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const prop = itemProps?.get(k);
        if (prop === undefined) {
          errors.push(fieldError.invalid(`${path}.x-kubernetes-list-map-keys`, mapKeys, 'entries must all be names of item properties'));
        } else {
          const t = stringOf(prop, 'type');
          if (t === 'array' || t === 'object') {
            errors.push(fieldError.invalid(`${path}.items.properties[${k}].type`, t, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        }
        if (seen.has(k)) errors.push(fieldError.invalid(`${path}.x-kubernetes-list-map-keys`, mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
}

/** `anyOf[1]`, `allOf[0]`, `oneOf[0]`, `not` with their schemas (`anyOf` left out when `skipAnyOf`). */
function valueValidationSchemas(s: JsonSchemaProps, skipAnyOf: boolean): [string, JsonSchemaProps][] {
  const out: [string, JsonSchemaProps][] = [];
  for (const k of skipAnyOf ? ['allOf', 'oneOf'] : ['anyOf', 'allOf', 'oneOf']) {
    const list = s[k];
    if (Array.isArray(list)) list.forEach((v, i) => { if (isRecord(v)) out.push([`${k}[${i}]`, v]); });
  }
  const not = schemaAt(s, 'not');
  if (not !== undefined) out.push(['not', not]);
  return out;
}

/**
 * A value validation (validateNestedValueValidation): it may only narrow what its structural node allows, so it
 * may say nothing structural; its items and properties are value validations too, and it may not reason about
 * `metadata`.
 */
function valueValidation(s: JsonSchemaProps, path: string, errors: FieldError[], depth: number, skipAnyOf = false): void {
  if (depth > maxWalkDepth) return;
  generic(s, path, errors);
  for (const [i, v] of valueValidationSchemas(s, skipAnyOf)) valueValidation(v, `${path}.${i}`, errors, depth + 1);
  const items = schemaAt(s, 'items');
  if (items !== undefined) valueValidation(items, `${path}.items`, errors, depth + 1);
  const props = propertiesOf(s);
  for (const [k, v] of props ?? []) valueValidation(v, key(path, k), errors, depth + 1);
  for (const [k, word] of structuralOnly) {
    if (isSet(s[k], word)) errors.push(fieldError.forbidden(`${path}.${k}`, `must be ${word} to be structural`));
  }
  if (props?.has('metadata') === true) errors.push(fieldError.forbidden(key(path, 'metadata'), 'must not be specified in a nested context'));
}

function onlyNameAndGenerateName(metadata: JsonSchemaProps): boolean {
  for (const k of Object.keys(metadata)) {
    if (k === 'type' || k === 'description' || k === 'properties') continue;
    return false;
  }
  const props = propertiesOf(metadata);
  return props === undefined || [...props.keys()].every((k) => k === 'name' || k === 'generateName');
}

/** Every default validates against its node's schema and has no field pruning would drop (ValidateDefaults). */
function defaults(s: JsonSchemaProps, path: string, errors: FieldError[], depth: number): void {
  if (depth > maxWalkDepth) return;
  if (s['default'] !== undefined) {
    const value = structuredClone(s['default']);
    const base = `${path}.default`;
    for (const e of validateValue(s, value)) errors.push({ ...e, field: e.field === '' ? base : `${base}.${e.field}` });
    const copy = structuredClone(s['default']);
    if (prune(s, copy, { root: s['x-kubernetes-embedded-resource'] === true }).length > 0) {
      errors.push(fieldError.invalid(base, s['default'], 'must not have unknown fields'));
    }
  }
  const items = schemaAt(s, 'items');
  if (items !== undefined) defaults(items, `${path}.items`, errors, depth + 1);
  const additional = schemaAt(s, 'additionalProperties');
  if (additional !== undefined) defaults(additional, `${path}.additionalProperties`, errors, depth + 1);
  for (const [k, v] of propertiesOf(s) ?? []) {
    if (depth === 0 && metaFields.has(k) && v['default'] !== undefined) {
      errors.push(fieldError.forbidden(`${key(path, k)}.default`, `must not be set in top-level ${k}`));
      continue;
    }
    defaults(v, key(path, k), errors, depth + 1);
  }
}
