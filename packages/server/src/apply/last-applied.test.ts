/**
 * Client-side to server-side apply migration: `kubectl` takes over the fields its annotation recorded (when still
 * as recorded), other managers still conflict, and the annotation follows the applied configuration.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchSchemaFromOpenApi } from '../patch/patch-schema.js';
import { generatedSchemas } from '../schema/generated-data.js';
import { updateManagedFields, type FieldManagerScope, type ManagedObject } from './field-manager.js';
import { applyMigratingClientSideApply, lastAppliedValue } from './last-applied.js';

const annotation = 'kubectl.svc.io/last-applied-configuration';
const scope: FieldManagerScope = {
  schema: patchSchemaFromOpenApi(generatedSchemas(), 'io.k8s.api.core.v1.ConfigMap'), apiVersion: 'v1', subresource: '', hasStatus: false,
  now: () => '2024-01-01T00:00:00Z', typed: true,
};
const config = (data: Record<string, string>): ManagedObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, data });

test('the annotation value is the configuration with sorted keys, without itself, newline-ended', () => {
  const value = lastAppliedValue({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', annotations: { [annotation]: 'old', b: '1' } }, data: { z: '1', a: '2' } }, annotation);
  assert.equal(value, '{"apiVersion":"v1","data":{"a":"2","z":"1"},"kind":"ConfigMap","metadata":{"annotations":{"b":"1"},"name":"c"}}\n');
});

test('kubectl takes over fields its client-side apply recorded; others conflict; a changed field stays a conflict', () => {
  const recorded = lastAppliedValue(config({ a: '1', b: '1' }), annotation);
  const live = updateManagedFields(undefined, { ...config({ a: '1', b: '1' }), metadata: { name: 'c', namespace: 'ns', annotations: { [annotation]: recorded } } }, 'kubectl-client-side-apply', scope);
  const other = applyMigratingClientSideApply(live, config({ a: '2', b: '1' }), 'someone', false, scope, annotation);
  assert.ok(!other.ok && other.error.reason === 'conflict');
  const migrated = applyMigratingClientSideApply(live, config({ a: '2', b: '1' }), 'kubectl', false, scope, annotation);
  assert.ok(migrated.ok, migrated.ok ? '' : migrated.error.message);
  assert.deepEqual((migrated.value as any).data, { a: '2', b: '1' });
  assert.equal((migrated.value as any).metadata.annotations[annotation], lastAppliedValue(config({ a: '2', b: '1' }), annotation));
  // A field edited since the client-side apply is no longer what was recorded: it still conflicts.
  const edited = updateManagedFields(live, { ...live, data: { a: '1', b: 'edited' } }, 'editor', scope);
  const clash = applyMigratingClientSideApply(edited, config({ a: '2', b: '3' }), 'kubectl', false, scope, annotation);
  assert.ok(!clash.ok && clash.error.reason === 'conflict');
  assert.deepEqual(clash.error.conflicts.map((c) => c.manager), ['{"manager":"editor","operation":"Update","apiVersion":"v1"}']);
});
