import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesFields, parseFieldSelector } from './field-selector.js';

test('parses =, == and != terms with escapes, and matches', () => {
  const p = parseFieldSelector('metadata.name=a\\,b,status.phase!=Running,spec.x==y');
  assert.ok(p.ok);
  assert.deepEqual(p.value.requirements, [
    { field: 'metadata.name', operator: 'equals', value: 'a,b' },
    { field: 'status.phase', operator: 'notEquals', value: 'Running' },
    { field: 'spec.x', operator: 'equals', value: 'y' },
  ]);
  assert.equal(matchesFields(p.value, { 'metadata.name': 'a,b', 'status.phase': 'Pending', 'spec.x': 'y' }), true);
  assert.equal(matchesFields(p.value, { 'metadata.name': 'a,b', 'status.phase': 'Running', 'spec.x': 'y' }), false);
  assert.equal(parseFieldSelector('nonsense').ok, false);
  assert.equal(parseFieldSelector('a=\\q').ok, false);
});
