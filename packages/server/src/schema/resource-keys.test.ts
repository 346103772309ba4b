import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generatedResources } from './generated-data.js';
import { builtinResourceKeys, entryFor, groupResourceKey, resourceKey, type ResourceTable } from './resource-keys.js';

test('the typed keys are exactly the generated built-in resources, in order', () => {
  const generated = generatedResources().groupVersions.flatMap((gv) => gv.resources.map((r) => resourceKey(gv.groupKey, gv.version, r.resource)));
  assert.deepEqual([...builtinResourceKeys], generated);
});

test('a table entry for a version wins over the group-resource entry', () => {
  const table: ResourceTable<string> = { 'autoscaling/horizontalpodautoscalers': 'any', 'autoscaling/v1/horizontalpodautoscalers': 'v1', 'core/pods': 'pods' };
  assert.equal(entryFor(table, 'autoscaling', 'v1', 'horizontalpodautoscalers'), 'v1');
  assert.equal(entryFor(table, 'autoscaling', 'v2', 'horizontalpodautoscalers'), 'any');
  assert.equal(entryFor(table, '', 'v1', 'pods'), 'pods');
  assert.equal(entryFor(table, '', 'v1', 'configmaps'), undefined);
  assert.equal(groupResourceKey('', 'pods'), 'core/pods');
});
