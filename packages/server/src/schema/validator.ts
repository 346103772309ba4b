/**
 * Validates decoded objects against the built-in OpenAPI schemas, reporting what kube-apiserver's decoder
 * reports: wrong JSON types (with the `json: cannot unmarshal ...` detail Go's decoder prints), malformed
 * quantities, base64 and timestamps, unsupported enum values, and the paths of unknown fields in the strict
 * decoder's form (`spec.foo`, `spec.containers[0].bar`). A schema's `required` list is not checked: kube's decoder
 * never reads it, each kind's validation says which fields it requires (a Node whose `status.nodeInfo` holds only
 * `kubeletVersion` is stored), and the corpus holds every required field a kind's validation covers.
 *
 * Hand-written on purpose: a generic JSON-schema validator library does not produce Kubernetes' field paths,
 * its unknown-field lists or its decode messages, and does not know `x-kubernetes-*` semantics.
 *
 * Schemas are compiled lazily into closures, one per named schema, the first time an object needs them.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import type { SchemaValidation, SchemaValidator } from './catalog.js';
import { intOrStringSchemaName, quantitySchemaName, refName, type OpenApiSchema, type SchemaMap } from './openapi-schema.js';
import { goTimeParseError } from './go-time-parse.js';

/** Where a value sits: the field path for errors, and the path Go's decoder prints (no indices, no map keys). */
interface Where {
  /** `spec.containers[0].image`; `''` at the root. */
  readonly path: string;
  /** `spec.containers.image`, as encoding/json's error context prints it. */
  readonly goPath: string;
  /** Innermost Go struct being decoded (`Container`). */
  readonly struct: string;
}

interface Sink {
  errors: FieldError[];
  unknown: string[];
}

type Check = (value: unknown, where: Where, sink: Sink) => void;

const accept: Check = () => {};

/** Fields every top-level object (and every embedded resource) has, whatever its schema says. */
const typeMetaFields = ['apiVersion', 'kind', 'metadata'];

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** kube's resource.ErrFormatWrong. */
const quantityFormatMessage =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const quantityPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/;
/** metav1.MicroTime, which decodes with the RFC3339Micro layout (six fractional digits) instead of RFC3339. */
const microTimeSchemaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
const base64Char = /[A-Za-z0-9+/]/;

/** Builds a validator over components.schemas. */
export function createSchemaValidator(schemas: SchemaMap): SchemaValidator {
  const compiled = new Map<string, Check>();

  /** The check of a named schema; compiled on first use, so recursive schemas (JSONSchemaProps) terminate. */
  const named = (name: string): Check => {
    const done = compiled.get(name);
    if (done) return done;
    let body: Check | undefined;
    const lazy: Check = (value, where, sink) => {
      if (!body) {
        const schema = schemas[name];
        body = schema ? compile(schema, name) : accept;
      }
      body(value, where, sink);
    };
    compiled.set(name, lazy);
    return lazy;
  };

  const compile = (schema: OpenApiSchema, name?: string): Check => {
    if (schema.$ref) return named(refName(schema.$ref));
    if (schema.allOf && schema.allOf.length === 1 && schema.allOf[0]?.$ref) return named(refName(schema.allOf[0].$ref));
    if (name === quantitySchemaName) return quantityCheck;
    if (name === microTimeSchemaName) return compileString(schema, true);
    if (name === intOrStringSchemaName || schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') {
      return intOrStringCheck;
    }
    const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
    switch (schema.type) {
      case 'object':
        return compileObject(schema, name, preserve);
      case 'array':
        return compileArray(schema);
      case 'string':
        return compileString(schema);
      case 'integer':
        return compileInteger(schema);
      case 'number':
        return compileScalar('float64', (v) => typeof v === 'number' || typeof v === 'bigint');
      case 'boolean':
        return compileScalar('bool', (v) => typeof v === 'boolean');
      default:
        return accept;
    }
  };

  const compileObject = (schema: OpenApiSchema, name: string | undefined, preserve: boolean): Check => {
    const props = schema.properties;
    const additional = schema.additionalProperties;
    // An object schema with neither properties nor additionalProperties is opaque (RawExtension, FieldsV1).
    if (!props && additional === undefined) return accept;
    const goType = goTypeOf(schema, name);
    const struct = name ? shortName(name) : undefined;
    const propChecks = new Map<string, Check>();
    for (const [key, sub] of Object.entries(props ?? {})) propChecks.set(key, compile(sub));
    const additionalCheck = typeof additional === 'object' ? compile(additional) : undefined;
    const embedded = schema['x-kubernetes-embedded-resource'] === true;
    return (value, where, sink) => {
      if (value === null || value === undefined) return;
      if (typeof value !== 'object' || Array.isArray(value)) {
        sink.errors.push(typeError(value, where, goType));
        return;
      }
      const obj = value as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const child = obj[key];
        const check = propChecks.get(key);
        if (check) {
          check(child, {
            path: join(where.path, key),
            goPath: join(where.goPath, key),
            struct: struct ?? where.struct,
          }, sink);
        } else if (additionalCheck) {
          additionalCheck(child, { path: `${where.path}[${key}]`, goPath: where.goPath, struct: where.struct }, sink);
        } else if (!preserve && additional !== true &&
          !((embedded || where.path === '') && typeMetaFields.includes(key))) {
          sink.unknown.push(join(where.path, key));
        }
      }
    };
  };

  const compileArray = (schema: OpenApiSchema): Check => {
    const itemCheck = schema.items ? compile(schema.items) : accept;
    const goType = goTypeOf(schema);
    return (value, where, sink) => {
      if (value === null || value === undefined) return;
      if (!Array.isArray(value)) {
        sink.errors.push(typeError(value, where, goType));
        return;
      }
      for (let i = 0; i < value.length; i++) {
        itemCheck(value[i], { path: `${where.path}[${i}]`, goPath: where.goPath, struct: where.struct }, sink);
      }
    };
  };

  const validate = (schemaName: string, object: unknown): SchemaValidation => {
    const sink: Sink = { errors: [], unknown: [] };
    if (!(schemaName in schemas)) {
      return { errors: [fieldError.internal('', `no schema named ${schemaName}`)], unknownFields: [] };
    }
    const check = named(schemaName);
    check(object, { path: '', goPath: '', struct: shortName(schemaName) }, sink);
    return { errors: sink.errors, unknownFields: sink.unknown };
  };

  return { validate };
}

/** A string schema; `microTime`: a date-time decoded as metav1.MicroTime. */
function compileString(schema: OpenApiSchema, microTime = false): Check {
  const values = schema.enum?.filter((v): v is string => typeof v === 'string');
  const format = schema.format;
  return (value, where, sink) => {
    if (value === null || value === undefined) return;
    if (typeof value !== 'string') {
      sink.errors.push(typeError(value, where, format === 'byte' ? '[]uint8' : 'string'));
      return;
    }
    if (format === 'byte') {
      const bad = base64Error(value);
      if (bad !== undefined) sink.errors.push(fieldError.invalid(where.path, value, bad));
    } else if (format === 'date-time') {
      // metav1.Time and MicroTime parse every string, the empty one included (only null is the zero time).
      const bad = goTimeParseError(value, microTime);
      if (bad !== undefined) sink.errors.push(fieldError.invalid(where.path, value, bad));
    }
    // An empty value is left to defaulting, as kube-apiserver's validation does for enum-typed fields.
    if (values && values.length > 0 && value !== '' && !values.includes(value)) {
      sink.errors.push(fieldError.notSupported(where.path, value, values));
    }
  };
}

function compileInteger(schema: OpenApiSchema): Check {
  const goType = schema.format === 'int32' ? 'int32' : 'int64';
  return (value, where, sink) => {
    if (value === null || value === undefined) return;
    if (typeof value === 'bigint') {
      const [min, max] = goType === 'int32' ? [BigInt(int32Min), BigInt(int32Max)] : [int64Min, int64Max];
      if (value < min || value > max) sink.errors.push(typeError(value, where, goType));
      return;
    }
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      sink.errors.push(typeError(value, where, goType));
      return;
    }
    if (goType === 'int32' ? value < int32Min || value > int32Max : !Number.isSafeInteger(value) && Math.abs(value) >= 2 ** 63) {
      sink.errors.push(typeError(value, where, goType));
    }
  };
}

function compileScalar(goType: string, ok: (v: unknown) => boolean): Check {
  return (value, where, sink) => {
    if (value === null || value === undefined || ok(value)) return;
    sink.errors.push(typeError(value, where, goType));
  };
}

/**
 * `resource.Quantity` decodes from a JSON string in quantity syntax or from a JSON number; its UnmarshalJSON parses
 * any other JSON text (`true`, `{}`) as a quantity too, so those fail with the format error, not a type error.
 */
const quantityCheck: Check = (value, where, sink) => {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'bigint') return;
  if (typeof value !== 'string' || !quantityPattern.test(value.trim())) sink.errors.push(fieldError.invalid(where.path, value, quantityFormatMessage));
};

/** `intstr.IntOrString` decodes from a JSON string or a JSON integer (int32). */
const intOrStringCheck: Check = (value, where, sink) => {
  if (value === null || value === undefined || typeof value === 'string') return;
  if (typeof value === 'bigint') {
    if (value < BigInt(int32Min) || value > BigInt(int32Max)) sink.errors.push(typeError(value, where, 'int32'));
    return;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= int32Min && value <= int32Max) return;
  sink.errors.push(typeError(value, where, typeof value === 'number' ? 'int32' : 'intstr.IntOrString'));
};

/** The error Go's encoding/json reports for a value of the wrong JSON type (an UnmarshalTypeError). */
function typeError(value: unknown, where: Where, goType: string): FieldError {
  const jsonType = jsonTypeName(value);
  const detail = where.goPath
    ? `json: cannot unmarshal ${jsonType} into Go struct field ${where.struct}.${where.goPath} of type ${goType}`
    : `json: cannot unmarshal ${jsonType} into Go value of type ${goType}`;
  return fieldError.typeInvalid(where.path, value, detail);
}

/** How encoding/json names the offending JSON value. Numbers carry their literal. */
function jsonTypeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number' || typeof value === 'bigint') return `number ${String(value)}`;
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/** Go's base64.StdEncoding error for a malformed value, or undefined. */
function base64Error(s: string): string | undefined {
  const text = s.replace(/[\r\n]/g, '');
  let i = 0;
  while (i < text.length && base64Char.test(text[i] as string)) i++;
  const dataEnd = i;
  let pad = 0;
  while (i < text.length && text[i] === '=' && pad < 2) {
    i++;
    pad++;
  }
  if (i < text.length) return `illegal base64 data at input byte ${i}`;
  if (text.length % 4 !== 0 || (pad > 0 && (dataEnd + pad) % 4 !== 0)) {
    return `illegal base64 data at input byte ${Math.max(0, text.length - (text.length % 4 || 4))}`;
  }
  return undefined;
}

/** The Go type name a schema decodes into, as encoding/json prints it (`map[string]string`, `[]v1.Container`). */
function goTypeOf(schema: OpenApiSchema, name?: string): string {
  if (name) return goName(name);
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  if (ref) return goName(refName(ref));
  switch (schema.type) {
    case 'object':
      return typeof schema.additionalProperties === 'object' ? `map[string]${goTypeOf(schema.additionalProperties)}` : 'map[string]interface {}';
    case 'array':
      return `[]${schema.items ? goTypeOf(schema.items) : 'interface {}'}`;
    case 'string':
      return schema.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'interface {}';
  }
}

/** `io.k8s.api.core.v1.PodSpec` → `v1.PodSpec`. */
function goName(schemaName: string): string {
  const parts = schemaName.split('.');
  return parts.length >= 2 ? `${parts[parts.length - 2]}.${parts[parts.length - 1]}` : schemaName;
}

/** `io.k8s.api.core.v1.PodSpec` → `PodSpec`. */
function shortName(schemaName: string): string {
  return schemaName.slice(schemaName.lastIndexOf('.') + 1);
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
