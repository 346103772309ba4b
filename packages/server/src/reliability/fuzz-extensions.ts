/**
 * The fuzzer's inputs for the extension points: CustomResourceDefinitions with generated schemas (every structural
 * keyword, list and map types, defaults, `x-kubernetes-validations` CEL rules, nesting, contradictions), objects of
 * a custom resource the run establishes first (so every generic category reaches custom objects too), and mutating
 * and validating webhook configurations bent one field at a time.
 *
 * A webhook configuration the server accepts must never be called during a run (a call to nowhere would fail every
 * later write of what it matches): each one keeps a never-matching object selector and `failurePolicy: Ignore`
 * unless the bent field is one of those two, and then the bend is one validation refuses.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { ResourceFixture } from '../e2e/fixtures.js';
import type { Random } from './fuzz-random.js';
import { nested, oddKey, oddNumber, oddString, randomJson, type Json } from './fuzz-values.js';

/** The group of the run's custom resources. */
export const fuzzCrdGroup = 'fuzz.example.com';

/** CEL rules: valid, invalid, costly, transition rules, and text no parser wants. */
const celRules = [
  'self.size() >= 0', 'self.replicas <= 100', 'self.name.startsWith("w")', "has(self.mode) ? self.mode != 'off' : true",
  'self.all(k, k.size() < 64)', 'self.items.all(a, self.items.all(b, self.items.all(c, a == b || b == c)))',
  'self == oldSelf', 'self.matches("[")', 'self.matches("^(a+)+$")', '(((', '', ' ', 'self.', '1 +', 'size(self) > "x"',
  'self.x.y.z.w', 'int(self) / 0 == 1', 'duration("1h") > duration("x")', 'self.map(x, x * 2).size() > 0',
  'string(self).size() < 10', 'self.exists_one(x, true)', '[1,2,3].all(x, x > 0)', 'dyn(self) == 1', "'\\u0000' == self",
  `self${'.a'.repeat(300)}`, `${'!'.repeat(500)}true`, 'x'.repeat(5000), `${'('.repeat(200)}1${')'.repeat(200)}`,
];

const formats = ['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'uuid', 'uri', 'email', 'hostname', 'ipv4', 'cidr', 'nope', ''];

/** A schema node: mostly structural, with odd keywords and values mixed in; `depth` bounds the nesting. */
export function randomSchema(r: Random, depth: number): Json {
  const type = r.weighted<string | null>([[5, 'object'], [2, 'array'], [3, 'string'], [2, 'integer'], [1, 'number'], [1, 'boolean'], [0.5, null], [0.3, 'nope']]);
  const s: Record<string, Json> = type === null ? {} : { type };
  if (type === 'object' && depth > 0) {
    if (r.chance(0.85)) {
      const props: Record<string, Json> = {};
      for (let i = r.range(0, 4); i > 0; i--) props[r.chance(0.9) ? r.pick(['spec', 'name', 'replicas', 'mode', 'items', 'a', 'x', 'metadata', 'apiVersion']) : oddKey(r)] = randomSchema(r, depth - 1);
      s['properties'] = props;
      if (r.chance(0.3)) s['required'] = r.chance(0.8) ? Object.keys(props).slice(0, r.int(3)) : (randomJson(r, 1, 3) as Json);
    } else if (r.chance(0.5)) {
      s['additionalProperties'] = r.chance(0.8) ? randomSchema(r, depth - 1) : r.chance(0.5);
    } else {
      s['x-kubernetes-preserve-unknown-fields'] = r.pick<Json>([true, false, 'yes']);
    }
    if (r.chance(0.1)) s['x-kubernetes-map-type'] = r.pick(['granular', 'atomic', 'x']);
    if (r.chance(0.05)) s['x-kubernetes-embedded-resource'] = true;
  }
  if (type === 'array' && depth > 0) {
    if (r.chance(0.9)) s['items'] = randomSchema(r, depth - 1);
    if (r.chance(0.3)) s['x-kubernetes-list-type'] = r.pick(['atomic', 'set', 'map', 'x']);
    if (r.chance(0.2)) s['x-kubernetes-list-map-keys'] = r.pick<Json>([['name'], ['name', 'x'], [], 'name', [5]]);
    if (r.chance(0.2)) s['maxItems'] = r.pick<Json>([0, 1, 10, -1, 2 ** 53]);
  }
  if (type === 'string') {
    if (r.chance(0.2)) s['format'] = r.pick(formats);
    if (r.chance(0.2)) s['pattern'] = r.pick(['^[a-z]+$', '(', '^(a+)+$', '\\p{L}', '[[:alpha:]]', oddString(r, 20)]);
    if (r.chance(0.2)) s['enum'] = r.pick<Json>([['a', 'b'], [], [null], [1, 'a'], 'a']);
    if (r.chance(0.2)) s['maxLength'] = r.pick<Json>([0, 3, 63, -1, 1e300]);
  }
  if (type === 'integer' || type === 'number') {
    if (r.chance(0.3)) s['minimum'] = oddNumber(r);
    if (r.chance(0.3)) s['maximum'] = oddNumber(r);
    if (r.chance(0.1)) s['multipleOf'] = r.pick<Json>([0, 2, 0.1, -1]);
    if (r.chance(0.1)) s['exclusiveMinimum'] = r.chance(0.5);
  }
  if (r.chance(0.1)) s['x-kubernetes-int-or-string'] = true;
  if (r.chance(0.1)) s['nullable'] = r.chance(0.8);
  if (r.chance(0.15)) s['default'] = randomJson(r, 2, 6);
  if (r.chance(0.05)) s[r.pick(['anyOf', 'oneOf', 'allOf'])] = [randomSchema(r, 0), randomSchema(r, 0)];
  if (r.chance(0.03)) s['not'] = randomSchema(r, 0);
  if (r.chance(0.03)) s[r.pick(['$ref', 'definitions', 'id', 'patternProperties', 'dependencies', 'additionalItems', 'uniqueItems'])] = r.pick<Json>([true, '#/x', {}, [1]]);
  if (r.chance(0.2)) {
    s['x-kubernetes-validations'] = Array.from({ length: r.range(0, 3) }, () => {
      const rule: Record<string, Json> = { rule: r.pick(celRules) };
      if (r.chance(0.3)) rule['message'] = r.chance(0.8) ? 'must be right' : oddString(r, 300);
      if (r.chance(0.2)) rule['messageExpression'] = r.pick(['"x"', 'self', '(', "'value ' + string(self)"]);
      if (r.chance(0.1)) rule['reason'] = r.pick(['FieldValueInvalid', 'FieldValueForbidden', 'Nope']);
      if (r.chance(0.1)) rule['fieldPath'] = r.pick(['.spec', '.x[0]', 'spec', '']);
      return rule;
    });
  }
  return s;
}

/** A version entry of a CRD. */
function crdVersion(name: string, storage: boolean, schema: Json): Record<string, Json> {
  return { name, served: true, storage, schema: { openAPIV3Schema: schema } };
}

/** The schema of the run's own custom resource: a bit of everything the server evaluates on each write. */
function widgetSchema(): Json {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer', minimum: 0, maximum: 1000, default: 1 },
          mode: { type: 'string', enum: ['on', 'off', 'auto'], default: 'auto' },
          name: { type: 'string', maxLength: 63, pattern: '^[a-z0-9-]*$' },
          port: { 'x-kubernetes-int-or-string': true },
          items: { type: 'array', maxItems: 50, items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          ports: {
            type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', format: 'int32' } } },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          created: { type: 'string', format: 'date-time' },
        },
        'x-kubernetes-validations': [
          { rule: 'self.replicas <= 500', message: 'at most 500 replicas' },
          { rule: "!has(self.name) || self.name.startsWith('w')", messageExpression: "'name ' + self.name + ' must start with w'" },
        ],
      },
      status: { type: 'object', properties: { ready: { type: 'integer' }, phase: { type: 'string' } } },
    },
  };
}

/** The run's custom resource, established before the cases run. */
export function widgetCrd(names: Names): KubeObject {
  const ext = names.group('apiextensions');
  return {
    apiVersion: `${ext}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `widgets.${fuzzCrdGroup}` },
    spec: {
      group: fuzzCrdGroup, scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] },
      versions: [
        {
          ...crdVersion('v1', true, widgetSchema()),
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.ready' } },
          additionalPrinterColumns: [{ name: 'Mode', type: 'string', jsonPath: '.spec.mode' }, { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
        },
        { ...crdVersion('v1beta1', false, widgetSchema()), subresources: { status: {} } },
      ],
      conversion: { strategy: 'None' },
    },
  } as KubeObject;
}

/** The run's custom resource as a fixture: the generic categories write, patch, select and watch its objects. */
export function widgetFixture(): ResourceFixture {
  return {
    group: fuzzCrdGroup, version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true,
    make: (name, namespace) => ({
      apiVersion: `${fuzzCrdGroup}/v1`, kind: 'Widget', metadata: { name, namespace },
      spec: { replicas: 2, mode: 'on', name: 'web', port: 'http', items: ['a', 'b'], ports: [{ name: 'http', port: 80 }], labels: { a: 'b' }, extra: { any: ['thing'] } },
    }) as KubeObject,
  };
}

/** A CustomResourceDefinition to create or replace: generated schemas, and names, scopes and versions bent. */
export function fuzzCrd(r: Random, names: Names): { name: string; body: Json } {
  const plural = `things${r.int(4)}`;
  const name = r.chance(0.95) ? `${plural}.${fuzzCrdGroup}` : r.pick([`${plural}.nope.example.com`, plural, oddString(r, 80), `widgets.${fuzzCrdGroup}x`]);
  const schema = (): Json => r.weighted<() => Json>([
    [10, () => ({ type: 'object', properties: { spec: randomSchema(r, r.range(1, 4)), status: randomSchema(r, 1) } })],
    [2, () => randomSchema(r, 3)],
    [1, () => ({ type: 'object', properties: { spec: deepSchema(r.pick([50, 100, 126])) } })],
    [1, () => randomJson(r, 3, 10)],
  ])();
  const versions = r.chance(0.8) ? [crdVersion('v1', true, schema())] : [crdVersion('v1', true, schema()), crdVersion(r.pick(['v2', 'v1beta1', 'v1', 'V3', '']), r.chance(0.3), schema())];
  if (r.chance(0.2)) {
    const v = versions[0]!;
    const bend = r.pick(['subresources', 'additionalPrinterColumns', 'selectableFields', 'deprecated', 'served'] as const);
    v[bend] = r.pick<Json>([
      { status: {}, scale: { specReplicasPath: r.pick(['.spec.replicas', 'spec', '.status.x', '']), statusReplicasPath: '.status.replicas', labelSelectorPath: r.pick(['.status.selector', '.spec[0]']) } },
      [{ name: 'Age', type: r.pick(['date', 'string', 'x']), jsonPath: r.pick(['.metadata.creationTimestamp', '{.spec}', '.spec[?(@.x)]', '$..x', '(', '']) }],
      [{ jsonPath: '.spec.x' }], true, 'x', null,
    ]);
  }
  const spec: Record<string, Json> = {
    group: r.chance(0.95) ? fuzzCrdGroup : r.pick(['', 'nodots', `${names.group('apps')}`, 'k8s.io', oddString(r, 40)]),
    scope: r.weighted([[8, 'Namespaced'], [2, 'Cluster'], [1, 'Global']]),
    names: { plural, singular: plural.replace(/s(\d)$/, '$1'), kind: r.chance(0.9) ? `Thing${plural.slice(-1)}` : r.pick(['', 'thing', 'Widget', 'ConfigMap', oddString(r, 30)]) },
    versions,
  };
  if (r.chance(0.1)) spec['conversion'] = r.pick<Json>([{ strategy: 'None' }, { strategy: 'Webhook' }, { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } }, { strategy: 'x' }]);
  if (r.chance(0.05)) spec['preserveUnknownFields'] = r.pick<Json>([true, false, 'x']);
  return { name, body: { apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name }, spec } };
}

/** A schema `levels` objects deep (each level two JSON levels: `properties` and the field). */
function deepSchema(levels: number): Json {
  let s: Json = { type: 'string' };
  for (let i = 0; i < levels; i++) s = { type: 'object', properties: { a: s } };
  return s;
}

/** A Widget of `version`: the fixture's valid shape with a few fields bent to the schema's edges, or none. */
export function fuzzWidget(r: Random, version: string, name: string, namespace: string, depthLimit: number): Json {
  const valid = widgetFixture().make(name, namespace) as unknown as Record<string, Json>;
  const spec = { ...(valid['spec'] as Record<string, Json>) };
  for (let i = r.weighted([[3, 0], [4, 1], [2, 2], [1, 4]]); i > 0; i--) {
    const field = r.pick(['replicas', 'mode', 'name', 'port', 'items', 'ports', 'labels', 'extra', 'created', oddKey(r)]);
    spec[field] = r.weighted<() => Json>([
      [4, () => r.pick<Json>([r.int(600), -1, 1001, 2 ** 53, 'on', 'off', 'x', 'web', 'w-1', '', 80, '80', ['a', 'a'], ['a', 'b'],
        [{ name: 'a', port: 1 }, { name: 'a', port: 2 }], [{ port: 1 }], { a: 'b' }, { a: 1 }, '2024-01-01T00:00:00Z', 'yesterday', null])],
      [2, () => randomJson(r, 3, 12)],
      [1, () => oddString(r, 100)],
      [1, () => oddNumber(r)],
      [0.3, () => nested(r.pick([depthLimit - 8, depthLimit - 2, depthLimit + 5]), r.pick(['object', 'array', 'mixed'] as const))],
      [0.2, () => Array.from({ length: r.pick([51, 1000]) }, (_, k) => `i${k}`)],
    ])();
  }
  const apiVersion = `${fuzzCrdGroup}/${r.chance(0.95) ? version : r.pick(['v1', 'v1beta1', 'v2'])}`;
  const object: Record<string, Json> = { apiVersion, kind: 'Widget', metadata: { name, namespace }, spec };
  if (r.chance(0.2)) object['status'] = { ready: r.pick<Json>([1, -1, 'x', null]), phase: oddString(r, 20) };
  if (r.chance(0.1)) object[oddKey(r)] = randomJson(r, 2, 5);
  return object;
}

/** A webhook entry a server would accept (one that never matches and is never worth failing over). */
function webhook(r: Random, mutating: boolean): Record<string, Json> {
  const hook: Record<string, Json> = {
    name: `hook-${r.int(3)}.fuzz.example.com`, admissionReviewVersions: ['v1'], sideEffects: 'None',
    clientConfig: r.chance(0.5) ? { url: 'https://127.0.0.1:1/never' } : { service: { namespace: 'fuzz', name: 'nowhere', path: '/never' } },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: 'Namespaced' }],
    objectSelector: { matchLabels: { 'fuzz.example.com/never': 'matched' } },
    failurePolicy: 'Ignore', timeoutSeconds: 1,
  };
  if (mutating) hook['reinvocationPolicy'] = 'Never';
  return hook;
}

/** Bends of one webhook field; those on the selector or failure policy are all invalid. */
function bendWebhook(r: Random, hook: Record<string, Json>): void {
  const bends: (() => void)[] = [
    () => { hook['name'] = r.pick(['', 'nodots', 'UPPER.example.com', oddString(r, 300)]); },
    () => { hook['admissionReviewVersions'] = r.pick<Json>([[], ['v9'], ['v1beta1', 'v1'], 'v1', [5], null]); },
    () => { hook['sideEffects'] = r.pick<Json>(['Some', 'Unknown', 'NoneOnDryRun', '', null, 5]); },
    () => { hook['clientConfig'] = r.pick<Json>([{}, { url: '' }, { url: 'http://x/' }, { url: 'https://x/?q=1' }, { url: 'https://x/#f' }, { url: 'https://user@x/' },
      { url: `https://${'h'.repeat(300)}/` }, { url: '://' }, { url: 'https://[::1' }, { url: 'https://x', service: { namespace: 'a', name: 'b' } },
      { service: { name: 'b' } }, { service: { namespace: 'a', name: 'b', port: 0 } }, { service: { namespace: 'a', name: 'b', port: 70000 } },
      { service: { namespace: 'a', name: 'b', path: 'relative' } }, { url: 'https://x/', caBundle: r.pick(['!!', 'LS0tLS1CRUdJTg==', '']) }]); },
    () => { hook['rules'] = r.pick<Json>([[], [{}], [{ operations: ['NOPE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
      [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/*/x'] }], [{ operations: ['CREATE'], apiGroups: ['*', ''], apiVersions: ['v1'], resources: ['pods'], scope: 'Galaxy' }],
      [{ operations: ['CREATE'], apiGroups: [''], apiVersions: [''], resources: [''] }], 'x', null]); },
    () => { hook['objectSelector'] = r.pick<Json>([{ matchExpressions: [{ key: 'a', operator: 'Nope' }] }, { matchLabels: { '': 'x' } },
      { matchExpressions: [{ key: 'a', operator: 'In' }] }, { matchLabels: { 'a/b/c': 'x' } }, 'x']); },
    () => { hook['namespaceSelector'] = r.pick<Json>([{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, { matchLabels: { a: oddString(r, 70) } }, {}, null]); },
    () => { hook['failurePolicy'] = r.pick<Json>(['Fail!', '', 'fail', 5]); },
    () => { hook['timeoutSeconds'] = r.pick<Json>([0, 31, -1, 1.5, 'x', 30]); },
    () => { hook['matchPolicy'] = r.pick<Json>(['Exact', 'Equivalent', 'x', '']); },
    () => { hook['reinvocationPolicy'] = r.pick<Json>(['IfNeeded', 'Never', 'Always', '']); },
    () => { hook['matchConditions'] = r.pick<Json>([[{ name: 'c', expression: 'true' }], [{ name: 'c', expression: '(((' }], [{ name: '', expression: '' }],
      Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })), [{ name: 'c', expression: 'request.x.y' }]]); },
    () => { hook[oddKey(r)] = randomJson(r, 2, 5); },
  ];
  r.pick(bends)();
}

/** A mutating or validating webhook configuration to create, replace or patch. */
export function fuzzWebhookConfiguration(r: Random, names: Names): { resource: string; name: string; body: Json } {
  const mutating = r.chance(0.5);
  const kind = mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  const name = r.chance(0.95) ? `fz-wh-${r.int(3)}` : oddString(r, 80);
  const hooks = Array.from({ length: r.weighted([[8, 1], [2, 2], [1, 0]]) }, () => webhook(r, mutating));
  for (const hook of hooks) if (r.chance(0.7)) bendWebhook(r, hook);
  if (hooks.length === 2 && r.chance(0.5)) hooks[1]!['name'] = hooks[0]!['name']!;
  return {
    resource: mutating ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations',
    name,
    body: { apiVersion: `${names.group('admissionregistration')}/v1`, kind, metadata: { name }, webhooks: hooks },
  };
}
