import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '@svc-apiserver/api';
import { runSteps, runStepsCounted, type Steps } from '../../limits/turn-budget.js';
import { validateValue, validateValueSteps } from './value-validation.js';
import { validateListTypes, validateListTypesSteps } from './list-type-validation.js';
import { applyDefaults, applyDefaultsSteps } from './defaulting.js';
import { prune, pruneSteps } from './pruning.js';

const wide = 20_000;

/** A schema whose map of strings, list of maps and set are checked, defaulted and pruned item by item. */
const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 8 } },
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'],
          items: { type: 'object', properties: { port: { type: 'integer', minimum: 1 }, protocol: { type: 'string', default: 'TCP' } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    },
  },
};

/** A custom object of `n` labels, ports and tags, with a few bad values spread through each. */
function object(n: number): Record<string, unknown> {
  const labels: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) labels[`k${i}`] = i === n - 3 ? 'much-too-long' : `v${i}`;
  labels['bad'] = 7;
  const ports = Array.from({ length: n }, (_, i) => ({ port: i === n - 1 ? 0 : i === n - 2 ? 5 : i + 1, ...(i === 3 ? { extra: 'x' } : {}) }));
  const tags = Array.from({ length: n }, (_, i) => (i === n - 1 ? 't0' : `t${i}`));
  return { apiVersion: 'g/v1', kind: 'Wide', metadata: { name: 'w' }, spec: { labels, ports, tags, unknown: true } };
}

test('schema validation in steps: a wide object yields between steps and gets the errors of one whole walk', () => {
  const value = object(wide);
  const { value: errors, yields } = runStepsCounted(validateValueSteps(schema, value, '', { root: true }));
  assert.ok(yields >= (2 * wide) / 256, `${yields} yields`);
  assert.deepEqual(errors, validateValue(schema, value, '', { root: true }));
  assert.deepEqual(errors.map(fieldErrorMessage), [
    `spec.labels.k${wide - 3}: Too long: may not be longer than 8`,
    'spec.labels.bad: Invalid value: "integer": spec.labels.bad in body must be of type string: "integer"',
    `spec.ports[${wide - 1}].port: Invalid value: 0: spec.ports[${wide - 1}].port in body should be greater than or equal to 1`,
  ]);
  const lists = runStepsCounted(validateListTypesSteps(schema, value));
  assert.ok(lists.yields >= (2 * wide) / 256, `${lists.yields} yields`);
  assert.deepEqual(lists.value, validateListTypes(schema, value));
  assert.deepEqual(lists.value.map(fieldErrorMessage), [
    `spec.ports[${wide - 2}]: Duplicate value: map[string]interface {}{"port":5}`,
    `spec.tags[${wide - 1}]: Duplicate value: "t0"`,
  ]);
});

test('defaulting and pruning in steps change a wide object as the whole walks do', () => {
  const stepped = object(wide);
  const whole = object(wide);
  const defaulted = runStepsCounted(applyDefaultsSteps(schema, stepped));
  applyDefaults(schema, whole);
  assert.ok(defaulted.yields >= wide / 256, `${defaulted.yields} yields`);
  const pruned = runStepsCounted(pruneSteps(schema, stepped, { root: true }));
  assert.ok(pruned.yields >= wide / 256, `${pruned.yields} yields`);
  assert.deepEqual(pruned.value, prune(schema, whole, { root: true }));
  assert.deepEqual(pruned.value, ['spec.ports[3].extra', 'spec.unknown']);
  assert.deepEqual(stepped, whole);
  assert.equal((whole['spec'] as { ports: { protocol?: string }[] }).ports[wide - 1]!.protocol, 'TCP');
});

test('a small object is walked without a single point to yield', () => {
  const value = object(100);
  for (const steps of [
    validateValueSteps(schema, value, '', { root: true }), validateListTypesSteps(schema, value),
    applyDefaultsSteps(schema, structuredClone(value)), pruneSteps(schema, structuredClone(value), { root: true }),
  ] as Steps<unknown>[]) {
    assert.equal(runStepsCounted(steps).yields, 0);
  }
  assert.deepEqual(runSteps(validateValueSteps(schema, value, '', { root: true })), validateValue(schema, value, '', { root: true }));
});

test('a map that keeps unknown fields and has no schema below it is not listed, whatever its size', () => {
  const preserving = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } };
  const spec: Record<string, unknown> = {};
  for (let i = 0; i < wide; i++) spec[`k${i}`] = { nested: null };
  const value = { apiVersion: 'g/v1', kind: 'Blob', metadata: { name: 'b' }, spec };
  assert.deepEqual(runStepsCounted(validateValueSteps(preserving, value, '', { root: true })), { value: [], yields: 0 });
  assert.deepEqual(runStepsCounted(validateListTypesSteps(preserving, value)), { value: [], yields: 0 });
  assert.deepEqual(runStepsCounted(applyDefaultsSteps(preserving, value)), { value: undefined, yields: 0 });
  assert.deepEqual(runStepsCounted(pruneSteps(preserving, value, { root: true })), { value: [], yields: 0 });
  assert.deepEqual(spec['k0'], { nested: null });
});
