import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { customResourceDefinitionStrategy } from '../resources/customresourcedefinitions.js';
import { customResourceDefs } from './custom-resource-def.js';
import type { CustomResourceDefinition } from '../../apiextensions/crd.js';

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
