/**
 * Associative list items keyed with the defaults of their key fields (structured-merge-diff's defaulted list-map
 * keys): a container port without `protocol` is the same item as the stored one defaulted to TCP, so ownership
 * recorded by an update of the defaulted object is met by an apply that leaves `protocol` out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchSchemaFromOpenApi } from '../patch/patch-schema.js';
import { generatedSchemas } from '../schema/generated-data.js';
import { applyConfiguration, updateManagedFields, type FieldManagerScope, type ManagedObject } from './field-manager.js';
import { keyElement } from './field-path.js';
import { listKindOf } from './schema-view.js';

const schema = patchSchemaFromOpenApi(generatedSchemas(), 'io.k8s.api.apps.v1.Deployment');
const scope: FieldManagerScope = { schema, apiVersion: 'apps/v1', subresource: '', hasStatus: true, now: () => '2024-01-01T00:00:00Z', typed: true };

function deployment(port: Record<string, unknown>, image = 'nginx:1.25'): ManagedObject {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' },
    spec: { template: { spec: { containers: [{ name: 'nginx', image, ports: [port] }] } } },
  };
}

test('the ports list is keyed by containerPort and protocol, protocol defaulting to TCP', () => {
  const ports = schema.field('spec')!.field('template')!.field('spec')!.field('containers')!.items()!.field('ports')!;
  const kind = listKindOf(ports);
  assert.equal(kind.kind, 'map');
  assert.deepEqual(kind.kind === 'map' ? kind.keyDefaults : undefined, { containerPort: 0, protocol: 'TCP' });
  assert.equal(keyElement({ containerPort: 80 }, ['containerPort', 'protocol'], { protocol: 'TCP' }), 'k:{"containerPort":80,"protocol":"TCP"}');
  assert.equal(keyElement({ containerPort: 80, protocol: 'UDP' }, ['containerPort', 'protocol'], { protocol: 'TCP' }), 'k:{"containerPort":80,"protocol":"UDP"}');
});

test('an apply leaving the defaulted key out meets the item an update recorded with it', () => {
  const created = updateManagedFields(undefined, deployment({ containerPort: 80, protocol: 'TCP' }), 'writer', scope);
  const fields = JSON.stringify(created.metadata?.managedFields);
  assert.match(fields, /k:\{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"\}/);
  const same = applyConfiguration(created, deployment({ containerPort: 80 }), 'applier', false, scope);
  assert.ok(same.ok, same.ok ? '' : same.error.message);
  const ports = (same.value as any).spec.template.spec.containers[0].ports;
  assert.deepEqual(ports, [{ containerPort: 80, protocol: 'TCP' }], 'one item, not two');
  const changed = applyConfiguration(created, deployment({ containerPort: 80, name: 'http' }), 'applier', false, scope);
  assert.ok(changed.ok, 'adding a field to the shared item is no conflict');
  const clash = applyConfiguration(created, deployment({ containerPort: 80 }, 'nginx:1.26'), 'applier', false, scope);
  assert.ok(!clash.ok);
  assert.equal(clash.error.reason, 'conflict');
  assert.deepEqual(clash.error.reason === 'conflict' ? clash.error.conflicts.map((c) => c.manager) : [], ['{"manager":"writer","operation":"Update","apiVersion":"apps/v1"}']);
});
