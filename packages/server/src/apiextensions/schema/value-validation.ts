/**
 * Validation of a custom object against its CRD's schema, with the semantics and the messages of kube-openapi's
 * validator as apiextensions-apiserver turns its results into field errors (validation.ValidateCustomResource):
 * type errors (`spec.replicas in body must be of type integer: "string"`), enum values, lengths, patterns, formats,
 * bounds, item and property counts, required fields, and allOf/anyOf/oneOf/not. Hand-written: a JSON-schema library
 * has neither kube-openapi's messages nor Kubernetes' field paths, nullable, or `x-kubernetes-*` semantics.
 */
import { fieldError, goFloat, ofDecodedValue, type FieldError } from '@svc-apiserver/api';
import { compileRegex, regexMatches } from '../../cel/regex.js';
import { entriesPerStep, runSteps, type Steps } from '../../limits/turn-budget.js';
import { matchesFormat } from './formats.js';
import {
  additionalPropertiesOf, childPath, isRecord, itemsOf, jsonTypeOf, maxWalkDepth, numberOf, propertiesOf, schemaListOf,
  stringOf, type JsonSchemaProps,
} from './json-schema-props.js';

/** Fields every object at a resource root (and every embedded resource) carries whatever its schema says. */
const typeMetaFields: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/** The value a field error shows for a value (Go's `%v` of the decoded JSON value, strings quoted). */
function shown(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** Options of one validation. */
export interface ValueValidationOptions {
  /** The value is an object's root: `apiVersion`, `kind` and `metadata` are not the schema's business. */
  readonly root?: boolean;
}

/**
 * Validates `value` against `schema`, `path` naming it (`''` at the root). The bad values print as Go prints the
 * decoded values kube validates (the schema's bounds are float64s: `should be less than or equal to 1e+06`).
 */
export function validateValue(schema: JsonSchemaProps, value: unknown, path = '', options: ValueValidationOptions = {}): FieldError[] {
  return runSteps(validateValueSteps(schema, value, path, options));
}

/**
 * {@link validateValue} in steps: it may give the event loop back every {@link entriesPerStep} items or properties
 * of one list or map (limits/turn-budget.ts), so a map of hundreds of thousands of keys is checked across turns.
 */
export function* validateValueSteps(
  schema: JsonSchemaProps, value: unknown, path = '', options: ValueValidationOptions = {},
): Steps<FieldError[]> {
  const errors: FieldError[] = [];
  yield* walk(schema, value, path, errors, 0, options.root === true);
  return errors.map(ofDecodedValue);
}

/** How kube-openapi's messages begin: `spec.replicas in body `, nothing for the value itself. */
function subject(path: string): string {
  return path === '' ? '' : `${path} in body `;
}

/** kube-openapi's InvalidType: the value it reports is the JSON type the value has, not the value. */
function typeError(path: string, types: string, value: unknown): FieldError {
  const actual = jsonTypeOf(value);
  return fieldError.typeInvalid(path, actual, `${subject(path)}must be of type ${types}: ${JSON.stringify(actual)}`);
}

/** True when `value` has one of the JSON types. */
function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
    case 'number':
      return typeof value === 'bigint' || typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

function* walk(schema: JsonSchemaProps, value: unknown, path: string, errors: FieldError[], depth: number, root: boolean): Steps<void> {
  if (depth > maxWalkDepth) {
    errors.push(fieldError.invalid(path, '', `exceeds the maximum nesting depth of ${maxWalkDepth}`));
    return;
  }
  if (value === null || value === undefined) {
    if (schema['nullable'] === true) return;
    const type = stringOf(schema, 'type');
    if (schema['x-kubernetes-int-or-string'] === true) errors.push(typeError(path, 'integer,string', null));
    else if (type !== undefined && type !== '') errors.push(typeError(path, type, null));
    return;
  }
  const type = stringOf(schema, 'type');
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (!hasType('integer', value) && typeof value !== 'string') {
      errors.push(typeError(path, 'integer,string', value));
      return;
    }
  } else if (type !== undefined && type !== '' && !hasType(type, value)) {
    errors.push(typeError(path, type, value));
    return;
  }
  checkEnum(schema, value, path, errors);
  if (typeof value === 'string') checkString(schema, value, path, errors);
  else if (typeof value === 'number' || typeof value === 'bigint') checkNumber(schema, Number(value), path, errors);
  else if (Array.isArray(value)) yield* checkArray(schema, value, path, errors, depth);
  else if (isRecord(value)) yield* checkObject(schema, value, path, errors, depth, root);
  yield* checkComposition(schema, value, path, errors, depth, root);
}

function checkEnum(schema: JsonSchemaProps, value: unknown, path: string, errors: FieldError[]): void {
  const values = schema['enum'];
  if (!Array.isArray(values) || values.length === 0) return;
  const text = JSON.stringify(value);
  if (values.some((v) => JSON.stringify(v) === text)) return;
  errors.push(fieldError.notSupported(path, shown(value), values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))));
}

function checkString(schema: JsonSchemaProps, value: string, path: string, errors: FieldError[]): void {
  // Lengths count characters (Go's utf8.RuneCountInString), not UTF-16 units.
  const length = [...value].length;
  const maxLength = numberOf(schema, 'maxLength');
  if (maxLength !== undefined && length > maxLength) {
    errors.push({ type: 'FieldValueTooLong', field: path, badValue: value, detail: `may not be longer than ${maxLength}` });
  }
  const minLength = numberOf(schema, 'minLength');
  if (minLength !== undefined && length < minLength) {
    errors.push(fieldError.invalid(path, value, `${subject(path)}should be at least ${minLength} chars long`));
  }
  const pattern = stringOf(schema, 'pattern');
  if (pattern !== undefined) {
    const re = compileRegex(pattern);
    if (!(re instanceof Error) && !regexMatches(value, re)) {
      errors.push(fieldError.invalid(path, value, `${subject(path)}should match '${pattern}'`));
    }
  }
  const format = stringOf(schema, 'format');
  if (format !== undefined && format !== '' && !matchesFormat(format, value)) {
    errors.push(fieldError.typeInvalid(path, value, `${subject(path)}must be of type ${format}: ${JSON.stringify(value)}`));
  }
}

function checkNumber(schema: JsonSchemaProps, value: number, path: string, errors: FieldError[]): void {
  const maximum = numberOf(schema, 'maximum');
  if (maximum !== undefined) {
    const exclusive = schema['exclusiveMaximum'] === true;
    if (exclusive ? value >= maximum : value > maximum) {
      errors.push(fieldError.invalid(path, value,
        `${subject(path)}should be less than ${exclusive ? '' : 'or equal to '}${goFloat(maximum)}`));
    }
  }
  const minimum = numberOf(schema, 'minimum');
  if (minimum !== undefined) {
    const exclusive = schema['exclusiveMinimum'] === true;
    if (exclusive ? value <= minimum : value < minimum) {
      errors.push(fieldError.invalid(path, value,
        `${subject(path)}should be greater than ${exclusive ? '' : 'or equal to '}${goFloat(minimum)}`));
    }
  }
  const multipleOf = numberOf(schema, 'multipleOf');
  if (multipleOf !== undefined && multipleOf > 0) {
    const q = value / multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) {
      errors.push(fieldError.invalid(path, value, `${subject(path)}should be a multiple of ${goFloat(multipleOf)}`));
    }
  }
}

function* checkArray(schema: JsonSchemaProps, value: readonly unknown[], path: string, errors: FieldError[], depth: number): Steps<void> {
  const maxItems = numberOf(schema, 'maxItems');
  if (maxItems !== undefined && value.length > maxItems) errors.push(fieldError.tooMany(path, value.length, maxItems));
  const minItems = numberOf(schema, 'minItems');
  if (minItems !== undefined && value.length < minItems) {
    errors.push(fieldError.invalid(path, value, `${subject(path)}should have at least ${minItems} items`));
  }
  if (schema['uniqueItems'] === true) {
    const seen = new Set<string>();
    for (let i = 0; i < value.length; i++) {
      if (i % entriesPerStep === entriesPerStep - 1) yield;
      const key = JSON.stringify(value[i]);
      if (seen.has(key)) {
        errors.push(fieldError.invalid(path, value, `${subject(path)}shouldn't contain duplicates`));
        break;
      }
      seen.add(key);
    }
  }
  const items = itemsOf(schema);
  if (items === undefined) return;
  for (let i = 0; i < value.length; i++) {
    if (i % entriesPerStep === entriesPerStep - 1) yield;
    yield* walk(items, value[i], `${path}[${i}]`, errors, depth + 1, false);
  }
}

function* checkObject(
  schema: JsonSchemaProps, value: Record<string, unknown>, path: string, errors: FieldError[], depth: number, root: boolean,
): Steps<void> {
  // The keys of a wide map are listed once, and only when a count or a child schema needs them.
  let listed: string[] | undefined;
  const keysOf = (): string[] => (listed ??= Object.keys(value));
  const maxProperties = numberOf(schema, 'maxProperties');
  if (maxProperties !== undefined && keysOf().length > maxProperties) errors.push(fieldError.tooMany(path, keysOf().length, maxProperties));
  const minProperties = numberOf(schema, 'minProperties');
  if (minProperties !== undefined && keysOf().length < minProperties) {
    errors.push(fieldError.invalid(path, value, `${subject(path)}should have at least ${minProperties} properties`));
  }
  const required = schema['required'];
  if (Array.isArray(required)) {
    for (const key of required) {
      if (typeof key !== 'string') continue;
      if (!Object.hasOwn(value, key)) errors.push(fieldError.required(childPath(path, key), ''));
    }
  }
  const embedded = root || schema['x-kubernetes-embedded-resource'] === true;
  const props = propertiesOf(schema);
  const additional = additionalPropertiesOf(schema);
  // Without a schema for any child there is nothing below this map to check.
  if (props === undefined && additional === undefined) return;
  const keys = keysOf();
  for (let i = 0; i < keys.length; i++) {
    if (i % entriesPerStep === entriesPerStep - 1) yield;
    const key = keys[i]!;
    const child = value[key];
    // ObjectMeta has its own validation; the schema may only constrain name and generateName.
    if (embedded && key === 'metadata' && isRecord(child)) {
      const metaSchema = props?.get('metadata');
      if (metaSchema !== undefined) yield* checkMetadata(metaSchema, child, childPath(path, key), errors, depth);
      continue;
    }
    if (embedded && typeMetaFields.has(key) && props?.get(key) === undefined) continue;
    const sub = props?.get(key) ?? additional;
    if (sub !== undefined) yield* walk(sub, child, childPath(path, key), errors, depth + 1, false);
  }
}

function* checkMetadata(schema: JsonSchemaProps, metadata: Record<string, unknown>, path: string, errors: FieldError[], depth: number): Steps<void> {
  const props = propertiesOf(schema);
  for (const key of ['name', 'generateName']) {
    const sub = props?.get(key);
    if (sub !== undefined && metadata[key] !== undefined) yield* walk(sub, metadata[key], childPath(path, key), errors, depth + 1, false);
  }
}

function* checkComposition(
  schema: JsonSchemaProps, value: unknown, path: string, errors: FieldError[], depth: number, root: boolean,
): Steps<void> {
  const name = subject(path);
  /** The errors of `value` against each schema, in order. */
  function* each(schemas: readonly JsonSchemaProps[]): Steps<FieldError[][]> {
    const out: FieldError[][] = [];
    for (const s of schemas) {
      const found: FieldError[] = [];
      yield* walk(s, value, path, found, depth + 1, root);
      out.push(found);
    }
    return out;
  }
  const allOf = schemaListOf(schema, 'allOf');
  if (allOf.length > 0) {
    const failed = (yield* each(allOf)).filter((e) => e.length > 0);
    if (failed.length > 0) {
      for (const f of failed) errors.push(...f);
      errors.push(fieldError.invalid(path, shown(value), `${name}must validate all the schemas (allOf)`));
    }
  }
  const anyOf = schemaListOf(schema, 'anyOf');
  if (anyOf.length > 0) {
    const results = yield* each(anyOf);
    if (!results.some((e) => e.length === 0)) {
      errors.push(...results[0]!);
      errors.push(fieldError.invalid(path, shown(value), `${name}must validate at least one schema (anyOf)`));
    }
  }
  const oneOf = schemaListOf(schema, 'oneOf');
  if (oneOf.length > 0) {
    const valid = (yield* each(oneOf)).filter((e) => e.length === 0).length;
    if (valid !== 1) errors.push(fieldError.invalid(path, shown(value), `${name}must validate one and only one schema (oneOf)`));
  }
  const not = schema['not'];
  if (isRecord(not) && (yield* each([not]))[0]!.length === 0) {
    errors.push(fieldError.invalid(path, shown(value), `${name}must not validate the schema (not)`));
  }
}
