import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onlyGcFieldsChanged } from './gc-fields.js';

test('only garbage-collection fields changed: semantic comparison', () => {
  const a = { metadata: { name: 'x', resourceVersion: '1' }, rules: [{ verbs: ['get'] }] };
  assert.ok(onlyGcFieldsChanged({ metadata: { name: 'x', ownerReferences: [] }, rules: [{ verbs: ['get'] }] }, a));
  assert.ok(onlyGcFieldsChanged({ metadata: { name: 'x', labels: {} }, rules: [{ verbs: ['get'] }], aggregationRule: null }, a));
  assert.ok(!onlyGcFieldsChanged({ metadata: { name: 'x' }, rules: [{ verbs: ['get', 'list'] }] }, a));
  assert.ok(onlyGcFieldsChanged({ metadata: { name: 'x', finalizers: ['f'], uid: 'u' }, rules: [{ verbs: ['get'] }] }, a));
  assert.ok(!onlyGcFieldsChanged({ metadata: { name: 'x', annotations: { k: 'v' } }, rules: [{ verbs: ['get'] }] }, a));
});
