/**
 * Seeded fuzzing of the CRD input surface: malformed, deep and huge CRD schemas through the CRD strategy (defaults,
 * validation) and the building of served resources, and malformed, deep and huge custom objects through pruning,
 * defaulting and validation against them. No input may throw, and none may take long.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { customResourceDefinitionStrategy } from '../registry/resources/customresourcedefinitions.js';
import { customResourceDefs } from '../registry/custom-resources/custom-resource-def.js';
import type { CustomResourceDefinition } from './crd.js';
import { seededRandom } from '../testing/seeded-random.js';

const names = namesFor('svc');
const crdStrategy = customResourceDefinitionStrategy(names);


const keywords = [
  'type', 'properties', 'items', 'additionalProperties', 'required', 'enum', 'default', 'nullable', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'minProperties', 'maxProperties', 'uniqueItems', 'allOf', 'anyOf', 'oneOf', 'not', '$ref', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type', 'description',
];
const types = ['object', 'array', 'string', 'integer', 'number', 'boolean', '', 'null', 'bogus'];

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * 9);
  if (depth > 6) return k % 2 === 0 ? 'x' : 1;
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return Math.floor(r() * 2000) - 1000;
    case 3: return r() * 10;
    case 4: return ['', 'a', '(((', '[', '^(a+)+$', 'date-time', 'x'.repeat(50)][Math.floor(r() * 7)];
    case 5: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(r() * 4); i++) o[['a', 'b', 'spec', 'status', 'metadata', 'name'][Math.floor(r() * 6)]!] = randomValue(r, depth + 1);
      return o;
    }
  }
}

function randomSchema(r: () => number, depth: number): unknown {
  if (depth > 5 || r() < 0.1) return randomValue(r, depth);
  const s: Record<string, unknown> = {};
  const n = 1 + Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    const key = keywords[Math.floor(r() * keywords.length)]!;
    switch (key) {
      case 'type': s[key] = types[Math.floor(r() * types.length)]; break;
      case 'properties': {
        const props: Record<string, unknown> = {};
        for (let j = 0; j < Math.floor(r() * 4); j++) props[['spec', 'status', 'metadata', 'a', 'b'][Math.floor(r() * 5)]!] = randomSchema(r, depth + 1);
        s[key] = props;
        break;
      }
      case 'items': case 'additionalProperties': case 'not': s[key] = randomSchema(r, depth + 1); break;
      case 'allOf': case 'anyOf': case 'oneOf': s[key] = [randomSchema(r, depth + 1), randomSchema(r, depth + 1)]; break;
      default: s[key] = randomValue(r, depth + 1);
    }
  }
  return s;
}

/** A schema nested `depth` levels deep. */
function deepSchema(depth: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) s = { type: 'object', properties: { a: s } };
  return s;
}

/** An object nested `depth` levels deep. */
function deepObject(depth: number): unknown {
  let o: unknown = 'leaf';
  for (let i = 0; i < depth; i++) o = { a: o, b: [o === 'leaf' ? 1 : {}] };
  return o;
}

function crdWith(schema: unknown, extra: Record<string, unknown> = {}): CustomResourceDefinition {
  return {
    apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name: 'things.fuzz.example.com' },
    spec: {
      group: 'fuzz.example.com', scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema as Record<string, unknown> }, subresources: { status: {}, scale: { specReplicasPath: '.spec.a', statusReplicasPath: '.status.a' } } }],
      ...extra,
    },
  } as CustomResourceDefinition;
}

/** Runs a CRD through the strategy and, when valid, objects through its served resource; asserts no throw. */
function exercise(crd: CustomResourceDefinition, objects: readonly unknown[]): void {
  const copy = structuredClone(crd) as KubeObject;
  crdStrategy.defaults?.(copy);
  crdStrategy.prepareForCreate(copy);
  const errors = crdStrategy.validate(copy);
  assert.ok(Array.isArray(errors));
  const served = { ...copy, status: { ...(copy.status as object), conditions: [{ type: 'Established', status: 'True' }] } } as CustomResourceDefinition;
  for (const def of customResourceDefs(served, names)) {
    for (const o of objects) {
      const object = structuredClone(o) as KubeObject;
      if (typeof object !== 'object' || object === null || Array.isArray(object)) continue;
      def.custom!.prune(object);
      def.custom!.applyDefaults(object);
      def.strategy.defaults?.(object);
      def.strategy.prepareForCreate(object);
      assert.ok(Array.isArray(def.strategy.validate(object)));
      assert.ok(Array.isArray(def.strategy.validateUpdate(object, object)));
    }
  }
}

test('random CRD schemas and custom objects: no throw, no long run', () => {
  const started = Date.now();
  for (let seed = 1; seed <= 400; seed++) {
    const r = seededRandom(seed);
    const schema = randomSchema(r, 0);
    const objects = Array.from({ length: 3 }, () => ({ apiVersion: 'fuzz.example.com/v1', kind: 'Thing', metadata: { name: 'x' }, ...(randomValue(r, 0) as object) }));
    try {
      exercise(crdWith(schema), objects);
      exercise(crdWith({ type: 'object', properties: { spec: schema } }), objects);
    } catch (e) {
      assert.fail(`seed ${seed}: ${(e as Error).stack}`);
    }
  }
  assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
});

test('malformed CRDs: wrong shapes everywhere answer field errors', () => {
  const shapes: unknown[] = [null, 1, 'x', [], {}, { versions: 'v1' }, { names: [] }];
  for (const spec of shapes) {
    const crd = { apiVersion: 'x', kind: 'CustomResourceDefinition', metadata: { name: 'x' }, spec } as unknown as KubeObject;
    crdStrategy.defaults?.(crd);
    crdStrategy.prepareForCreate(crd);
    assert.ok(crdStrategy.validate(crd).length > 0, JSON.stringify(spec));
    assert.deepEqual(customResourceDefs(crd as CustomResourceDefinition, names).length, 0);
  }
  exercise(crdWith({ type: 'object' }, { versions: [{ name: 'v1', served: true, storage: true, schema: 'nope', additionalPrinterColumns: 'x' }, 7] }), [{}]);
  exercise(crdWith({ type: 'object', properties: { spec: { type: 'object', properties: { p: { type: 'string', pattern: '(((' } } } } }), [{ spec: { p: 'x' } }]);
});

test('deep and huge schemas and objects stop at the depth limit', () => {
  const started = Date.now();
  // Deeper than the walks go (256) and as deep as the body decoder lets through to the registry.
  exercise(crdWith(deepSchema(600)), [deepObject(600), { a: deepObject(500) }]);
  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 20_000; i++) wide[`p${i}`] = { type: 'integer', default: i, maximum: 10 };
  const big: Record<string, unknown> = {};
  for (let i = 0; i < 20_000; i++) big[`p${i}`] = i;
  exercise(crdWith({ type: 'object', properties: { spec: { type: 'object', properties: wide } } }), [{ spec: big }, { spec: { list: new Array(50_000).fill('x') } }]);
  const longPattern = { type: 'object', properties: { spec: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } } } };
  exercise(crdWith(longPattern), [{ spec: { s: `${'a'.repeat(100_000)}!` } }]);
  assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
});
