/**
 * How each protobuf message type maps to its JSON form, worked out once per type from the upstream .proto and the
 * OpenAPI schema of the same Go type (k8s.io's go-to-protobuf names fields after their JSON names, with a few
 * exceptions this recovers): the JSON name of every field (`Webhooks` → `webhooks`, `uID` → `uid`,
 * `xKubernetesListType` → `x-kubernetes-list-type`, `ref` → `$ref`), embedded Go structs that JSON inlines
 * (`Volume.volumeSource`, `Probe.handler`), which fields the schema requires (kept even when zero), and the
 * message types with a JSON form of their own (IntOrString, Quantity, Time, MicroTime, Duration, raw JSON,
 * string-list wrappers, the JSONSchemaProps unions).
 */
import type * as Protobuf from 'protobufjs';
import { generatedSchemas } from '../schema/generated-data.js';
import type { OpenApiSchema } from '../schema/openapi-schema.js';

/** Message types whose JSON form is not an object of their fields. */
export type SpecialKind =
  | 'intOrString' | 'quantity' | 'time' | 'microTime' | 'duration' | 'rawJson' | 'stringList'
  | 'schemaOrArray' | 'schemaOrBool' | 'schemaOrStringArray';

/** Scalar wire shapes that need a conversion between JSON and protobufjs values. */
export type ScalarKind = 'string' | 'number' | 'long' | 'bool' | 'bytes';

/** One field of a message. */
export interface FieldPlan {
  /** Field name in the .proto (and in protobufjs messages). */
  readonly name: string;
  /** Property name in JSON. */
  readonly json: string;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Set for message-typed fields (map values included). */
  readonly message?: Protobuf.Type;
  /** Set for scalar fields (map values included). */
  readonly scalar?: ScalarKind;
  /** The JSON object holds this embedded struct's fields directly. */
  readonly inline: boolean;
  /** The schema requires the field: a zero value is kept in JSON. */
  readonly required: boolean;
}

/** One message type. */
export interface MessagePlan {
  readonly type: Protobuf.Type;
  readonly special?: SpecialKind;
  readonly fields: readonly FieldPlan[];
  /** Name of the single field of a special type that carries its value (`raw`, `Raw`, `items`). */
  readonly valueField?: string;
}

const apimachinery = '.k8s.io.apimachinery.pkg';
const specialByName: Readonly<Record<string, SpecialKind>> = {
  [`${apimachinery}.util.intstr.IntOrString`]: 'intOrString',
  [`${apimachinery}.api.resource.Quantity`]: 'quantity',
  [`${apimachinery}.apis.meta.v1.Time`]: 'time',
  [`${apimachinery}.apis.meta.v1.MicroTime`]: 'microTime',
  [`${apimachinery}.apis.meta.v1.Duration`]: 'duration',
  [`${apimachinery}.apis.meta.v1.FieldsV1`]: 'rawJson',
  [`${apimachinery}.runtime.RawExtension`]: 'rawJson',
};
const apiextensionsSpecial: Readonly<Record<string, SpecialKind>> = {
  JSON: 'rawJson',
  JSONSchemaPropsOrArray: 'schemaOrArray',
  JSONSchemaPropsOrBool: 'schemaOrBool',
  JSONSchemaPropsOrStringArray: 'schemaOrStringArray',
};

function specialKind(type: Protobuf.Type): SpecialKind | undefined {
  const direct = specialByName[type.fullName];
  if (direct) return direct;
  if (type.fullName.startsWith('.k8s.io.apiextensions_apiserver.')) {
    const s = apiextensionsSpecial[type.name];
    if (s) return s;
  }
  // Go named string slices (`ExtraValue`, `Verbs`) become a message with one repeated `items` field; JSON has the list.
  const only = type.fieldsArray.length === 1 ? type.fieldsArray[0] : undefined;
  if (only && only.name === 'items' && only.repeated && !only.resolvedType && !type.name.endsWith('List')) return 'stringList';
  return undefined;
}

/** The OpenAPI schema name of a message type (`.k8s.io.api.core.v1.Pod` → `io.k8s.api.core.v1.Pod`). */
export function schemaNameOf(type: Protobuf.Type): string {
  return type.fullName
    .replace(/^\.k8s\.io\./, 'io.k8s.')
    .replace('.apiextensions_apiserver.', '.apiextensions-apiserver.')
    .replace('.kube_aggregator.', '.kube-aggregator.');
}

const normalize = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function scalarKind(protoType: string): ScalarKind {
  switch (protoType) {
    case 'string': return 'string';
    case 'bool': return 'bool';
    case 'bytes': return 'bytes';
    case 'int64': case 'uint64': case 'sint64': case 'fixed64': case 'sfixed64': return 'long';
    default: return 'number';
  }
}

const plans = new WeakMap<Protobuf.Type, MessagePlan>();

/** The plan of a message type (computed once). */
export function messagePlan(type: Protobuf.Type): MessagePlan {
  const cached = plans.get(type);
  if (cached) return cached;
  const special = specialKind(type);
  const schema: OpenApiSchema | undefined = generatedSchemas()[schemaNameOf(type)];
  const props = Object.keys(schema?.properties ?? {});
  const byNormal = new Map(props.map((p) => [normalize(p), p]));
  const required = new Set(schema?.required ?? []);
  const fields: FieldPlan[] = type.fieldsArray.map((f) => {
    const message = f.resolvedType && 'fieldsArray' in f.resolvedType ? f.resolvedType as Protobuf.Type : undefined;
    const json = props.includes(f.name) ? f.name : byNormal.get(normalize(f.name));
    // A message field the schema does not name is a Go struct embedded with `json:",inline"`.
    const inline = schema !== undefined && json === undefined && message !== undefined && specialKind(message) === undefined;
    const name = json ?? f.name;
    return {
      name: f.name,
      json: name,
      repeated: f.repeated,
      map: f.map,
      ...(message ? { message } : { scalar: scalarKind(f.type) }),
      inline,
      required: required.has(name),
    };
  });
  const plan: MessagePlan = {
    type,
    ...(special ? { special } : {}),
    fields,
    ...(special === 'rawJson' || special === 'stringList' ? { valueField: type.fieldsArray[0]!.name } : {}),
  };
  plans.set(type, plan);
  return plan;
}
