import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldError, invalid } from './field-error.js';

test('an Invalid Status keeps every cause but shows a repeated error once in its message, as kube aggregates them', () => {
  const twice = fieldError.invalid('metadata.annotations[a]', 'x', 'bad');
  const status = invalid('Pod', { group: '', resource: 'pods' }, 'p', [twice, fieldError.forbidden('metadata.annotations[a]', 'no'), twice]);
  assert.equal(status.message, 'Pod "p" is invalid: [metadata.annotations[a]: Invalid value: "x": bad, metadata.annotations[a]: Forbidden: no]');
  assert.equal(status.details?.causes?.length, 3);
  const once = invalid('Pod', { group: '', resource: 'pods' }, 'p', [twice, twice]);
  assert.equal(once.message, 'Pod "p" is invalid: metadata.annotations[a]: Invalid value: "x": bad');
});
