import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody } from '../testing/test-objects.js';

pluginConformance('DefaultIngressClass');

const ingress = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'networking.svc.io/v1', kind: 'Ingress', metadata: { name }, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } }, ...spec },
});
const ingressClass = (name: string, isDefault: boolean) => ({
  apiVersion: 'networking.svc.io/v1', kind: 'IngressClass', metadata: { name, ...(isDefault ? { annotations: { 'ingressclass.svc.io/is-default-class': 'true' } } : {}) },
  spec: { controller: 'example.com/ingress' },
});
const create = (rig: Awaited<ReturnType<typeof admissionRig>>, resource: string, body: unknown, query?: Record<string, string>) =>
  rig.call({ verb: 'create', group: 'networking.svc.io', resource, ...(resource === 'ingresses' ? { namespace: 'default' } : {}), body, ...(query ? { query } : {}) });

test('DefaultIngressClass: no default, nothing; one default, it is set; a named class stays; several defaults refuse', async () => {
  const rig = await admissionRig({ plugins: ['DefaultIngressClass'] });
  assert.equal(specOfBody((await create(rig, 'ingresses', ingress('none'))).body)['ingressClassName'], undefined);
  assert.equal((await create(rig, 'ingressclasses', ingressClass('nginx', true))).code, 201);
  assert.equal((await create(rig, 'ingressclasses', ingressClass('other', false))).code, 201);
  assert.equal((await create(rig, 'ingresses', ingress('web'))).code, 201);
  assert.equal(((await rig.get('ingresses', 'default', 'web', 'networking.svc.io'))?.['spec'] as { ingressClassName: string }).ingressClassName, 'nginx');
  const named = await create(rig, 'ingresses', ingress('named', { ingressClassName: 'other' }), { dryRun: 'All' });
  assert.equal(specOfBody(named.body)['ingressClassName'], 'other');
  assert.equal(await rig.get('ingresses', 'default', 'named', 'networking.svc.io'), undefined);
  assert.equal((await create(rig, 'ingressclasses', ingressClass('second', true))).code, 201);
  const refused = await create(rig, 'ingresses', ingress('two'));
  assert.equal(refused.code, 403);
  assert.equal((refused.body as { message: string }).message,
    'ingresses.networking.svc.io "two" is forbidden: Internal error occurred: 2 default IngressClasses were found, only 1 allowed');
  rig.close();
});
