import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downwardApiFileErrors, envFieldPaths, localNonReservedPath, objectFieldSelectorErrors, resourceFieldSelectorErrors, volumeFieldPaths } from './volume-paths.js';

const details = (errs: { field: string; detail: string }[]): string[] => errs.map((e) => `${e.field}: ${e.detail}`);

test('downward API field paths: conversion of v1 labels (spec.host is spec.nodeName), subscripts only on labels and annotations', () => {
  assert.deepEqual(objectFieldSelectorErrors({ apiVersion: 'v1', fieldPath: 'spec.host' }, envFieldPaths, 'f'), []);
  assert.deepEqual(details(objectFieldSelectorErrors({ apiVersion: 'v2', fieldPath: 'metadata.name' }, envFieldPaths, 'f')), ['f.fieldPath: error converting fieldPath: unsupported pod version: v2']);
  assert.deepEqual(details(objectFieldSelectorErrors({ apiVersion: 'v1', fieldPath: 'metadata.name[\'x\']' }, envFieldPaths, 'f')), ["f.fieldPath: error converting fieldPath: field label does not support subscript: metadata.name['x']"]);
  assert.deepEqual(details(objectFieldSelectorErrors({ apiVersion: 'v1', fieldPath: 'status.reason' }, envFieldPaths, 'f')), ['f.fieldPath: error converting fieldPath: field label not supported: status.reason']);
  assert.deepEqual(objectFieldSelectorErrors({ apiVersion: 'v1', fieldPath: "metadata.labels['app']" }, envFieldPaths, 'f'), []);
  assert.equal(objectFieldSelectorErrors({ apiVersion: 'v1', fieldPath: "metadata.labels['bad key!']" }, envFieldPaths, 'f')[0]?.field, 'f', 'a bad subscript is reported at the selector');
  assert.equal(objectFieldSelectorErrors({ apiVersion: 'v1', fieldPath: 'spec.nodeName' }, volumeFieldPaths, 'f')[0]?.type, 'FieldValueNotSupported');
  assert.deepEqual(details(objectFieldSelectorErrors({ fieldPath: 'metadata.name' }, envFieldPaths, 'f')), ['f.apiVersion: '], 'apiVersion first');
});

test('resource field selectors: a volume file names its container; divisors by resource', () => {
  assert.deepEqual(details(resourceFieldSelectorErrors({ resource: 'limits.cpu' }, 'r', true)), ['r.containerName: ']);
  assert.deepEqual(resourceFieldSelectorErrors({ resource: 'limits.cpu', divisor: '1m' }, 'r', false), []);
  assert.deepEqual(details(resourceFieldSelectorErrors({ resource: 'limits.cpu', divisor: '2' }, 'r', false)), ["r.divisor: only divisor's values 1m and 1 are supported with the cpu resource"]);
  assert.deepEqual(resourceFieldSelectorErrors({ resource: 'requests.memory', divisor: '1024Ki' }, 'r', false), [], '1024Ki is 1Mi');
  assert.deepEqual(resourceFieldSelectorErrors({ resource: 'limits.hugepages-2Mi', divisor: '1Mi' }, 'r', false), []);
  assert.equal(resourceFieldSelectorErrors({ resource: 'limits.gpu' }, 'r', false)[0]?.type, 'FieldValueNotSupported');
});

test('local paths and downward API files (reported at the volume, not the item)', () => {
  assert.deepEqual(localNonReservedPath('..data', 'p').map((e) => e.detail), ["must not start with '..'"]);
  assert.deepEqual(localNonReservedPath('../x', 'p').map((e) => e.detail), ["must not contain '..'"]);
  assert.deepEqual(localNonReservedPath('/x', 'p').map((e) => e.detail), ['must be a relative path']);
  assert.deepEqual(details(downwardApiFileErrors({ path: 'f' }, 'v.downwardAPI')), ['v.downwardAPI: one of fieldRef and resourceFieldRef is required']);
  assert.deepEqual(details(downwardApiFileErrors({ path: 'f', mode: 0o1000, fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }, 'v.downwardAPI')),
    ['v.downwardAPI.mode: must be a number between 0 and 0777 (octal), both inclusive']);
});
