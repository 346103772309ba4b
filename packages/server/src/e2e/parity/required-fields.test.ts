/**
 * The built-in schemas' `required` fields are not checked at decoding (kube's decoder never reads them): each kind's
 * validation says which fields it requires. This holds that to kube: every valid object the parity corpus creates is
 * taken field by field, each field its OpenAPI schema lists as required is removed, and the object must then be
 * refused by the kind's strategy (prepare, defaults and validation, as a create runs them) unless defaulting puts
 * the field back or kube-apiserver 1.27 also accepts the object without it (the list below, each with kube's reason).
 * So nothing kube refuses for a missing required field is accepted here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { beforeCreate } from '../../registry/operations/prepare.js';
import { generatedSchemas } from '../../schema/generated-data.js';
import { refName, type OpenApiSchema, type SchemaMap } from '../../schema/openapi-schema.js';
import { testRegistry } from '../../testing/test-registry.js';
import { corpusFiles } from './index.js';

/**
 * Required fields whose absence kube-apiserver 1.27 accepts: its validation of the kind does not look at them (or
 * reads an absent value as valid), by schema and field.
 */
const acceptedByKube: Readonly<Record<string, string>> = {
  'controllerrevisions: io.k8s.api.apps.v1.ControllerRevision.revision': 'an absent revision is 0, which ValidateNonnegativeField accepts',
  'statefulsets: io.k8s.api.apps.v1.StatefulSetSpec.serviceName': 'ValidateStatefulSetSpec does not check the service name',
  'statefulsets: io.k8s.api.core.v1': "ValidatePodTemplateSpecForStatefulSet checks the template's metadata, not its pod spec",
  'jobs: io.k8s.api.batch.v1.PodFailurePolicy.rules': 'validatePodFailurePolicy checks each rule, and an empty list has none',
  'limitranges: io.k8s.api.core.v1.LimitRangeSpec.limits': 'ValidateLimitRange checks each limit of the list, and an empty list has none',
  'endpointslices: io.k8s.api.discovery.v1.EndpointSlice.endpoints': 'validateEndpoints checks each endpoint, and an empty list has none',
  'networkpolicies: io.k8s.api.networking.v1.NetworkPolicySpec.podSelector': 'the pod selector is a struct: absent, it is the empty selector, which selects every pod',
  'networkpolicies: io.k8s.apimachinery.pkg.apis.meta.v1.Condition':
    "with NetworkPolicyStatus off (1.27's default) a create keeps the status sent, and ValidateNetworkPolicy does not look at it",
  'priorityclasses: io.k8s.api.scheduling.v1.PriorityClass.value': 'an absent value is 0, a valid user-definable priority',
  'csinodes: io.k8s.api.storage.v1.CSINode.spec': 'the spec is a struct: absent, it has no drivers, which is valid',
  'csinodes: io.k8s.api.storage.v1.CSINodeSpec.drivers': 'validateCSINodeDrivers checks each driver, and an empty list has none',
  'customresourcedefinitions: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion.served':
    'an absent served is false, and a version may be unserved',
};

/** One required field an object holds: its path for deletion and the schema and key for the report. */
interface RequiredField {
  readonly path: (string | number)[];
  readonly schema: string;
  readonly key: string;
}

/** The required fields `value` holds under `schema`, recursively. */
function requiredFields(schemas: SchemaMap, schema: OpenApiSchema | undefined, value: unknown, path: (string | number)[], name: string, out: RequiredField[]): void {
  if (schema === undefined || value === null || typeof value !== 'object') return;
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  if (ref !== undefined) {
    const target = refName(ref);
    requiredFields(schemas, schemas[target], value, path, target, out);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => requiredFields(schemas, schema.items, item, [...path, i], name, out));
    return;
  }
  const object = value as Record<string, unknown>;
  for (const key of schema.required ?? []) if (object[key] !== undefined && object[key] !== null) out.push({ path: [...path, key], schema: name, key });
  for (const [key, sub] of Object.entries(schema.properties ?? {})) requiredFields(schemas, sub, object[key], [...path, key], name, out);
  if (typeof schema.additionalProperties === 'object') {
    for (const [key, v] of Object.entries(object)) if (schema.properties?.[key] === undefined) requiredFields(schemas, schema.additionalProperties, v, [...path, key], name, out);
  }
}

function without(object: KubeObject, path: readonly (string | number)[]): KubeObject {
  const copy = structuredClone(object);
  let cur: any = copy;
  for (const p of path.slice(0, -1)) cur = cur[p];
  delete cur[path[path.length - 1]!];
  return copy;
}

function has(object: unknown, path: readonly (string | number)[]): boolean {
  let cur: any = object;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return false;
    cur = cur[p];
  }
  return cur !== undefined && cur !== null;
}

test('every required field the corpus sets is required by its kind, defaulted, or accepted by kube too', async () => {
  const names = namesFor('svc');
  const { registry } = await testRegistry(['parity']);
  const schemas = generatedSchemas();
  const accepted = new Set<string>();
  let checked = 0;
  for (const file of corpusFiles) {
    for (const c of file(names)) {
      const first = c.steps[0];
      if (first?.op !== 'create' || first.expect.code !== 201 || c.resource.virtual === true || first.query !== undefined) continue;
      const group = c.resource.groupKey === '' ? '' : names.group(c.resource.groupKey);
      const def = registry.lookup(group, c.resource.version, c.resource.resource);
      if (def === undefined) continue;
      const meta = (first.object['metadata'] ?? {}) as Record<string, unknown>;
      const object = {
        ...structuredClone(first.object), apiVersion: group === '' ? c.resource.version : `${group}/${c.resource.version}`, kind: c.resource.kind,
        metadata: { name: 'required-check', ...meta, ...(c.resource.namespaced ? { namespace: 'parity' } : {}) },
      } as KubeObject;
      const fields: RequiredField[] = [];
      requiredFields(schemas, schemas[def.schemaName], object, [], def.schemaName, fields);
      for (const field of fields) {
        if (field.path[0] === 'metadata') continue;
        const candidate = without(object, field.path);
        const result = beforeCreate(def, candidate);
        checked++;
        // Defaulted back, or gone with its parent (a status a create resets, a field of a disabled gate): not accepted.
        if (result.ok && !has(candidate, field.path) && has(candidate, field.path.slice(0, -1))) accepted.add(`${c.resource.resource}: ${field.schema}.${field.key}`);
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} required fields were checked`);
  const unexplained = [...accepted].filter((f) => !Object.keys(acceptedByKube).some((prefix) => f === prefix || f.startsWith(`${prefix}.`))).sort();
  const unused = Object.keys(acceptedByKube).filter((prefix) => ![...accepted].some((f) => f === prefix || f.startsWith(`${prefix}.`)));
  assert.deepEqual(unused, [], 'every listed field is met by the corpus');
  assert.deepEqual(unexplained, []);
});
