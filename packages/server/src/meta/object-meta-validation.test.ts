import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorMessage } from '@svc-apiserver/api';
import { checkName } from './name-rules.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta-validation.js';

const messages = (errs: ReturnType<typeof validateObjectMeta>) => errs.map(fieldErrorMessage);

test('name rules with kube-apiserver messages', () => {
  assert.deepEqual(checkName('dns1123Subdomain', 'a.b-c', false), []);
  assert.deepEqual(checkName('dns1123Label', 'a.b', false), [
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  ]);
  assert.equal(checkName('dns1035Label', '1a', false).length, 1);
  assert.deepEqual(checkName('dns1123Subdomain', 'prefix-', true), [], 'generateName may end in -');
  assert.equal(checkName('dns1123Subdomain', 'prefix-', false).length, 1);
  assert.deepEqual(checkName('dns1123Label', 'x'.repeat(64), false), ['must be no more than 63 characters']);
});

test('labels, annotations, finalizers and namespace are validated at kube\'s paths', () => {
  const errs = validateObjectMeta({
    name: 'ok', namespace: 'ns', labels: { 'bad key': 'v', k: 'bad value' }, annotations: { a: 'x'.repeat(256 * 1024) }, finalizers: ['a/b/c'],
  }, { namespaced: true, nameRule: 'dns1123Subdomain' });
  const m = messages(errs);
  assert.equal(errs.length, 4);
  assert.match(m[0]!, /^metadata\.labels: Invalid value: "bad key": name part must consist of alphanumeric characters/);
  assert.match(m[1]!, /^metadata\.labels: Invalid value: "bad value": a valid label must be an empty string or consist of/);
  assert.equal(m[2], 'metadata.annotations: Too long: must have at most 262144 bytes');
  assert.match(m[3]!, /^metadata\.finalizers: Invalid value: "a\/b\/c": a qualified name must consist of/);
  assert.deepEqual(messages(validateObjectMeta({ name: 'x' }, { namespaced: true, nameRule: 'dns1123Subdomain' })), ['metadata.namespace: Required value']);
  assert.deepEqual(messages(validateObjectMeta({ name: 'x', namespace: 'n' }, { namespaced: false, nameRule: 'dns1123Subdomain' })), ['metadata.namespace: Forbidden: not allowed on this type']);
});

test('updates: identity fields immutable, no new finalizers while deleting', () => {
  const old = { name: 'x', uid: 'u1', resourceVersion: '5', deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['a.io/x'] };
  const m = messages(validateObjectMetaUpdate({ ...old, uid: 'u2', finalizers: ['a.io/x', 'b.io/y'] }, old));
  assert.deepEqual(m, [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/y"}',
    'metadata.uid: Invalid value: "u2": field is immutable',
  ]);
  assert.deepEqual(messages(validateObjectMetaUpdate({ name: 'x' }, { name: 'x' })), ['metadata.resourceVersion: Invalid value: "": must be specified for an update']);
});
