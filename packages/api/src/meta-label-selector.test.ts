import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelSelectorFromMeta } from './meta-label-selector.js';
import { ok } from './result.js';

test('selectors of any shape storage may hold are converted or refused, never thrown on', () => {
  const odd: unknown[] = [
    5, 'x', [], { matchLabels: [] }, { matchLabels: { a: 5 } }, { matchExpressions: 'x' }, { matchExpressions: [null] },
    { matchExpressions: [{ key: 5, operator: 'In', values: ['a'] }] }, { matchExpressions: [{ key: 'a', operator: 'In', values: 'a' }] },
  ];
  for (const s of odd) {
    const r = labelSelectorFromMeta(s as never);
    assert.equal(r.ok, false, JSON.stringify(s));
  }
  const fine = labelSelectorFromMeta({ matchLabels: { b: 'x' }, matchExpressions: [{ key: 'a', operator: 'Exists' }] });
  assert.ok(fine.ok);
  assert.deepEqual(fine.value, { requirements: [{ key: 'a', operator: 'exists', values: [] }, { key: 'b', operator: 'equals', values: ['x'] }] });
  assert.deepEqual(labelSelectorFromMeta(null), ok('nothing'));
});
