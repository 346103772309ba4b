/**
 * The expression language end to end against the real server process over HTTPS, with the ValidatingAdmissionPolicy
 * and AdmissionWebhookMatchConditions gates and `admissionregistration/v1alpha1` on: CRD validation rules (self,
 * transition rules with oldSelf, list and URL functions, escaped property names, messageExpression) admitting and
 * refusing custom objects; a rule too costly refused when the CRD is written; policies with params (a ConfigMap
 * and a custom object), namespace selectors, Deny and Warn, authorizer checks and type checking in their status,
 * in force within a second; a webhook called or skipped by its match conditions; kubectl in the k8s flavour.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { startTestHttpsServer, type TestHttpsServer } from '../admission/testing/test-https-server.js';
import { call, createNamespace, eventually } from './http.js';
import { establish } from './crd-fixtures.js';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { startServerProcess, type ServerProcess } from './server-process.js';

const names = namesFor('svc');
const reg = names.group('admissionregistration');
const gates = '--feature-gates=ValidatingAdmissionPolicy=true,AdmissionWebhookMatchConditions=true';
const group = 'rules.example.com';
let server: ServerProcess;
let hooks: TestHttpsServer;

const rules = (...r: Record<string, string>[]) => ({ 'x-kubernetes-validations': r });

/** A CRD whose schema carries rules of every sort. */
function widgetCrd(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                ...rules(
                  { rule: 'self.replicas <= self.maxReplicas', messageExpression: "'replicas must be at most ' + (self.maxReplicas > 9 ? 'ten' : 'maxReplicas')" },
                  { rule: 'self.replicas >= oldSelf.replicas', message: 'replicas may not decrease' },
                ),
                required: ['replicas', 'maxReplicas'],
                properties: {
                  replicas: { type: 'integer' },
                  maxReplicas: { type: 'integer' },
                  ports: { type: 'array', maxItems: 8, items: { type: 'integer' }, ...rules({ rule: 'self.isSorted() && self.max() < 65536', message: 'ports must be sorted' }) },
                  endpoint: { type: 'string', maxLength: 256, ...rules({ rule: "isURL(self) && url(self).getScheme() == 'https'", message: 'endpoint must be an https URL' }) },
                  'owner-name': { type: 'string', maxLength: 63 },
                  ...extra,
                },
              },
            },
            ...rules({ rule: "!has(self.spec.owner__dash__name) || self.spec.owner__dash__name == self.metadata.name", message: 'owner-name must be the object name' }),
          },
        },
      }],
    },
  };
}

const widget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec });

before(async () => {
  hooks = await startTestHttpsServer();
  server = await startServerProcess({ storage: 'memory', extraArgs: [gates, `--runtime-config=${reg}/v1alpha1=true`] });
  await createNamespace(server.client, 'rules');
  await establish(server, widgetCrd());
});
after(async () => {
  await server?.stop();
  await hooks?.close();
});

test('CRD rules admit and refuse custom objects with the rule path and message', async () => {
  const base = `/apis/${group}/v1/namespaces/rules/widgets`;
  const ok = await call(server.client, 'POST', base, widget('a', { replicas: 1, maxReplicas: 3, ports: [80, 443], endpoint: 'https://a.example/x', 'owner-name': 'a' }));
  assert.equal(ok.status, 201, ok.text);
  const refusals: [Record<string, unknown>, string][] = [
    [{ replicas: 5, maxReplicas: 3 }, 'spec: Invalid value: "object": replicas must be at most maxReplicas'],
    [{ replicas: 1, maxReplicas: 3, ports: [443, 80] }, 'spec.ports: Invalid value: "array": ports must be sorted'],
    [{ replicas: 1, maxReplicas: 3, endpoint: 'http://a.example' }, 'spec.endpoint: Invalid value: "string": endpoint must be an https URL'],
    [{ replicas: 1, maxReplicas: 3, 'owner-name': 'z' }, '<nil>: Invalid value: "object": owner-name must be the object name'],
  ];
  for (const [spec, message] of refusals) {
    const r = await call(server.client, 'POST', base, widget('b', spec));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.message, `Widget.${group} "b" is invalid: ${message}`);
  }
  const current = (await call(server.client, 'GET', `${base}/a`)).body;
  const shrink = await call(server.client, 'PUT', `${base}/a`, { ...current, spec: { ...current.spec, replicas: 0 } });
  assert.equal(shrink.status, 422, shrink.text);
  assert.match(shrink.body.message, /spec: Invalid value: "object": replicas may not decrease$/);
  const grow = await call(server.client, 'PUT', `${base}/a`, { ...current, spec: { ...current.spec, replicas: 2 } });
  assert.equal(grow.status, 200, grow.text);
});

test('a CRD whose rule does not compile, or costs too much, is refused naming the rule', async () => {
  const crdPath = `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`;
  const broken = widgetCrd({ bad: { type: 'integer', ...rules({ rule: 'self <<<= (' }) } });
  (broken['metadata'] as Record<string, string>)['name'] = `widgets.${group}`;
  const r1 = await call(server.client, 'POST', crdPath, { ...broken, metadata: { name: `gadgets.${group}` }, spec: { ...(broken['spec'] as object), names: { plural: 'gadgets', kind: 'Gadget' } } });
  assert.equal(r1.status, 422, r1.text);
  assert.match(r1.body.message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.properties\[bad\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: "self <<<= \(": compilation failed: ERROR: <input>:1:/);
  const heavy = widgetCrd({ tags: { type: 'array', items: { type: 'string' }, ...rules({ rule: 'self.all(x, self.all(y, x.contains(y)))' }) } });
  const r2 = await call(server.client, 'POST', crdPath, { ...heavy, metadata: { name: `gizmos.${group}` }, spec: { ...(heavy['spec'] as object), names: { plural: 'gizmos', kind: 'Gizmo' } } });
  assert.equal(r2.status, 422, r2.text);
  assert.match(r2.body.message, /properties\[tags\]\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x/);
});

const policyPath = `/apis/${reg}/v1alpha1/validatingadmissionpolicies`;
const bindingPath = `/apis/${reg}/v1alpha1/validatingadmissionpolicybindings`;

test('policies: params from a ConfigMap and a custom object, selectors, Deny and Warn, type checking, in force within a second', async () => {
  await createNamespace(server.client, 'prod');
  await call(server.client, 'PATCH', '/api/v1/namespaces/prod', { metadata: { labels: { env: 'prod' } } }, { 'content-type': 'application/merge-patch+json' });
  const cm = await call(server.client, 'POST', '/api/v1/namespaces/prod/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { max: '2' } });
  assert.equal(cm.status, 201, cm.text);
  const policy = await call(server.client, 'POST', policyPath, {
    apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'replica-limit' },
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
      validations: [
        { expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'replicas must be at most ' + params.data.max", reason: 'Forbidden' },
        { expression: 'object.spec.replicaz == 1' },
      ],
    },
  });
  assert.equal(policy.status, 201, policy.text);
  assert.equal(policy.body.spec.failurePolicy, 'Fail');
  const started = Date.now();
  const binding = await call(server.client, 'POST', bindingPath, {
    apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replica-limit-prod' },
    spec: { policyName: 'replica-limit', paramRef: { name: 'limits', namespace: 'prod' }, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } },
  });
  assert.equal(binding.status, 201, binding.text);
  const deployment = (name: string, replicas: number) => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } } },
  });
  let denied: Awaited<ReturnType<typeof call>> | undefined;
  assert.ok(await eventually(async () => {
    denied = await call(server.client, 'POST', '/apis/apps/v1/namespaces/prod/deployments?dryRun=All', deployment('big', 5));
    return denied.status === 403;
  }, 1000, 20), `in force within a second: ${denied?.text}`);
  assert.ok(Date.now() - started < 1500);
  assert.equal(denied!.body.reason, 'Forbidden');
  assert.equal(denied!.body.message, "deployments.apps \"big\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-prod' denied request: replicas must be at most 2");
  // The second validation reads a field Deployments do not have: a runtime error under failurePolicy Fail.
  const small = await call(server.client, 'POST', '/apis/apps/v1/namespaces/prod/deployments', deployment('small', 1));
  assert.equal(small.status, 422, small.text);
  assert.match(small.body.message, /denied request: expression 'object\.spec\.replicaz == 1' resulted in error: no such key: replicaz/);
  const elsewhere = await call(server.client, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('big', 5));
  assert.equal(elsewhere.status, 201, 'the namespace selector leaves other namespaces alone');
  const checked = await eventually(async () => {
    const got = await call(server.client, 'GET', `${policyPath}/replica-limit`);
    return got.body?.status?.typeChecking?.expressionWarnings?.[0]?.fieldRef === 'spec.validations[1].expression';
  }, 5000, 50);
  assert.ok(checked, 'typeChecking reports the unknown field');
  const status = (await call(server.client, 'GET', `${policyPath}/replica-limit`)).body.status;
  assert.match(status.typeChecking.expressionWarnings[0].warning, /^apps\/v1, Kind=Deployment: ERROR: <input>:1:13: undefined field 'replicaz'/);
  assert.equal(status.typeChecking.expressionWarnings.length, 1);
  assert.equal((await call(server.client, 'DELETE', `${bindingPath}/replica-limit-prod`)).status, 200);
  assert.ok(await eventually(async () => (await call(server.client, 'POST', '/apis/apps/v1/namespaces/prod/deployments?dryRun=All', deployment('big', 5))).status === 201, 1000, 20),
    'a deleted binding stops applying within a second');

  // Params of a custom kind, a Warn binding, and an authorizer check.
  const limitCrd = {
    apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `limits.${group}` },
    spec: {
      group, scope: 'Cluster', names: { plural: 'limits', singular: 'limit', kind: 'Limit', listKind: 'LimitList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { maxKeys: { type: 'integer' } } } } }],
    },
  };
  await establish(server, limitCrd);
  assert.equal((await call(server.client, 'POST', `/apis/${group}/v1/limits`, { apiVersion: `${group}/v1`, kind: 'Limit', metadata: { name: 'small' }, maxKeys: 1 })).status, 201);
  const cmPolicy = await call(server.client, 'POST', policyPath, {
    apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'configmap-keys' },
    spec: {
      paramKind: { apiVersion: `${group}/v1`, kind: 'Limit' },
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      validations: [
        { expression: '!has(object.data) || size(object.data) <= params.maxKeys', message: 'too many keys' },
        { expression: "authorizer.group('').resource('secrets').namespace(object.metadata.namespace).check('list').allowed()", message: 'only readers of secrets may write configmaps here' },
      ],
    },
  });
  assert.equal(cmPolicy.status, 201, cmPolicy.text);
  assert.equal((await call(server.client, 'POST', bindingPath, {
    apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'configmap-keys' },
    spec: { policyName: 'configmap-keys', paramRef: { name: 'small' }, validationActions: ['Warn'], matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } },
  })).status, 201);
  let warned: Awaited<ReturnType<typeof call>> | undefined;
  assert.ok(await eventually(async () => {
    warned = await call(server.client, 'POST', '/api/v1/namespaces/prod/configmaps?dryRun=All', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' }, data: { a: '1', b: '2' } });
    return warned.headers['warning'] !== undefined;
  }, 1000, 20));
  assert.equal(warned!.status, 201);
  assert.match(String(warned!.headers['warning']), /Validation failed for ValidatingAdmissionPolicy 'configmap-keys' with binding 'configmap-keys': too many keys/);
  // A user who may create configmaps but not list secrets is warned by the authorizer check; the admin is not.
  await call(server.client, 'POST', '/apis/rbac.authorization.svc.io/v1/namespaces/prod/roles', {
    apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name: 'cm-writer' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
  });
  await call(server.client, 'POST', '/apis/rbac.authorization.svc.io/v1/namespaces/prod/rolebindings', {
    apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', metadata: { name: 'cm-writer' },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'cm-writer' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.svc.io' }],
  });
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'j' }, data: { a: '1' } };
  let asJane: Awaited<ReturnType<typeof call>> | undefined;
  assert.ok(await eventually(async () => {
    asJane = await call(server.client, 'POST', '/api/v1/namespaces/prod/configmaps?dryRun=All', body, { 'Impersonate-User': 'jane' });
    return asJane.status === 201;
  }, 5000, 50), asJane?.text);
  assert.match(String(asJane!.headers['warning']), /only readers of secrets may write configmaps here/);
  const asAdmin = await call(server.client, 'POST', '/api/v1/namespaces/prod/configmaps?dryRun=All', body);
  assert.equal(asAdmin.headers['warning'], undefined);
});

test('policy writes are checked: expressions compile, constraints and actions are required', async () => {
  const bad = await call(server.client, 'POST', policyPath, {
    apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'bad' }, spec: { validations: [{ expression: 'object.spec.replicas <<<= (' }] },
  });
  assert.equal(bad.status, 422, bad.text);
  const causes = bad.body.details.causes.map((c: { field: string }) => c.field);
  assert.deepEqual(causes, ['spec.matchConstraints', 'spec.validations[0].expression']);
  assert.match(bad.body.message, /spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <<<= \(": compilation failed: ERROR: <input>:1:/);
  const binding = await call(server.client, 'POST', bindingPath, {
    apiVersion: `${reg}/v1alpha1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'x', validationActions: ['Deny', 'Warn'] },
  });
  assert.equal(binding.status, 422);
  assert.match(binding.body.message, /must not contain both Deny and Warn/);
});

test('match conditions decide whether a real webhook is called; an error follows the failure policy', async () => {
  hooks.handle((req) => {
    const review = req.body as { request: { uid: string } };
    return { json: { apiVersion: 'admission.svc.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: false, status: { code: 403, message: 'hook says no' } } } };
  });
  const config = (failurePolicy: string, matchConditions: unknown[]) => ({
    apiVersion: `${reg}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'conditional' },
    webhooks: [{
      name: 'deny.hooks.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', failurePolicy, matchConditions,
      clientConfig: { url: `${hooks.url}/validate`, caBundle: hooks.caBundle },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }],
      namespaceSelector: { matchLabels: { hooked: 'yes' } },
    }],
  });
  const duplicate = await call(server.client, 'POST', `/apis/${reg}/v1/validatingwebhookconfigurations`, config('Fail', [
    { name: 'a', expression: 'true' }, { name: 'a', expression: 'object.x <<< 1' },
  ]));
  assert.equal(duplicate.status, 422);
  assert.match(duplicate.body.message, /webhooks\[0\]\.matchConditions\[1\]\.name: Duplicate value: "a"/);
  assert.match(duplicate.body.message, /webhooks\[0\]\.matchConditions\[1\]\.expression: Invalid value: "object\.x <<< 1": compilation failed/);
  await createNamespace(server.client, 'hooked');
  await call(server.client, 'PATCH', '/api/v1/namespaces/hooked', { metadata: { labels: { hooked: 'yes' } } }, { 'content-type': 'application/merge-patch+json' });
  const created = await call(server.client, 'POST', `/apis/${reg}/v1/validatingwebhookconfigurations`, config('Fail', [
    { name: 'labelled', expression: "has(object.metadata.labels) && 'checked' in object.metadata.labels" },
    { name: 'not-admin', expression: "!('system:masters' in request.userInfo.groups) || object.metadata.name.startsWith('check')" },
    { name: 'errors-when-no-data', expression: "object.data['k'] != ''" },
  ]));
  assert.equal(created.status, 201, created.text);
  const secret = (name: string, labels: Record<string, string>, data?: Record<string, string>) =>
    ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, labels }, ...(data ? { data } : {}) });
  const base = '/api/v1/namespaces/hooked/secrets?dryRun=All';
  let called: Awaited<ReturnType<typeof call>> | undefined;
  assert.ok(await eventually(async () => {
    called = await call(server.client, 'POST', base, secret('checked-1', { checked: 'y' }, { k: 'dg==' }));
    return called.status === 403;
  }, 5000, 50), called?.text);
  assert.match(called!.body.message, /admission webhook "deny\.hooks\.example\.com" denied the request: hook says no/);
  const before = hooks.received.length;
  // A false condition skips the webhook, even beside one that errors (no data).
  assert.equal((await call(server.client, 'POST', base, secret('plain', {}))).status, 201);
  assert.equal((await call(server.client, 'POST', base, secret('other', { checked: 'y' }))).status, 201);
  assert.equal(hooks.received.length, before, 'skipped webhooks are not called');
  // All others true and one failing to evaluate: Fail rejects without calling.
  const failed = await call(server.client, 'POST', base, secret('check-2', { checked: 'y' }));
  assert.equal(failed.status, 500, failed.text);
  assert.match(failed.body.message, /failed calling webhook "deny\.hooks\.example\.com": expression 'object\.data\['k'\] != ''' resulted in error: no such key: data/);
  assert.equal(hooks.received.length, before);
  const current = (await call(server.client, 'GET', `/apis/${reg}/v1/validatingwebhookconfigurations/conditional`)).body;
  current.webhooks[0].failurePolicy = 'Ignore';
  assert.equal((await call(server.client, 'PUT', `/apis/${reg}/v1/validatingwebhookconfigurations/conditional`, current)).status, 200);
  assert.ok(await eventually(async () => (await call(server.client, 'POST', base, secret('check-3', { checked: 'y' }))).status === 201, 5000, 50),
    'Ignore admits when a condition fails to evaluate');
});

test('kubectl creates policies and is refused by them in the k8s flavour', async (t) => {
  const [kubectl] = findKubectls();
  if (kubectl === undefined) {
    t.skip('kubectl is not installed');
    return;
  }
  const k8s = await startServerProcess({ flavour: 'k8s', storage: 'memory', extraArgs: [gates, '--runtime-config=admissionregistration.k8s.io/v1alpha1=true'] });
  const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  try {
    const apply = async (doc: unknown) => {
      const file = join(home, `doc-${Math.random().toString(36).slice(2)}.json`);
      const { writeFileSync } = await import('node:fs');
      writeFileSync(file, JSON.stringify(doc));
      return runKubectl(kubectl, k8s.kubeconfigPath, home, ['create', '-f', file]);
    };
    const p = await apply({
      apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'no-big' },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        validations: [{ expression: '!has(object.data) || size(object.data) < 2', message: 'at most one key' }] },
    });
    assert.equal(p.code, 0, p.stderr);
    const b = await apply({
      apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'no-big' },
      spec: { policyName: 'no-big', validationActions: ['Deny'] },
    });
    assert.equal(b.code, 0, b.stderr);
    let run: Awaited<ReturnType<typeof runKubectl>> | undefined;
    assert.ok(await eventually(async () => {
      run = await runKubectl(kubectl, k8s.kubeconfigPath, home, ['create', 'configmap', 'big', '--from-literal=a=1', '--from-literal=b=2']);
      return run.code !== 0;
    }, 2000, 50), run?.stdout);
    assert.match(run!.stderr, /ValidatingAdmissionPolicy 'no-big' with binding 'no-big' denied request: at most one key/);
    const listed = await runKubectl(kubectl, k8s.kubeconfigPath, home, ['get', 'validatingadmissionpolicies', '-o', 'name']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /validatingadmissionpolicy\.admissionregistration\.k8s\.io\/no-big/);
  } finally {
    rmSync(home, { recursive: true, force: true });
    await k8s.stop();
  }
});
