/**
 * `/openapi/v2` in `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`: the Swagger document encoded as
 * gnostic's `openapi.v2.Document` message, which is the only form kubectl 1.27 requests (`create -f`, `apply`,
 * `replace`, `diff` need it).
 *
 * The message types come from gnostic's OpenAPIv2.proto (loaded with protobufjs). The JSON-to-message mapping is
 * gnostic's own (its compiler turns each JSON object into a message; maps become lists of `Named*` pairs, `type`
 * a `TypeItem`, `items` an `ItemsItem`, parameters a `oneof`, and `x-*` vendor extensions, `default`, `enum` and
 * `example` values an `Any` holding the value as YAML text); protobufjs does not know it, so it is written here.
 */
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { stringify } from 'yaml';
import { gnosticOpenApiV2ProtoUrl } from '../schema/generated-data.js';
import type { SwaggerDocument } from './v2.js';

/** The media type of the protobuf form of `/openapi/v2`. */
export const openapiV2ProtobufMediaType = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

type Json = Record<string, unknown>;

let documentType: protobuf.Type | undefined;

/** gnostic's `openapi.v2.Document` type, loaded once (field names as in the .proto, e.g. `vendor_extension`). */
export function gnosticDocumentType(): protobuf.Type {
  if (!documentType) {
    const root = new protobuf.Root().loadSync(fileURLToPath(gnosticOpenApiV2ProtoUrl), { keepCase: true });
    root.resolveAll();
    documentType = root.lookupType('openapi.v2.Document');
  }
  return documentType;
}

const encodedCache = new WeakMap<object, Uint8Array>();

/** Encodes a Swagger 2.0 document as a gnostic `openapi.v2.Document` (cached per document object). */
export function openapiV2Protobuf(doc: SwaggerDocument): Uint8Array {
  const hit = encodedCache.get(doc);
  if (hit) return hit;
  const message = toGnosticDocument(doc);
  const bytes = gnosticDocumentType().encode(message).finish();
  encodedCache.set(doc, bytes);
  return bytes;
}

/** The gnostic message (as a plain object with .proto field names) for a Swagger document. */
export function toGnosticDocument(doc: SwaggerDocument): Json {
  const yamlCache = new Map<string, string>();
  const any = (value: unknown): Json => {
    const key = JSON.stringify(value);
    let text = yamlCache.get(key);
    if (text === undefined) {
      text = stringify(value);
      yamlCache.set(key, text);
    }
    return { yaml: text };
  };
  const ext = (obj: Json): Json[] =>
    Object.entries(obj).filter(([k]) => k.startsWith('x-')).map(([name, v]) => ({ name, value: any(v) }));

  const schema = (s: Json): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(s)) {
      switch (k) {
        case '$ref': out['_ref'] = v; break;
        case 'format': case 'title': case 'description': case 'pattern': case 'discriminator': case 'required':
        case 'maximum': case 'minimum':
          out[k] = v; break;
        case 'multipleOf': out['multiple_of'] = v; break;
        case 'exclusiveMaximum': out['exclusive_maximum'] = v; break;
        case 'exclusiveMinimum': out['exclusive_minimum'] = v; break;
        case 'maxLength': out['max_length'] = v; break;
        case 'minLength': out['min_length'] = v; break;
        case 'maxItems': out['max_items'] = v; break;
        case 'minItems': out['min_items'] = v; break;
        case 'uniqueItems': out['unique_items'] = v; break;
        case 'maxProperties': out['max_properties'] = v; break;
        case 'minProperties': out['min_properties'] = v; break;
        case 'readOnly': out['read_only'] = v; break;
        case 'default': case 'example': out[k] = any(v); break;
        case 'enum': out[k] = (v as unknown[]).map(any); break;
        case 'type': out[k] = { value: Array.isArray(v) ? v : [v] }; break;
        case 'items': out[k] = { schema: (Array.isArray(v) ? v : [v]).map((i) => schema(i as Json)) }; break;
        case 'allOf': out['all_of'] = (v as Json[]).map(schema); break;
        case 'additionalProperties':
          out['additional_properties'] = typeof v === 'boolean' ? { boolean: v } : { schema: schema(v as Json) };
          break;
        case 'properties':
          out[k] = { additional_properties: Object.entries(v as Json).map(([name, p]) => ({ name, value: schema(p as Json) })) };
          break;
        case 'externalDocs': out['external_docs'] = v; break;
        default: break;
      }
    }
    const vendor = ext(s);
    if (vendor.length) out['vendor_extension'] = vendor;
    return out;
  };

  const nonBodyKeys: Record<string, string> = {
    required: 'required', in: 'in', description: 'description', name: 'name', allowEmptyValue: 'allow_empty_value',
    type: 'type', format: 'format', collectionFormat: 'collection_format', maximum: 'maximum', minimum: 'minimum',
    exclusiveMaximum: 'exclusive_maximum', exclusiveMinimum: 'exclusive_minimum', maxLength: 'max_length',
    minLength: 'min_length', pattern: 'pattern', maxItems: 'max_items', minItems: 'min_items', uniqueItems: 'unique_items',
    multipleOf: 'multiple_of',
  };
  const subSchemaField: Record<string, string> = {
    query: 'query_parameter_sub_schema', path: 'path_parameter_sub_schema', header: 'header_parameter_sub_schema',
    formData: 'form_data_parameter_sub_schema',
  };
  const parameter = (p: Json): Json => {
    if (p['in'] === 'body') {
      const body: Json = {};
      for (const k of ['description', 'name', 'in', 'required'] as const) if (p[k] !== undefined) body[k] = p[k];
      if (p['schema']) body['schema'] = schema(p['schema'] as Json);
      const vendor = ext(p);
      if (vendor.length) body['vendor_extension'] = vendor;
      return { body_parameter: body };
    }
    const sub: Json = {};
    for (const [k, v] of Object.entries(p)) {
      const field = nonBodyKeys[k];
      if (field) sub[field] = v;
      else if (k === 'default') sub['default'] = any(v);
      else if (k === 'enum') sub['enum'] = (v as unknown[]).map(any);
      else if (k === 'items') sub['items'] = primitivesItems(v as Json);
    }
    const vendor = ext(p);
    if (vendor.length) sub['vendor_extension'] = vendor;
    return { non_body_parameter: { [subSchemaField[String(p['in'])] ?? 'query_parameter_sub_schema']: sub } };
  };
  const primitivesItems = (i: Json): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(i)) {
      const field = nonBodyKeys[k];
      if (field && k !== 'required' && k !== 'in' && k !== 'name' && k !== 'description' && k !== 'allowEmptyValue') out[field] = v;
      else if (k === 'items') out['items'] = primitivesItems(v as Json);
    }
    return out;
  };
  const parametersItem = (p: Json): Json =>
    typeof p['$ref'] === 'string' ? { json_reference: { _ref: p['$ref'] } } : { parameter: parameter(p) };

  const operation = (op: Json): Json => {
    const out: Json = {};
    for (const k of ['tags', 'summary', 'description', 'produces', 'consumes', 'schemes', 'deprecated'] as const) {
      if (op[k] !== undefined) out[k] = op[k];
    }
    if (op['operationId'] !== undefined) out['operation_id'] = op['operationId'];
    if (Array.isArray(op['parameters'])) out['parameters'] = (op['parameters'] as Json[]).map(parametersItem);
    const responses = (op['responses'] ?? {}) as Record<string, Json>;
    out['responses'] = {
      response_code: Object.entries(responses).map(([name, r]) => ({
        name,
        value: typeof r['$ref'] === 'string'
          ? { json_reference: { _ref: r['$ref'] } }
          : { response: { description: r['description'] ?? '', ...(r['schema'] ? { schema: { schema: schema(r['schema'] as Json) } } : {}) } },
      })),
    };
    const vendor = ext(op);
    if (vendor.length) out['vendor_extension'] = vendor;
    return out;
  };

  const pathItem = (item: Json): Json => {
    const out: Json = {};
    for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch']) {
      if (item[m]) out[m] = operation(item[m] as Json);
    }
    if (Array.isArray(item['parameters'])) out['parameters'] = (item['parameters'] as Json[]).map(parametersItem);
    const vendor = ext(item);
    if (vendor.length) out['vendor_extension'] = vendor;
    return out;
  };

  const securityDefinitions = Object.entries(doc.securityDefinitions ?? {}).map(([name, d]) => {
    const def = d as Json;
    const fields = Object.fromEntries(['type', 'name', 'in', 'description'].filter((k) => def[k] !== undefined).map((k) => [k, def[k]]));
    return { name, value: def['type'] === 'basic' ? { basic_authentication_security: fields } : { api_key_security: fields } };
  });

  return {
    swagger: doc.swagger,
    info: Object.fromEntries(['title', 'version', 'description'].filter((k) => doc.info[k] !== undefined).map((k) => [k, doc.info[k]])),
    paths: { path: Object.entries(doc.paths).map(([name, item]) => ({ name, value: pathItem(item) })) },
    definitions: { additional_properties: Object.entries(doc.definitions).map(([name, s]) => ({ name, value: schema(s) })) },
    ...(securityDefinitions.length ? { security_definitions: { additional_properties: securityDefinitions } } : {}),
    ...(doc.security ? {
      security: (doc.security as Json[]).map((req) => ({
        additional_properties: Object.entries(req).map(([name, scopes]) => ({ name, value: { value: scopes } })),
      })),
    } : {}),
  };
}
