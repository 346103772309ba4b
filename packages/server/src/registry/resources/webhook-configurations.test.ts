import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../../testing/test-registry.js';
import { defaultFeatureGates } from '../../feature-gates.js';
import { mutatingWebhookConfigurationStrategy, validatingWebhookConfigurationStrategy } from './webhook-configurations.js';

const group = 'admissionregistration.svc.io';
const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'check.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None',
  clientConfig: { url: 'https://hooks.example.com/check' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  ...extra,
});
const configuration = (kind: string, webhooks: unknown[]) => ({ apiVersion: `${group}/v1`, kind, metadata: { name: 'c' }, webhooks });

test('webhook configurations get v1\'s defaults', async () => {
  const { call } = await testRegistry([]);
  const created = await call({ verb: 'create', group, resource: 'mutatingwebhookconfigurations',
    body: configuration('MutatingWebhookConfiguration', [hook({ clientConfig: { service: { namespace: 'ns', name: 'svc' } } })]) });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const body = created.body as { metadata: { generation: number }; webhooks: Record<string, unknown>[] };
  assert.equal(body.metadata.generation, 1);
  assert.deepEqual(body.webhooks[0], {
    ...hook(), clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
    failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never',
  });
  const validating = await call({ verb: 'create', group, resource: 'validatingwebhookconfigurations', body: configuration('ValidatingWebhookConfiguration', [hook()]) });
  assert.equal((validating.body as { webhooks: Record<string, unknown>[] }).webhooks[0]!['reinvocationPolicy'], undefined);
});

test('webhook configurations are validated as kube validates them', async () => {
  const { call } = await testRegistry([]);
  const refused = await call({ verb: 'create', group, resource: 'validatingwebhookconfigurations', body: configuration('ValidatingWebhookConfiguration', [
    hook({ clientConfig: { url: 'http://user@hooks.example.com/x?q=1#frag' }, sideEffects: 'Some', timeoutSeconds: 99 }),
    hook({ admissionReviewVersions: ['v2'], rules: [{ operations: ['*', 'CREATE'], apiGroups: [], apiVersions: ['v1'], resources: ['*', 'pods', '*/*'], scope: 'Everywhere' }] }),
    hook({ name: 'short', admissionReviewVersions: [], sideEffects: 'Unknown', clientConfig: {} }),
  ]) });
  assert.equal(refused.code, 422);
  const causes = (refused.body as { details: { causes: { field: string; message: string }[] } }).details.causes.map((c) => `${c.field}: ${c.message}`);
  assert.deepEqual(causes, [
    'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    'webhooks[0].timeoutSeconds: Invalid value: 99: the timeout value must be between 1 and 30 seconds',
    'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'webhooks[0].clientConfig.url: Invalid value: "user": user information is not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
    'webhooks[1].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations',
    'webhooks[1].rules[0].apiGroups: Required value',
    'webhooks[1].rules[0].resources: Invalid value: ["*","pods","*/*"]: if \'*/*\' is present, must not specify other resources',
    'webhooks[1].rules[0].resources: Invalid value: ["*","pods","*/*"]: if \'*\' is present, must not specify other resources without subresources',
    'webhooks[1].rules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
    'webhooks[1].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
    'webhooks[1].name: Duplicate value: "check.example.com"',
    'webhooks[2].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
    'webhooks[2].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
    'webhooks[2].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    'webhooks[2].clientConfig: Required value: exactly one of url or service is required',
  ]);
  const { sideEffects: _dropped, ...withoutSideEffects } = hook();
  const missing = await call({ verb: 'create', group, resource: 'validatingwebhookconfigurations', body: configuration('ValidatingWebhookConfiguration', [withoutSideEffects]) });
  assert.equal(missing.code, 422);
  assert.equal((missing.body as { details: { causes: { field: string }[] } }).details.causes[0]?.field, 'webhooks[0].sideEffects');
  const service = await call({ verb: 'create', group, resource: 'mutatingwebhookconfigurations', body: configuration('MutatingWebhookConfiguration', [
    hook({ clientConfig: { service: { namespace: 'ns', name: 'svc', port: 70000, path: 'no//slash' } }, reinvocationPolicy: 'Always' }),
  ]) });
  const serviceCauses = (service.body as { details: { causes: { field: string; message: string }[] } }).details.causes.map((c) => `${c.field}: ${c.message}`);
  assert.deepEqual(serviceCauses, [
    'webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    'webhooks[0].clientConfig.service.path: Invalid value: "no//slash": must start with a \'/\'',
    'webhooks[0].clientConfig.service.path: Invalid value: "no//slash": segment[1] may not be empty',
    'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
  ]);
});

test('with AdmissionWebhookMatchConditions off, matchConditions are dropped on create and on update unless already in use', async () => {
  const conditions = [{ name: 'not-leases', expression: 'request.resource.resource != "leases"' }];
  const { call } = await testRegistry([]);
  const created = await call({ verb: 'create', group, resource: 'validatingwebhookconfigurations',
    body: configuration('ValidatingWebhookConfiguration', [hook({ matchConditions: conditions })]) });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const stored = created.body as { metadata: Record<string, unknown>; webhooks: Record<string, unknown>[] };
  assert.equal(stored.webhooks[0]!['matchConditions'], undefined);
  const updated = await call({ verb: 'update', group, resource: 'validatingwebhookconfigurations', name: 'c',
    body: { ...stored, webhooks: [{ ...stored.webhooks[0], matchConditions: conditions }] } });
  assert.equal(updated.code, 200, JSON.stringify(updated.body));
  assert.equal((updated.body as typeof stored).webhooks[0]!['matchConditions'], undefined);

  // An object written while the gate was on keeps its conditions, on every webhook, and they are still validated.
  for (const strategy of [mutatingWebhookConfigurationStrategy(), validatingWebhookConfigurationStrategy()]) {
    const old = configuration('X', [hook({ name: 'a.example.com', matchConditions: conditions }), hook({ name: 'b.example.com' })]);
    const next = configuration('X', [hook({ name: 'a.example.com', matchConditions: conditions }), hook({ name: 'b.example.com', matchConditions: conditions })]);
    strategy.prepareForUpdate(next, old);
    assert.deepEqual(next.webhooks.map((w) => (w as Record<string, unknown>)['matchConditions']), [conditions, conditions]);
    const fresh = configuration('X', [hook({ matchConditions: conditions })]);
    strategy.prepareForCreate(fresh);
    assert.equal((fresh.webhooks[0] as Record<string, unknown>)['matchConditions'], undefined);
  }
  const bad = configuration('X', [hook({ matchConditions: [{ name: 'a', expression: 'object.x <<< 1' }] })]);
  const badOld = configuration('X', [hook({ matchConditions: conditions })]);
  const strategy = validatingWebhookConfigurationStrategy();
  strategy.prepareForUpdate(bad, badOld);
  assert.match(JSON.stringify(strategy.validateUpdate(bad, badOld)), /matchConditions\[0\]\.expression/);
});

test('with AdmissionWebhookMatchConditions on, matchConditions are kept', () => {
  const gates = { ...defaultFeatureGates, AdmissionWebhookMatchConditions: true };
  const conditions = [{ name: 'not-leases', expression: 'request.resource.resource != "leases"' }];
  for (const strategy of [mutatingWebhookConfigurationStrategy(undefined, gates), validatingWebhookConfigurationStrategy(undefined, gates)]) {
    const fresh = configuration('X', [hook({ matchConditions: conditions })]);
    strategy.prepareForCreate(fresh);
    assert.deepEqual((fresh.webhooks[0] as Record<string, unknown>)['matchConditions'], conditions);
    const next = configuration('X', [hook({ matchConditions: conditions })]);
    strategy.prepareForUpdate(next, configuration('X', [hook()]));
    assert.deepEqual((next.webhooks[0] as Record<string, unknown>)['matchConditions'], conditions);
  }
});
