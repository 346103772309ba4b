import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { customResourceDefinitionStrategy } from '../resources/customresourcedefinitions.js';
import { customResourceDefs } from './custom-resource-def.js';
import type { CustomResourceDefinition } from '../../apiextensions/crd.js';
import { beforeUpdate } from '../operations/prepare.js';

const names = namesFor('svc');

/** An established CRD whose schema has one validation rule. */
function ruledCrd(): CustomResourceDefinition {
  const crd = {
    apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name: 'things.rules.example.com' },
    spec: {
      group: 'rules.example.com', scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.a < 5' }] } } } },
      }],
    },
  } as unknown as KubeObject;
  const strategy = customResourceDefinitionStrategy(names);
  strategy.defaults?.(crd);
  strategy.prepareForCreate(crd);
  return { ...crd, status: { ...(crd.status as object), conditions: [{ type: 'Established', status: 'True' }] } } as CustomResourceDefinition;
}

test('the CustomResourceValidationExpressions gate: rules enforced when on (the default), not built when off', () => {
  const object = { apiVersion: 'rules.example.com/v1', kind: 'Thing', metadata: { name: 't', namespace: 'n' }, spec: { a: 9 } } as KubeObject;
  const [on] = customResourceDefs(ruledCrd(), names);
  assert.deepEqual(on!.strategy.validate(structuredClone(object)).map((e) => e.field), ['spec']);
  const [off] = customResourceDefs(ruledCrd(), names, { validationRules: false });
  assert.deepEqual(off!.strategy.validate(structuredClone(object)), []);
});

test('generation: a change of anything but metadata bumps it, status too without a status subresource; key order is no change', () => {
  const withStatusSubresource = (on: boolean): CustomResourceDefinition => {
    const crd = structuredClone(ruledCrd()) as unknown as { spec: { versions: Record<string, unknown>[] } };
    if (on) crd.spec.versions[0]!['subresources'] = { status: {} };
    return crd as unknown as CustomResourceDefinition;
  };
  const stored = {
    apiVersion: 'rules.example.com/v1', kind: 'Thing', metadata: { name: 't', namespace: 'n', generation: 3, uid: 'u', resourceVersion: '7' },
    spec: { a: 1, b: { c: 'x', d: 'y' } }, status: { s: 1 },
  } as KubeObject;
  const generationAfter = (def: ReturnType<typeof customResourceDefs>[number], change: (o: Record<string, unknown>) => void): number | undefined => {
    const object = structuredClone(stored) as Record<string, unknown>;
    change(object);
    const result = beforeUpdate(def, '', object as KubeObject, stored);
    assert.ok(result.ok, JSON.stringify(result));
    return (object as KubeObject).metadata?.generation;
  };
  const [plain] = customResourceDefs(withStatusSubresource(false), names);
  const [split] = customResourceDefs(withStatusSubresource(true), names);
  for (const def of [plain!, split!]) {
    assert.equal(generationAfter(def, (o) => ((o['spec'] as { a: number }).a = 2)), 4);
    assert.equal(generationAfter(def, (o) => (o['extra'] = {})), 4);
    assert.equal(generationAfter(def, (o) => ((o['metadata'] as { labels?: object }).labels = { l: 'v' })), 3);
    assert.equal(generationAfter(def, (o) => (o['spec'] = { b: { d: 'y', c: 'x' }, a: 1 })), 3);
  }
  assert.equal(generationAfter(plain!, (o) => (o['status'] = { s: 2 })), 4);
  assert.equal(generationAfter(plain!, (o) => delete o['status']), 4);
  assert.equal(generationAfter(split!, (o) => (o['status'] = { s: 2 })), 3);
});
