import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxNestingDepth } from '@svc-apiserver/api';
import { entriesPerStep, runStepsCounted } from '../limits/turn-budget.js';
import { patchSchemaFromOpenApi, permissivePatchSchema, type PatchSchema } from './patch-schema.js';
import { strategicMergePatch, strategicMergePatchSteps, type StrategicMergePatchErrorCode } from './strategic-merge-patch.js';

const ref = (name: string) => ({ allOf: [{ $ref: `#/components/schemas/${name}` }], default: {} });
const mergeList = (item: string, mergeKey: string, strategy = 'merge') => ({
  type: 'array',
  items: ref(item),
  'x-kubernetes-patch-merge-key': mergeKey,
  'x-kubernetes-patch-strategy': strategy,
});

/** A small Pod/Deployment-like schema map, shaped like the published core/v1 one. */
const schemas: Record<string, unknown> = {
  Pod: { type: 'object', properties: { metadata: ref('ObjectMeta'), spec: ref('PodSpec') } },
  ObjectMeta: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
      ownerReferences: mergeList('OwnerReference', 'uid'),
    },
  },
  OwnerReference: { type: 'object', properties: { uid: { type: 'string' }, name: { type: 'string' } } },
  PodSpec: {
    type: 'object',
    properties: {
      containers: mergeList('Container', 'name'),
      volumes: mergeList('Volume', 'name', 'merge,retainKeys'),
      tolerations: { type: 'array', items: ref('Toleration') },
      nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
      strategy: { ...ref('Strategy'), 'x-kubernetes-patch-strategy': 'retainKeys' },
      replaced: { ...ref('Strategy'), 'x-kubernetes-patch-strategy': 'replace' },
    },
  },
  Container: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      image: { type: 'string' },
      args: { type: 'array', items: { type: 'string' } },
      ports: {
        ...mergeList('ContainerPort', 'containerPort'),
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      },
      env: mergeList('EnvVar', 'name'),
    },
  },
  ContainerPort: { type: 'object', properties: { containerPort: { type: 'integer' }, protocol: { type: 'string' } } },
  EnvVar: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
  Volume: {
    type: 'object',
    properties: { name: { type: 'string' }, configMap: ref('ConfigMapSource'), emptyDir: ref('EmptyDirSource') },
  },
  ConfigMapSource: { type: 'object', properties: { name: { type: 'string' } } },
  EmptyDirSource: { type: 'object', properties: { medium: { type: 'string' } } },
  Toleration: { type: 'object', properties: { key: { type: 'string' }, effect: { type: 'string' } } },
  Strategy: {
    type: 'object',
    properties: { type: { type: 'string' }, rollingUpdate: { type: 'object', properties: { maxSurge: {} } } },
  },
};
const pod = patchSchemaFromOpenApi(schemas, 'Pod');

interface Case {
  readonly name: string;
  readonly original: unknown;
  readonly patch: unknown;
  readonly expected?: unknown;
  readonly error?: { readonly code: StrategicMergePatchErrorCode; readonly message: string | RegExp };
  readonly schema?: PatchSchema;
}

const c = (name: string, image?: string) => (image === undefined ? { name } : { name, image });
const spec = (s: unknown) => ({ spec: s });

const cases: Case[] = [
  // Objects.
  {
    name: 'objects merge recursively and null deletes a key',
    original: { metadata: { name: 'p', labels: { a: '1', b: '2' } } },
    patch: { metadata: { labels: { a: null, c: '3' } } },
    expected: { metadata: { name: 'p', labels: { b: '2', c: '3' } } },
  },
  {
    name: 'a new key takes the patch value without its nulls',
    original: { metadata: { name: 'p' } },
    patch: { metadata: { annotations: { x: 'y', gone: null } } },
    expected: { metadata: { name: 'p', annotations: { x: 'y' } } },
  },
  {
    name: 'null for an absent key changes nothing',
    original: { metadata: { name: 'p' } },
    patch: { metadata: { labels: null } },
    expected: { metadata: { name: 'p' } },
  },
  {
    name: 'a value of another type replaces the original',
    original: spec({ nodeSelector: { a: 'b' } }),
    patch: spec({ nodeSelector: 'x' }),
    expected: spec({ nodeSelector: 'x' }),
  },
  {
    name: '$patch: replace on an object replaces it',
    original: { metadata: { labels: { a: '1', b: '2' } } },
    patch: { metadata: { labels: { $patch: 'replace', c: '3' } } },
    expected: { metadata: { labels: { c: '3' } } },
  },
  {
    name: '$patch: delete on an object empties it',
    original: spec({ nodeSelector: { a: 'b' }, tolerations: [] }),
    patch: spec({ nodeSelector: { $patch: 'delete', ignored: 'x' } }),
    expected: spec({ nodeSelector: {}, tolerations: [] }),
  },
  {
    name: 'patch strategy replace on an object field replaces it',
    original: spec({ replaced: { type: 'A', rollingUpdate: { maxSurge: 1 } } }),
    patch: spec({ replaced: { type: 'B' } }),
    expected: spec({ replaced: { type: 'B' } }),
  },
  {
    name: 'a JSON null patch changes nothing',
    original: { metadata: { name: 'p' } },
    patch: null,
    expected: { metadata: { name: 'p' } },
  },

  // Lists of objects with a merge key.
  {
    name: 'merge list: items merge by key, new items are appended',
    original: spec({ containers: [c('a', 'a:1'), c('b', 'b:1')] }),
    patch: spec({ containers: [c('b', 'b:2'), c('z', 'z:1')] }),
    expected: spec({ containers: [c('a', 'a:1'), c('b', 'b:2'), c('z', 'z:1')] }),
  },
  {
    name: 'merge list: a new item listed before live ones keeps its place in patch order',
    original: spec({ containers: [c('a'), c('b'), c('c')] }),
    patch: spec({ containers: [c('d'), c('a')] }),
    expected: spec({ containers: [c('d'), c('a'), c('b'), c('c')] }),
  },
  {
    name: 'merge list: nested merge lists merge by their own key',
    original: spec({
      containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443 }] }],
    }),
    patch: spec({ containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'UDP' }, { containerPort: 8080 }] }] }),
    // 8080 is new, so it follows its patch neighbour 80; 443 (server-only) comes after, as upstream orders them.
    expected: spec({
      containers: [
        { name: 'a', ports: [{ containerPort: 80, protocol: 'UDP' }, { containerPort: 8080 }, { containerPort: 443 }] },
      ],
    }),
  },
  {
    name: 'merge list: null inside an item deletes that key of the item',
    original: spec({ containers: [{ name: 'a', image: 'x', args: ['1'] }] }),
    patch: spec({ containers: [{ name: 'a', args: null }] }),
    expected: spec({ containers: [{ name: 'a', image: 'x' }] }),
  },
  {
    name: 'merge list: $patch: delete removes every item with that key',
    original: spec({ containers: [c('a'), c('b'), c('a', 'dup')] }),
    patch: spec({ containers: [{ name: 'a', $patch: 'delete' }] }),
    expected: spec({ containers: [c('b')] }),
  },
  {
    name: 'merge list: an item {$patch: replace} makes the other items the whole list',
    original: spec({ containers: [c('a', 'x'), c('b', 'y')] }),
    patch: spec({ containers: [{ $patch: 'replace' }, c('b'), c('c')] }),
    expected: spec({ containers: [c('b'), c('c')] }),
  },
  {
    name: 'merge list: $patch: replace alone empties the list',
    original: spec({ containers: [c('a')] }),
    patch: spec({ containers: [{ $patch: 'replace' }] }),
    expected: spec({ containers: [] }),
  },
  {
    name: 'merge list: absent in the original takes the patch list',
    original: spec({}),
    patch: spec({ containers: [c('a', 'x')] }),
    expected: spec({ containers: [c('a', 'x')] }),
  },
  {
    name: 'merge list: null deletes the list',
    original: spec({ containers: [c('a')], tolerations: [] }),
    patch: spec({ containers: null }),
    expected: spec({ tolerations: [] }),
  },
  {
    name: 'a patch of only new items puts them before the server-only ones (upstream order)',
    original: { metadata: { ownerReferences: [{ uid: '1', name: 'a' }] } },
    patch: { metadata: { ownerReferences: [{ uid: '2', name: 'b' }] } },
    expected: { metadata: { ownerReferences: [{ uid: '2', name: 'b' }, { uid: '1', name: 'a' }] } },
  },

  // Lists without a merge strategy.
  {
    name: 'a list without patch strategy is replaced (tolerations)',
    original: spec({ tolerations: [{ key: 'a' }, { key: 'b' }] }),
    patch: spec({ tolerations: [{ key: 'c' }] }),
    expected: spec({ tolerations: [{ key: 'c' }] }),
  },
  {
    name: 'a primitive list without patch strategy is replaced (args)',
    original: spec({ containers: [{ name: 'a', args: ['1', '2'] }] }),
    patch: spec({ containers: [{ name: 'a', args: ['3'] }] }),
    expected: spec({ containers: [{ name: 'a', args: ['3'] }] }),
  },

  // Lists of scalars with strategy merge.
  {
    name: 'primitive merge list: union without duplicates, patch order first where the live list does not say otherwise',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { finalizers: ['c', 'a', 'c'] } },
    expected: { metadata: { finalizers: ['c', 'a', 'b'] } },
  },
  {
    name: 'primitive merge list: new values appended after live ones',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { finalizers: ['b', 'c'] } },
    expected: { metadata: { finalizers: ['a', 'b', 'c'] } },
  },
  {
    name: '$deleteFromPrimitiveList removes values',
    original: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'x'] } },
    expected: { metadata: { finalizers: ['a', 'c'] } },
  },
  {
    name: '$deleteFromPrimitiveList with an addition (kubectl edit removing one finalizer, adding another)',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: {
      metadata: { '$setElementOrder/finalizers': ['a', 'c'], finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['b'] },
    },
    expected: { metadata: { finalizers: ['a', 'c'] } },
  },
  {
    name: '$deleteFromPrimitiveList for an absent list changes nothing',
    original: { metadata: { name: 'p' } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    expected: { metadata: { name: 'p' } },
  },

  // $setElementOrder.
  {
    name: '$setElementOrder reorders a primitive list without changing it',
    original: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['c', 'a', 'b'] } },
    expected: { metadata: { finalizers: ['c', 'a', 'b'] } },
  },
  {
    name: '$setElementOrder orders merged items (kubectl edit adding a container first, deleting one)',
    original: spec({ containers: [c('a', '1'), c('b', '1')] }),
    patch: spec({
      '$setElementOrder/containers': [{ name: 'z' }, { name: 'a' }],
      containers: [c('z', '1'), { name: 'b', $patch: 'delete' }],
    }),
    expected: spec({ containers: [c('z', '1'), c('a', '1')] }),
  },
  {
    name: '$setElementOrder orders named items; a server-only item goes before a named one the live list had after it',
    original: spec({ containers: [c('a'), c('s'), c('b')] }),
    patch: spec({ '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [c('b', '2')] }),
    expected: spec({ containers: [c('s'), c('b', '2'), c('a')] }),
  },
  {
    name: '$setElementOrder with a deletion places server-only items as upstream (in-place shift)',
    original: spec({ containers: [c('1'), c('2', 'b'), c('4', 'c')] }),
    patch: spec({
      '$setElementOrder/containers': [{ name: '2' }, { name: '3' }],
      containers: [c('3'), { name: '1', $patch: 'delete' }],
    }),
    expected: spec({ containers: [c('2', 'b'), c('4', 'c'), c('3')] }),
  },
  {
    name: '$setElementOrder may name items absent from both lists',
    original: { metadata: { finalizers: ['a', 'c'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'], finalizers: ['c'] } },
    expected: { metadata: { finalizers: ['c', 'a'] } },
  },

  // $retainKeys.
  {
    name: '$retainKeys in a volume switches its source (merge,retainKeys list)',
    original: spec({ volumes: [{ name: 'v', configMap: { name: 'cm' } }, { name: 'w', emptyDir: {} }] }),
    patch: spec({ volumes: [{ name: 'v', $retainKeys: ['emptyDir', 'name'], emptyDir: { medium: 'Memory' } }] }),
    expected: spec({ volumes: [{ name: 'v', emptyDir: { medium: 'Memory' } }, { name: 'w', emptyDir: {} }] }),
  },
  {
    name: '$retainKeys on a retainKeys object field drops unlisted keys',
    original: spec({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } }),
    patch: spec({ strategy: { $retainKeys: ['type'], type: 'Recreate' } }),
    expected: spec({ strategy: { type: 'Recreate' } }),
  },
  {
    name: '$retainKeys allows null for unlisted keys',
    original: spec({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } }),
    patch: spec({ strategy: { $retainKeys: ['type'], rollingUpdate: null } }),
    expected: spec({ strategy: { type: 'RollingUpdate' } }),
  },

  // Unknown schema: lists replaced, maps merged.
  {
    name: 'permissive schema: lists are replaced, objects merge',
    schema: permissivePatchSchema,
    original: { spec: { items: [{ name: 'a' }], nested: { a: 1, b: 2 } } },
    patch: { spec: { items: [{ name: 'b' }], nested: { a: null, c: 3 } } },
    expected: { spec: { items: [{ name: 'b' }], nested: { b: 2, c: 3 } } },
  },
  {
    name: 'permissive schema: directives still apply to objects',
    schema: permissivePatchSchema,
    original: { spec: { a: 1 }, status: { b: 2 } },
    patch: { spec: { $patch: 'replace', c: 3 }, status: { $patch: 'delete' } },
    expected: { spec: { c: 3 }, status: {} },
  },

  // Errors, with the status kube-apiserver answers.
  {
    name: 'the patch must be an object',
    original: {},
    patch: [1],
    error: { code: 400, message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' },
  },
  {
    name: 'unknown $patch in an object',
    original: { metadata: { labels: {} } },
    patch: { metadata: { labels: { $patch: 'foo', a: 'b' } } },
    error: { code: 500, message: 'unknown patch type: foo in map: map[$patch:foo a:b]' },
  },
  {
    name: '$patch: merge in an object is rejected like upstream',
    original: { metadata: { labels: {} } },
    patch: { metadata: { labels: { $patch: 'merge' } } },
    error: { code: 500, message: 'unknown patch type: merge in map: map[$patch:merge]' },
  },
  {
    name: 'a non-string $patch',
    original: {},
    patch: { $patch: 1 },
    error: { code: 500, message: 'unknown patch type: %!s(int64=1) in map: map[$patch:1]' },
  },
  {
    name: 'unknown $patch in a list item',
    original: spec({ containers: [c('a')] }),
    patch: spec({ containers: [{ name: 'a', $patch: 'bogus' }] }),
    error: { code: 500, message: 'unknown patch type: bogus in map: map[$patch:bogus name:a]' },
  },
  {
    name: '$patch: merge in a list item',
    original: spec({ containers: [c('a')] }),
    patch: spec({ containers: [{ name: 'a', $patch: 'merge' }] }),
    error: { code: 500, message: 'merging lists cannot yet be specified in the patch' },
  },
  {
    name: 'a patch item without the merge key',
    original: spec({ containers: [c('a')] }),
    patch: spec({ containers: [{ image: 'x' }] }),
    error: { code: 500, message: 'map: map[image:x] does not contain declared merge key: name' },
  },
  {
    name: 'a delete directive without the merge key',
    original: spec({ containers: [c('a')] }),
    patch: spec({ containers: [{ $patch: 'delete' }] }),
    error: { code: 500, message: 'map: map[$patch:delete] does not contain declared merge key: name' },
  },
  {
    name: 'mixed item types in a merged list',
    original: { metadata: { finalizers: ['a'] } },
    patch: { metadata: { finalizers: [1] } },
    error: { code: 500, message: 'list element types are not identical: [[a] [1]]' },
  },
  {
    name: 'a list of lists',
    original: { metadata: { finalizers: [['a']] } },
    patch: { metadata: { finalizers: [['b']] } },
    error: { code: 422, message: 'lists of lists are not supported' },
  },
  {
    name: 'a malformed $deleteFromPrimitiveList key',
    original: { metadata: { finalizers: ['a'] } },
    patch: { metadata: { $deleteFromPrimitiveListfinalizers: ['a'] } },
    error: { code: 400, message: 'invalid patch format of primitive list' },
  },
  {
    name: 'a malformed $setElementOrder key',
    original: { metadata: { finalizers: ['a'] } },
    patch: { metadata: { '$setElementOrder-finalizers': ['a'] } },
    error: { code: 400, message: 'invalid patch format of setElementOrder list' },
  },
  {
    name: '$setElementOrder that is not a list',
    original: { metadata: { finalizers: ['a'] } },
    patch: { metadata: { '$setElementOrder/finalizers': 'a' } },
    error: { code: 500, message: 'expected a []interface {}, but received a string' },
  },
  {
    name: 'a patch list out of $setElementOrder order',
    original: { metadata: { finalizers: ['a', 'b'] } },
    patch: { metadata: { '$setElementOrder/finalizers': ['a', 'b'], finalizers: ['b', 'a'] } },
    error: { code: 500, message: /^The order in patch list:\n\[b a\]\n doesn't match \$setElementOrder list:\n\[a b\]/ },
  },
  {
    name: '$retainKeys that is not a list',
    original: spec({ strategy: {} }),
    patch: spec({ strategy: { $retainKeys: 'type' } }),
    error: { code: 400, message: 'invalid patch format of retainKeys' },
  },
  {
    name: 'a patch key missing from $retainKeys',
    original: spec({ strategy: { type: 'A' } }),
    patch: spec({ strategy: { $retainKeys: ['type'], rollingUpdate: {} } }),
    error: { code: 400, message: 'invalid patch format of retainKeys' },
  },
];

for (const tc of cases) {
  test(`strategic merge patch: ${tc.name}`, () => {
    const result = strategicMergePatch(tc.original, tc.patch, tc.schema ?? pod);
    if (tc.error === undefined) {
      assert.deepEqual(result, { ok: true, value: tc.expected });
      return;
    }
    assert.equal(result.ok, false, `expected an error, got ${JSON.stringify(result)}`);
    if (result.ok) return;
    assert.equal(result.error.code, tc.error.code);
    if (typeof tc.error.message === 'string') assert.equal(result.error.message, tc.error.message);
    else assert.match(result.error.message, tc.error.message);
  });
}

test('strategic merge patch never modifies its inputs and shares nothing with them', () => {
  const original = deepFreeze({
    spec: { containers: [c('a', '1'), c('b', '1')], nodeSelector: { a: 'b' } },
    metadata: { finalizers: ['x', 'y'] },
  });
  const patch = deepFreeze({
    spec: {
      '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }],
      containers: [c('c', '2'), { name: 'b', $patch: 'delete' }, { name: 'a', image: null }],
      nodeSelector: { $patch: 'replace', c: 'd' },
    },
    metadata: { '$deleteFromPrimitiveList/finalizers': ['x'], finalizers: ['z'] },
  });
  const before = JSON.stringify([original, patch]);
  const result = strategicMergePatch(original, patch, pod);
  assert.deepEqual(result, {
    ok: true,
    value: {
      spec: { containers: [c('c', '2'), c('a')], nodeSelector: { c: 'd' } },
      metadata: { finalizers: ['z', 'y'] },
    },
  });
  assert.equal(JSON.stringify([original, patch]), before);
  if (!result.ok) return;
  // Changing the result must not reach the inputs.
  const value = result.value as { spec: { containers: { image?: string }[] } };
  value.spec.containers[0]!.image = 'changed';
  assert.equal(JSON.stringify([original, patch]), before);
});

const upstreamCoreV1 = new URL('../../upstream/k8s-1.27/openapi-v3/api__v1_openapi.json', import.meta.url);

test('strategic merge patch over the published core/v1 Pod schema (kubectl edit / label shaped patches)', (t) => {
  if (!existsSync(upstreamCoreV1)) {
    t.skip('core/v1 OpenAPI document not present');
    return;
  }
  const document = JSON.parse(readFileSync(upstreamCoreV1, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  const podSchema = patchSchemaFromOpenApi(document.components.schemas, 'io.k8s.api.core.v1.Pod');
  const original = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', labels: { app: 'web' }, finalizers: ['a/b'] },
    spec: {
      containers: [
        { name: 'web', image: 'nginx:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 80 }] },
        { name: 'side', image: 'busybox', args: ['sleep', '1'] },
      ],
      volumes: [{ name: 'cfg', configMap: { name: 'cm' } }],
      tolerations: [{ key: 'k', operator: 'Exists' }],
    },
  };
  // What kubectl edit sends after: changing web's image, removing env B, adding env C, adding port 443,
  // switching volume cfg to emptyDir, replacing tolerations and the sidecar's args, adding a label and a finalizer.
  const patch = {
    metadata: { labels: { tier: 'front' }, '$setElementOrder/finalizers': ['a/b', 'c/d'], finalizers: ['c/d'] },
    spec: {
      '$setElementOrder/containers': [{ name: 'web' }, { name: 'side' }],
      '$setElementOrder/volumes': [{ name: 'cfg' }],
      containers: [
        {
          name: 'web',
          image: 'nginx:2',
          '$setElementOrder/env': [{ name: 'A' }, { name: 'C' }],
          env: [{ name: 'C', value: '3' }, { name: 'B', $patch: 'delete' }],
          '$setElementOrder/ports': [{ containerPort: 80 }, { containerPort: 443 }],
          ports: [{ containerPort: 443 }],
        },
        { name: 'side', args: ['sleep', '2'] },
      ],
      volumes: [{ name: 'cfg', $retainKeys: ['emptyDir', 'name'], emptyDir: {}, configMap: null }],
      tolerations: [{ key: 'other', operator: 'Exists' }],
    },
  };
  const result = strategicMergePatch(original, patch, podSchema);
  assert.deepEqual(result, {
    ok: true,
    value: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, finalizers: ['a/b', 'c/d'] },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:2',
            env: [{ name: 'A', value: '1' }, { name: 'C', value: '3' }],
            ports: [{ containerPort: 80 }, { containerPort: 443 }],
          },
          { name: 'side', image: 'busybox', args: ['sleep', '2'] },
        ],
        volumes: [{ name: 'cfg', emptyDir: {} }],
        tolerations: [{ key: 'other', operator: 'Exists' }],
      },
    },
  });
});

test('strategic merge patch in steps: every case gives the same result as in one go, without yielding', () => {
  for (const tc of cases) {
    const whole = strategicMergePatch(structuredClone(tc.original), structuredClone(tc.patch), tc.schema ?? pod);
    const stepped = runStepsCounted(strategicMergePatchSteps(structuredClone(tc.original), structuredClone(tc.patch), tc.schema ?? pod));
    assert.deepEqual(stepped.value, whole, tc.name);
    assert.equal(stepped.yields, 0, tc.name);
  }
});

const envItems = (from: number, n: number, value: string) => Array.from({ length: n }, (_, i) => ({ name: `E${from + i}`, value }));
const withEnv = (env: unknown[]) => spec({ containers: [{ name: 'c', image: 'busybox', env }] });

test('strategic merge patch in steps: 20,000 list items merged into 20,000 yield all along and give the same list', () => {
  const original = withEnv(envItems(0, 20_000, 'v'));
  const patch = withEnv(envItems(10_000, 20_000, 'w'));
  const whole = strategicMergePatch(structuredClone(original), patch, pod);
  const stepped = runStepsCounted(strategicMergePatchSteps(structuredClone(original), patch, pod, true));
  assert.deepEqual(stepped.value, whole);
  // The live items the patch does not name keep their place before the patch's, which keep its order.
  assert.deepEqual(stepped.value, { ok: true, value: withEnv([...envItems(0, 10_000, 'v'), ...envItems(10_000, 20_000, 'w')]) });
  // Each of the 40,000 items is visited on several passes (copy, index, merge, partition, order).
  assert.ok(stepped.yields >= (4 * 40_000) / entriesPerStep, `${stepped.yields} yields`);
});

test('strategic merge patch in steps: directives over long lists give the same result as in one go', () => {
  const original = { metadata: { finalizers: Array.from({ length: 10_000 }, (_, i) => `f${i}`) }, ...withEnv(envItems(0, 10_000, 'v')) };
  const patch = {
    metadata: {
      '$deleteFromPrimitiveList/finalizers': Array.from({ length: 5_000 }, (_, i) => `f${2 * i}`),
      '$setElementOrder/finalizers': ['new', ...Array.from({ length: 10_000 }, (_, i) => `f${9_999 - i}`)],
      finalizers: ['new'],
    },
    spec: {
      containers: [{
        name: 'c',
        '$setElementOrder/env': Array.from({ length: 10_000 }, (_, i) => ({ name: `E${(i * 7) % 10_000}` })),
        env: [...Array.from({ length: 3_000 }, (_, i) => ({ name: `E${i}`, $patch: 'delete' })), { name: 'E9999', value: null }],
      }],
    },
  };
  const whole = strategicMergePatch(original, patch, pod);
  assert.equal(whole.ok, true);
  const stepped = runStepsCounted(strategicMergePatchSteps(original, patch, pod));
  assert.deepEqual(stepped.value, whole);
  assert.ok(stepped.yields > 0);
});

test('strategic merge patch: $setElementOrder with 20,000 deletions from a list of 40,000 keeps the rest in live order', () => {
  const original = withEnv(envItems(0, 40_000, 'v'));
  const patch = spec({
    containers: [{ name: 'c', '$setElementOrder/env': [{ name: 'E0' }], env: Array.from({ length: 20_000 }, (_, i) => ({ name: `E${39_999 - i}`, $patch: 'delete' })) }],
  });
  assert.deepEqual(strategicMergePatch(original, patch, pod), { ok: true, value: withEnv(envItems(0, 20_000, 'v')) });
});

test('strategic merge patch in steps: a failure deep in a long list is the same error value, after yielding', () => {
  const original = withEnv(envItems(0, 20_000, 'v'));
  const patch = withEnv([...envItems(0, 15_000, 'w'), { value: 'no name' }]);
  const stepped = runStepsCounted(strategicMergePatchSteps(original, patch, pod));
  assert.ok(stepped.yields > 0);
  assert.deepEqual(stepped.value, { ok: false, error: { code: 500, message: 'map: map[value:no name] does not contain declared merge key: name' } });
  assert.deepEqual(strategicMergePatch(original, patch, pod), stepped.value);
});

test('strategic merge patch in steps: values nested as deep as request data may be merge without exhausting the stack', () => {
  const nest = (leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < maxNestingDepth - 1; i++) value = { [`k${i % 3}`]: value, [`l${i % 2}`]: [{ a: i }] };
    return value;
  };
  const result = strategicMergePatch(nest({ a: 1 }), nest({ a: 2, b: null, c: 3 }), permissivePatchSchema);
  assert.deepEqual(result, { ok: true, value: nest({ a: 2, c: 3 }) });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
