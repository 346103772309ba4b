import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchSchemaFromOpenApi, permissivePatchSchema } from './patch-schema.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Shaped like the published core/v1 schemas: fields wrap references in `allOf`, list metadata sits on the field. */
const schemas: Record<string, unknown> = {
  Pod: {
    type: 'object',
    properties: {
      metadata: { allOf: [ref('ObjectMeta')], default: {} },
      spec: { allOf: [ref('PodSpec')], default: {} },
    },
  },
  ObjectMeta: {
    type: 'object',
    properties: {
      labels: { type: 'object', additionalProperties: { type: 'string', default: '' } },
      finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-patch-strategy': 'merge' },
    },
  },
  PodSpec: {
    type: 'object',
    properties: {
      containers: {
        type: 'array',
        items: { allOf: [ref('Container')], default: {} },
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
      },
      volumes: {
        type: 'array',
        items: { allOf: [ref('Volume')], default: {} },
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
      },
      tolerations: { type: 'array', items: { allOf: [ref('Toleration')], default: {} } },
      strategy: { allOf: [ref('Strategy')], 'x-kubernetes-patch-strategy': 'retainKeys' },
    },
  },
  Container: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      ports: {
        type: 'array',
        items: ref('ContainerPort'),
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'containerPort',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
  ContainerPort: { type: 'object', properties: { containerPort: { type: 'integer' } } },
  Volume: { type: 'object', properties: { name: { type: 'string' } } },
  Toleration: { type: 'object', properties: { key: { type: 'string' } } },
  Strategy: { type: 'object', properties: { type: { type: 'string' } } },
  Node: { type: 'object', properties: { self: ref('Node'), children: { type: 'array', items: ref('Node') } } },
};

test('list fields carry their patch strategy, merge key and list type', () => {
  const spec = patchSchemaFromOpenApi(schemas, 'Pod').field('spec');
  assert.ok(spec);
  const containers = spec.field('containers');
  assert.equal(containers?.patchStrategy, 'merge');
  assert.equal(containers?.patchMergeKey, 'name');
  assert.equal(spec.field('volumes')?.patchStrategy, 'merge,retainKeys');
  const tolerations = spec.field('tolerations');
  assert.ok(tolerations);
  assert.equal(tolerations.patchStrategy, undefined);
  assert.equal(tolerations.patchMergeKey, undefined);

  const ports = containers?.items()?.field('ports');
  assert.equal(ports?.patchMergeKey, 'containerPort');
  assert.equal(ports?.listType, 'map');
  assert.deepEqual(ports?.listMapKeys, ['containerPort', 'protocol']);
  assert.ok(ports?.items()?.field('containerPort'));
});

test('metadata on a field wrapping a reference is kept beside the referenced properties', () => {
  const strategy = patchSchemaFromOpenApi(schemas, 'Pod').field('spec')?.field('strategy');
  assert.equal(strategy?.patchStrategy, 'retainKeys');
  assert.ok(strategy?.field('type'));
});

test('maps expose their values; undeclared fields are undefined', () => {
  const metadata = patchSchemaFromOpenApi(schemas, 'Pod').field('metadata');
  assert.ok(metadata?.field('labels')?.additionalProperties());
  assert.equal(metadata?.field('labels')?.field('app'), undefined);
  assert.equal(metadata?.field('nope'), undefined);
  assert.equal(metadata?.field('finalizers')?.patchStrategy, 'merge');
});

test('recursive schemas resolve lazily to shared views', () => {
  const node = patchSchemaFromOpenApi(schemas, 'Node');
  assert.equal(node.field('self'), node.field('self')?.field('self'));
  assert.equal(node.field('children')?.items(), node.field('self'));
});

test('an unknown schema gives the permissive view: every field known, no list strategy', () => {
  const unknown = patchSchemaFromOpenApi(schemas, 'example.com.v1.Widget');
  assert.equal(unknown, permissivePatchSchema);
  assert.equal(unknown.field('spec')?.field('items')?.patchStrategy, undefined);
  assert.equal(unknown.field('spec')?.items(), permissivePatchSchema);
});

const upstreamCoreV1 = new URL('../../upstream/k8s-1.27/openapi-v3/api__v1_openapi.json', import.meta.url);

test('reads the patch metadata of the published core/v1 schemas', (t) => {
  if (!existsSync(upstreamCoreV1)) {
    t.skip('core/v1 OpenAPI document not present');
    return;
  }
  const document = JSON.parse(readFileSync(upstreamCoreV1, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  const pod = patchSchemaFromOpenApi(document.components.schemas, 'io.k8s.api.core.v1.Pod');
  const spec = pod.field('spec');
  assert.equal(spec?.field('containers')?.patchMergeKey, 'name');
  assert.equal(spec?.field('volumes')?.patchStrategy, 'merge,retainKeys');
  assert.equal(spec?.field('tolerations')?.patchStrategy, undefined);
  assert.equal(spec?.field('containers')?.items()?.field('ports')?.patchMergeKey, 'containerPort');
  assert.equal(spec?.field('containers')?.items()?.field('env')?.patchMergeKey, 'name');
  assert.equal(pod.field('metadata')?.field('finalizers')?.patchStrategy, 'merge');
  assert.equal(pod.field('metadata')?.field('ownerReferences')?.patchMergeKey, 'uid');
});
