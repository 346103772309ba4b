import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alreadyExists, conflict, failure, notFound, optimisticLockMessage, statusReasonCodes } from './status.js';
import { fieldError, invalid } from './field-error.js';

test('every reason maps to its HTTP code', () => {
  assert.equal(statusReasonCodes.NotFound, 404);
  assert.equal(statusReasonCodes.Invalid, 422);
  assert.equal(statusReasonCodes.RequestEntityTooLarge, 413);
  assert.equal(failure('Unknown', 'x').reason, '');
});

test('messages follow kube-apiserver wording', () => {
  assert.equal(notFound({ group: '', resource: 'configmaps' }, 'x').message, 'configmaps "x" not found');
  assert.equal(notFound({ group: 'apps', resource: 'deployments' }, 'd').message, 'deployments.apps "d" not found');
  assert.deepEqual(alreadyExists({ group: '', resource: 'pods' }, 'p').details, { name: 'p', kind: 'pods' });
  assert.deepEqual(notFound({ group: 'apps', resource: 'deployments' }, 'd').details, { name: 'd', group: 'apps', kind: 'deployments' });
  assert.equal(
    conflict({ group: '', resource: 'configmaps' }, 'x', optimisticLockMessage).message,
    'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again',
  );
});

test('invalid lists one error bare and several in brackets, with causes per field', () => {
  const qr = { group: '', resource: 'configmaps' };
  const one = invalid('ConfigMap', qr, 'Bad', [fieldError.invalid('metadata.name', 'Bad', 'must be lowercase')]);
  assert.equal(one.code, 422);
  assert.equal(one.message, 'ConfigMap "Bad" is invalid: metadata.name: Invalid value: "Bad": must be lowercase');
  assert.deepEqual(one.details?.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Bad": must be lowercase', field: 'metadata.name' }]);
  const two = invalid('Pod', qr, 'p', [fieldError.required('spec.containers'), fieldError.tooLong('metadata.name', 63)]);
  assert.equal(two.message, 'Pod "p" is invalid: [spec.containers: Required value, metadata.name: Too long: must have at most 63 bytes]');
  const grouped = invalid('Deployment', { group: 'apps', resource: 'deployments' }, 'd', [fieldError.required('spec.selector')]);
  assert.equal(grouped.message, 'Deployment.apps "d" is invalid: spec.selector: Required value');
  assert.deepEqual({ kind: grouped.details?.kind, group: grouped.details?.group }, { kind: 'Deployment', group: 'apps' });
});
