import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalQuantityText, containerResourceNameErrors, isIntegerResource, isOvercommitAllowed, resourceRequirementsErrors } from './resource-names.js';

const fields = (errs: { field: string }[]): string[] => errs.map((e) => e.field).sort();

test('quantities are stored as kube serializes them: canonical form, rounded up to milli-units away from zero', () => {
  assert.equal(canonicalQuantityText('0.5'), '500m');
  assert.equal(canonicalQuantityText('1000m'), '1');
  assert.equal(canonicalQuantityText('1.5Gi'), '1536Mi');
  assert.equal(canonicalQuantityText('0.5Gi'), '512Mi');
  assert.equal(canonicalQuantityText('0.0001'), '1m');
  assert.equal(canonicalQuantityText('-0.0001'), '-1m');
  assert.equal(canonicalQuantityText('1e3'), '1e3');
  assert.equal(canonicalQuantityText(2), '2');
  assert.equal(canonicalQuantityText('abc'), undefined);
});

test('resource names: integer, overcommitable, and container names (both messages of an unknown name)', () => {
  assert.ok(isIntegerResource('pods') && isIntegerResource('example.com/gpu') && isIntegerResource('count/widgets.example.com'));
  assert.ok(!isIntegerResource('cpu') && !isIntegerResource('hugepages-2Mi') && !isIntegerResource('kubernetes.io/foo'));
  assert.ok(isOvercommitAllowed('cpu') && !isOvercommitAllowed('hugepages-1Gi') && !isOvercommitAllowed('example.com/gpu'));
  assert.deepEqual(containerResourceNameErrors('foo', 'r').map((e) => e.detail), ['must be a standard resource type or fully qualified', 'must be a standard resource for containers']);
  assert.deepEqual(containerResourceNameErrors('pods', 'r').map((e) => e.detail), ['must be a standard resource for containers']);
  assert.deepEqual(containerResourceNameErrors('example.com/gpu', 'r'), []);
});

test('ValidateResourceRequirements: requests within limits, equal for extended resources, whole huge pages beside cpu or memory', () => {
  const strict = { allowIndivisibleHugePages: false };
  assert.deepEqual(resourceRequirementsErrors({ limits: { cpu: '1' }, requests: { cpu: '1500m' } }, 'r', strict).map((e) => e.detail), ['must be less than or equal to cpu limit of 1']);
  assert.deepEqual(fields(resourceRequirementsErrors({ limits: { 'example.com/gpu': '2' }, requests: { 'example.com/gpu': '1' } }, 'r', strict)), ['r.requests']);
  assert.deepEqual(fields(resourceRequirementsErrors({ requests: { 'example.com/gpu': '1' } }, 'r', strict)), ['r.limits']);
  assert.deepEqual(fields(resourceRequirementsErrors({ limits: { 'example.com/gpu': '0.5' } }, 'r', strict)), ['r.limits[example.com/gpu]'], 'extended resources are whole');
  const pages = { limits: { 'hugepages-2Mi': '3Mi' }, requests: { 'hugepages-2Mi': '3Mi' } };
  assert.deepEqual(fields(resourceRequirementsErrors(pages, 'r', strict)), ['r', 'r.limits[hugepages-2Mi]', 'r.requests[hugepages-2Mi]']);
  assert.deepEqual(fields(resourceRequirementsErrors(pages, 'r', { allowIndivisibleHugePages: true })), ['r'], 'an old pod keeps its indivisible values');
  assert.deepEqual(resourceRequirementsErrors({ limits: { memory: '1Gi', 'hugepages-2Mi': '4Mi' }, requests: { 'hugepages-2Mi': '4Mi' } }, 'r', strict), []);
  assert.deepEqual(resourceRequirementsErrors({ requests: { memory: '-1' } }, 'r', strict).map((e) => e.detail), ['must be greater than or equal to 0']);
});
