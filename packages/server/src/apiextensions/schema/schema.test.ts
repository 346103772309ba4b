import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '@svc-apiserver/api';
import { validateValue } from './value-validation.js';
import { prune } from './pruning.js';
import { applyDefaults } from './defaulting.js';
import { validateSchema } from './schema-validation.js';
import { validateListTypes } from './list-type-validation.js';

const messages = (errors: readonly Parameters<typeof fieldErrorMessage>[0][]) => errors.map(fieldErrorMessage);

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
        count: { type: 'integer', minimum: 1, maximum: 3 },
        ratio: { type: 'number', exclusiveMaximum: true, maximum: 1, multipleOf: 0.25 },
        mode: { type: 'string', enum: ['a', 'b'] },
        port: { 'x-kubernetes-int-or-string': true },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', maxItems: 2, minItems: 1, items: { type: 'string' } },
        labels: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
        note: { type: 'string', nullable: true },
        either: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, anyOf: [{ required: ['x'] }, { required: ['y'] }] },
      },
    },
  },
};

test('values are validated with kube-openapi messages and Kubernetes field paths', () => {
  const ok = validateValue(schema, { spec: { name: 'ab', count: 2, ratio: 0.5, mode: 'a', port: 'http', when: '2024-01-02T03:04:05Z', tags: ['t'], labels: { a: 'b' }, note: null, either: { y: 'z' } } }, '', { root: true });
  assert.deepEqual(ok, []);
  const bad = validateValue(schema, {
    apiVersion: 'x/v1', kind: 'K', metadata: { name: 'n', anything: 1 },
    spec: { name: 'ABCDEFG', count: 5, ratio: 1, mode: 'c', port: true, when: 'yesterday', tags: [], labels: { a: '1', b: '2' }, either: {} },
  }, '', { root: true });
  assert.deepEqual(messages(bad), [
    'spec.name: Too long: may not be longer than 5',
    "spec.name: Invalid value: \"ABCDEFG\": spec.name in body should match '^[a-z]+$'",
    'spec.count: Invalid value: 5: spec.count in body should be less than or equal to 3',
    'spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1',
    'spec.mode: Unsupported value: "c": supported values: "a", "b"',
    // kube-openapi's type errors report the JSON type the value has as the bad value.
    'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
    // Lists and maps print as Go's %#v of the decoded values.
    'spec.tags: Invalid value: []interface {}{}: spec.tags in body should have at least 1 items',
    'spec.labels: Too many: 2: must have at most 1 items',
    'spec.either.x: Required value',
    'spec.either: Invalid value: map[string]interface {}{}: spec.either in body must validate at least one schema (anyOf)',
  ]);
  assert.deepEqual(messages(validateValue(schema, { spec: { count: 'x', note: 'n' } }, '', { root: true })), [
    'spec.name: Required value',
    'spec.count: Invalid value: "string": spec.count in body must be of type integer: "string"',
  ]);
  assert.deepEqual(messages(validateValue(schema, { spec: { name: 'ab', mode: null } }, '', { root: true })), [
    'spec.mode: Invalid value: "null": spec.mode in body must be of type string: "null"',
  ]);
});

test('set and map lists: duplicates reported by value and by key', () => {
  const lists = {
    type: 'object', properties: {
      set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      map: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto'], items: { type: 'object', properties: { name: { type: 'string' }, proto: { type: 'string' } } } },
    },
  };
  // A value repeated three times is reported once, at its second occurrence, as kube's validateListSet does.
  assert.deepEqual(messages(validateListTypes(lists, { set: ['a', 'b', 'a', 'a'], map: [{ name: 'x', proto: 'TCP' }, { name: 'x', proto: 'UDP' }, { proto: 'TCP', name: 'x' }] })), [
    'set[2]: Duplicate value: "a"',
    'map[2]: Duplicate value: map[string]interface {}{"name":"x", "proto":"TCP"}',
  ]);
  // Items are told apart by their decoded value, whatever the order of their keys.
  const objects = { type: 'object', properties: { set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'atomic' } } } };
  assert.deepEqual(messages(validateListTypes(objects, { set: [{ a: 1, b: [1.5, 'x'] }, { b: [1.5, 'x'], a: 1 }] })), [
    'set[1]: Duplicate value: map[string]interface {}{"a":1, "b":[]interface {}{1.5, "x"}}',
  ]);
  // A map list takes objects only; a missing key field is an unspecified key.
  assert.deepEqual(messages(validateListTypes(lists, { map: [{ name: 'x', proto: 'TCP' }, 7] })), [
    'map[1]: Invalid value: 7: must be an object for an array of list-type map',
  ]);
  assert.deepEqual(messages(validateListTypes(lists, { map: [{}, null] })), ['map[1]: Duplicate value: map[string]interface {}{}']);
});

test('pruning drops unspecified fields, keeps preserved subtrees and the type meta of embedded resources', () => {
  const s = {
    type: 'object', properties: {
      spec: {
        type: 'object', properties: {
          keep: { type: 'string' },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { typed: { type: 'object', properties: { a: { type: 'string' } } } } },
          items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
          map: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } },
          embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
        },
      },
    },
  };
  const o: Record<string, any> = {
    apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, status: { x: 1 },
    spec: {
      keep: 'k', drop: 1, free: { anything: [1], typed: { a: 'a', b: 'b' } }, items: [{ n: 1, m: 2 }], map: { one: { v: 'v', w: 'w' } },
      embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {}, junk: true },
    },
  };
  assert.deepEqual(prune(s, o, { root: true }).sort(), ['spec.drop', 'spec.embedded.junk', 'spec.free.typed.b', 'spec.items[0].m', 'spec.map.one.w', 'status'].sort());
  assert.deepEqual(o['spec'], {
    keep: 'k', free: { anything: [1], typed: { a: 'a' } }, items: [{ n: 1 }], map: { one: { v: 'v' } },
    embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} },
  });
  assert.deepEqual(o['metadata'], { name: 'n' });
});

test('defaulting: missing fields and nulls of non-nullable fields get defaults, nested too; other nulls go', () => {
  const s = {
    type: 'object', properties: {
      spec: {
        type: 'object', default: {}, properties: {
          replicas: { type: 'integer', default: 1 },
          nested: { type: 'object', default: { a: 'x' }, properties: { a: { type: 'string' }, b: { type: 'string', default: 'y' } } },
          gone: { type: 'string' },
          kept: { type: 'string', nullable: true },
          list: { type: 'array', items: { type: 'object', properties: { p: { type: 'integer', default: 80 } } } },
        },
      },
    },
  };
  const o: Record<string, any> = { spec: { gone: null, kept: null, list: [{}, { p: 1 }] } };
  applyDefaults(s, o);
  assert.deepEqual(o, { spec: { replicas: 1, nested: { a: 'x', b: 'y' }, kept: null, list: [{ p: 80 }, { p: 1 }] } });
  const empty: Record<string, any> = {};
  applyDefaults(s, empty);
  assert.deepEqual(empty, { spec: { replicas: 1, nested: { a: 'x', b: 'y' } } });
});

test('structural schema rules with kube messages', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';
  const check = (s: Record<string, unknown>) => messages(validateSchema(s, at));
  assert.deepEqual(check({ type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } }), [
    `${at}.properties[spec].type: Required value: must not be empty for specified object fields`,
  ]);
  assert.deepEqual(check({ type: 'array', items: { type: 'string' } }), [`${at}.type: Invalid value: "array": must be object at the root`]);
  assert.deepEqual(check({ properties: {} }), [`${at}.type: Required value: must not be empty at the root`]);
  assert.deepEqual(check({ type: 'object', properties: { a: { type: 'array', items: { properties: {} } } } }), [
    `${at}.properties[a].items.type: Required value: must not be empty for specified array items`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } } } }), [
    `${at}.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }), [
    `${at}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { a: { type: 'string', 'x-kubernetes-preserve-unknown-fields': false, 'x-kubernetes-list-type': 'set' } } }), [
    `${at}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    `${at}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { v: { type: 'string' } } } } } }), [
    `${at}.properties[l].x-kubernetes-list-map-keys: Invalid value: ["k"]: entries must all be names of item properties`,
  ]);
  // Only the exact int-or-string idiom may carry types in a value validation.
  assert.deepEqual(check({ type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'integer', description: 'd' }] } } }), [
    `${at}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${at}.properties[a].anyOf[0].description: Forbidden: must be empty to be structural`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: {
    a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    b: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+%?$' }] },
    // Preserving unknown fields, a node needs no type.
    c: { 'x-kubernetes-preserve-unknown-fields': true },
  } }), []);
  // Each keyword with kube's word; a value validation's items and properties are value validations too, and may not
  // name metadata.
  assert.deepEqual(check({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, allOf: [{
    nullable: true, default: 'x', 'x-kubernetes-list-type': 'set', 'x-kubernetes-validations': [{ rule: 'true' }], 'x-kubernetes-embedded-resource': false,
    items: { maxLength: 3, title: 't' },
  }] }, o: { type: 'object', not: { properties: { metadata: { maxProperties: 1 } } } } } }), [
    // The list type's own rule holds in value validations too, as ValidateCustomResourceDefinitionOpenAPISchema recurses.
    `${at}.properties[a].allOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`,
    `${at}.properties[a].allOf[0].items.title: Forbidden: must be empty to be structural`,
    `${at}.properties[a].allOf[0].default: Forbidden: must be undefined to be structural`,
    `${at}.properties[a].allOf[0].nullable: Forbidden: must be false to be structural`,
    `${at}.properties[a].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
    `${at}.properties[a].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
    `${at}.properties[o].not.properties[metadata]: Forbidden: must not be specified in a nested context`,
  ]);
  assert.deepEqual(check({ type: 'object', additionalProperties: { type: 'string' } }), [
    `${at}.additionalProperties: Forbidden: must not be used at the root`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { a: { type: 'integer', default: 'one' } } }), [
    `${at}.properties[a].default: Invalid value: "string": must be of type integer: "string"`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, default: { b: 'x', c: 'y' } } } }), [
    `${at}.properties[a].default: Invalid value: {"b":"x","c":"y"}: must not have unknown fields`,
  ]);
  assert.deepEqual(check({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true }, b: { type: 'object', 'x-kubernetes-embedded-resource': true } } }), [
    `${at}.properties[b].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
  ]);
});
