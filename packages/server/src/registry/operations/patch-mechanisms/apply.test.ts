import assert from 'node:assert/strict';
import { test } from 'node:test';
import { badRequest, type KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../../../testing/test-registry.js';
import { fieldManagerScope } from '../field-management.js';
import { applyMechanism, type ApplyRequest } from './apply.js';

async function request(overrides: Partial<ApplyRequest> = {}): Promise<ApplyRequest> {
  const { registry } = await testRegistry([]);
  return {
    configuration: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: '1' } },
    fieldManager: 'applier', force: false, scope: fieldManagerScope(registry.lookup('', 'v1', 'configmaps')!, ''),
    fieldValidation: { ok: true, value: [] }, defaults: () => undefined,
    lastAppliedAnnotation: registry.names.domain('last-applied-configuration', 'kubectl'),
    ...overrides,
  };
}

type Managed = KubeObject & { metadata: { managedFields: { manager: string; operation: string }[] } };

test('apply mechanism: makes the object from the configuration when none is stored, owned by the applier', async () => {
  const mechanism = applyMechanism(await request());
  assert.equal(mechanism.createsMissing, true);
  const made = await mechanism.next(undefined);
  assert.ok(made.ok);
  const object = made.value.object as Managed;
  assert.deepEqual(object['data'], { a: '1' });
  assert.deepEqual(object.metadata.managedFields.map((m) => [m.manager, m.operation]), [['applier', 'Apply']]);
});

test('apply mechanism: a field another manager owns is a 409 conflict unless forced', async () => {
  const stored = await applyMechanism(await request({ fieldManager: 'other' })).next(undefined);
  assert.ok(stored.ok);
  const configuration: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: '2' } };
  const refused = await applyMechanism(await request({ configuration })).next(stored.value.object);
  assert.equal(!refused.ok && refused.error.code, 409);
  assert.equal(!refused.ok && refused.error.message, 'Apply failed with 1 conflict: conflict with "other": .data.a');
  const forced = await applyMechanism(await request({ configuration, force: true })).next(stored.value.object);
  assert.ok(forced.ok);
  assert.deepEqual(forced.value.object['data'], { a: '2' });
});

test('apply mechanism: the field validation of the body is reported after a successful merge, as decided once', async () => {
  const strict = badRequest('error strict decoding YAML: duplicate');
  const stored = await applyMechanism(await request({ fieldManager: 'other' })).next(undefined);
  assert.ok(stored.ok);
  const conflicting: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: '2' } };
  const conflict = await applyMechanism(await request({ configuration: conflicting, fieldValidation: { ok: false, error: strict } })).next(stored.value.object);
  assert.equal(!conflict.ok && conflict.error.code, 409, 'the merge is answered first');
  const failed = await applyMechanism(await request({ fieldValidation: { ok: false, error: strict } })).next(undefined);
  assert.deepEqual(failed, { ok: false, error: strict });
  const warned = await applyMechanism(await request({ fieldValidation: { ok: true, value: ['line 7: key "x" already set in map'] } })).next(undefined);
  assert.deepEqual(warned.ok && warned.value.warnings, ['line 7: key "x" already set in map']);
});
