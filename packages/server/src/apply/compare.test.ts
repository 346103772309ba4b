import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runStepsCounted } from '../limits/turn-budget.js';
import { indexItemsSteps, itemsPerStep } from './compare.js';
import type { ListKind } from './schema-view.js';

test('a long associative list is indexed by key element in steps, the first of duplicates winning', () => {
  const kind: ListKind = { kind: 'map', keys: ['name'], keyDefaults: {} };
  const items = Array.from({ length: 20_000 }, (_, i) => ({ name: `E${i % 15_000}`, value: `${i}` }));
  const { value, yields } = runStepsCounted(indexItemsSteps(items, kind));
  assert.equal(value.size, 15_000);
  assert.deepEqual(value.get('k:{"name":"E3"}'), { name: 'E3', value: '3' });
  assert.deepEqual(value.get('k:{"name":"E14999"}'), { name: 'E14999', value: '14999' });
  assert.equal(yields, Math.floor((20_000 - 1) / itemsPerStep));
  assert.equal(runStepsCounted(indexItemsSteps(items.slice(0, itemsPerStep), kind)).yields, 0);
});
