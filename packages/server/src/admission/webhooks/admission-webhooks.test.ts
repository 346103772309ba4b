import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { admissionAttributes } from '../../registry/operations/admission-attributes.js';
import { admissionRig, testAdmin, type AdmissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { requestRecorder } from '../recorder.js';
import { startTestHttpsServer, type Answer, type ReceivedRequest, type TestHttpsServer } from '../testing/test-https-server.js';

type Json = Record<string, unknown>;
const group = 'admissionregistration.svc.io';

let hooks: TestHttpsServer;
let rig: AdmissionRig;
const dir = tempDir({ after }, 'admission-webhooks-');
const credentials = join(dir, 'webhook-credentials.kubeconfig');
/** Calls to each path, in order. */
const calls = new Map<string, Json[]>();

/** An answer to a review: the same apiVersion, the request's uid, and `response` merged in. */
function answer(req: ReceivedRequest, response: Json = {}, delayMs?: number): Answer {
  const review = req.body as { apiVersion: string; request: { uid: string } };
  return { json: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...response } }, ...(delayMs === undefined ? {} : { delayMs }) };
}
const patch = (ops: unknown[]) => ({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
const requestOf = (path: string, i = -1): Json => {
  const list = calls.get(path) ?? [];
  return (list.at(i) as { request: Json }).request;
};

/** The webhook backend: one behaviour per path. */
function backend(req: ReceivedRequest): Answer {
  const path = req.path.replace(/\?.*$/, '');
  calls.set(path, [...(calls.get(path) ?? []), req.body as Json]);
  const object = (req.body as { request: { object?: KubeObject } }).request.object;
  switch (path) {
    case '/label':
      return answer(req, { ...patch([{ op: 'add', path: '/metadata/labels', value: { ...(object?.metadata?.labels ?? {}), mutated: 'yes' } }]), auditAnnotations: { seen: 'true' } });
    case '/deny':
      return object?.metadata?.name === 'forbidden'
        ? answer(req, { allowed: false, status: { code: 418, message: 'teapots only' }, warnings: ['denied, but said so'] })
        : answer(req);
    case '/warn':
      return answer(req, { warnings: ['careful with that configmap'] });
    case '/slow':
      return answer(req, {}, 1500);
    case '/first':
      return answer(req);
    case '/second':
      return object?.metadata?.labels?.['second'] === undefined
        ? answer(req, patch([{ op: 'add', path: '/metadata/labels', value: { ...(object?.metadata?.labels ?? {}), second: 'yes' } }]))
        : answer(req);
    case '/event':
      return answer(req, patch([{ op: 'add', path: '/metadata/annotations', value: { converted: String((object as Json | undefined)?.['apiVersion']) } }]));
    case '/beta':
      return { json: { apiVersion: (req.body as { apiVersion: string }).apiVersion, kind: 'AdmissionReview', response: { allowed: true } } };
    default:
      return answer(req);
  }
}

before(async () => {
  hooks = await startTestHttpsServer(['hooks.webhooks.svc']);
  hooks.handle(backend);
  writeFileSync(credentials, [
    'apiVersion: v1', 'kind: Config',
    'users:',
    `- {name: "127.0.0.1:${hooks.port}", user: {token: url-token}}`,
    '- {name: "hooks.webhooks.svc", user: {token: service-token}}',
  ].join('\n'));
  const webhookConfiguration = { apiVersion: 'apiserver.config.svc.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: credentials };
  rig = await admissionRig({
    plugins: ['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'NamespaceLifecycle'], namespaces: ['default', 'webhooks', 'team-a', 'team-b'],
    configuration: { MutatingAdmissionWebhook: webhookConfiguration, ValidatingAdmissionWebhook: webhookConfiguration },
  });
  for (const [name, labels] of [['team-a', { team: 'a' }], ['team-b', { team: 'b' }]] as const) {
    const ns = (await rig.get('namespaces', '', name))!;
    await rig.call({ verb: 'update', resource: 'namespaces', name, body: { ...ns, metadata: { ...ns.metadata, labels } } });
  }
});
after(async () => {
  rig.close();
  await hooks.close();
});

pluginConformance('MutatingAdmissionWebhook');
pluginConformance('ValidatingAdmissionWebhook');

/** A webhook of the test server. */
function webhook(name: string, path: string, resources: string[], extra: Json = {}): Json {
  return {
    name, admissionReviewVersions: ['v1'], sideEffects: 'None', timeoutSeconds: 5,
    clientConfig: { url: `${hooks.url}${path}`, caBundle: hooks.caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources }],
    ...extra,
  };
}

/** Creates a configuration and gives the plugins' informers the moment they take to see it. */
async function configure(kind: 'Mutating' | 'Validating', name: string, webhooks: Json[]): Promise<void> {
  const resource = kind === 'Mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const created = await rig.call({ verb: 'create', group, resource, body: { apiVersion: `${group}/v1`, kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks } });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  // The informer delivers the configuration within milliseconds (the first test measures it).
  await new Promise((r) => setTimeout(r, 50));
}

async function unconfigure(kind: 'Mutating' | 'Validating', name: string): Promise<void> {
  const resource = kind === 'Mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  await rig.call({ verb: 'delete', group, resource, name });
  await new Promise((r) => setTimeout(r, 50));
}

/** Every configuration created by a test is removed after it, whatever the test's outcome. */
async function removeAll(): Promise<void> {
  for (const [kind, resource] of [['Mutating', 'mutatingwebhookconfigurations'], ['Validating', 'validatingwebhookconfigurations']] as const) {
    const listed = await rig.call({ verb: 'list', group, resource });
    for (const item of (listed.body as { items: KubeObject[] }).items) await unconfigure(kind, item.metadata!.name!);
  }
}
afterEach(removeAll);

const configMap = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { k: 'v' } });
const message = (r: { body?: unknown }) => (r.body as { message: string }).message;

test('a new configuration takes effect within a second; a JSON patch mutation is stored; the review carries the request', async () => {
  calls.clear();
  const started = Date.now();
  await configure('Mutating', 'label', [webhook('label.example.com', '/label', ['configmaps'])]);
  let created: Awaited<ReturnType<AdmissionRig['call']>> | undefined;
  for (let i = 0; i < 100 && !(calls.get('/label')?.length); i++) {
    created = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap(`probe-${i}`) });
  }
  assert.ok(Date.now() - started < 1000, 'effective within a second');
  assert.equal(created?.code, 201);
  const name = (created?.body as KubeObject).metadata!.name!;
  assert.deepEqual((await rig.get('configmaps', 'default', name))?.metadata?.labels, { mutated: 'yes' });
  const request = requestOf('/label');
  assert.deepEqual({ ...request, uid: 'x', object: undefined }, {
    uid: 'x', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
    requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, requestResource: { group: '', version: 'v1', resource: 'configmaps' },
    name, namespace: 'default', operation: 'CREATE', userInfo: { username: testAdmin.username, groups: [...testAdmin.groups] },
    object: undefined, oldObject: null, dryRun: false, options: { kind: 'CreateOptions', apiVersion: 'meta.svc.io/v1' },
  });
  assert.match(String(request['uid']), /^[0-9a-f-]{36}$/);
  assert.equal(hooks.received.at(-1)?.authorization, 'Bearer url-token', 'credentials by host from the kubeConfigFile');
  assert.match(hooks.received.at(-1)?.path ?? '', /^\/label\?timeout=5s$/);
  await unconfigure('Mutating', 'label');
});

test('a denial shows the webhook\'s code and message; warnings reach the client; rejections are counted', async () => {
  await configure('Validating', 'deny', [webhook('deny.example.com', '/deny', ['configmaps']), webhook('warn.example.com', '/warn', ['configmaps'])]);
  const denied = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap('forbidden') });
  assert.equal(denied.code, 418);
  assert.deepEqual(denied.body, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 418, reason: '',
    message: 'admission webhook "deny.example.com" denied the request: teapots only',
  });
  assert.ok(denied.warnings.includes('denied, but said so'));
  assert.equal(await rig.metrics.webhookRejection.value({ name: 'deny.example.com', type: 'validating', operation: 'CREATE', error_type: 'no_error', rejection_code: '418' }), 1);
  const warned = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap('fine') });
  assert.equal(warned.code, 201);
  assert.deepEqual(warned.warnings, ['careful with that configmap']);
  assert.ok((await rig.metrics.webhook.sample({ name: 'warn.example.com', type: 'validating', operation: 'CREATE', rejected: 'false' }))!.count >= 1);
  await unconfigure('Validating', 'deny');
});

test('timeouts follow the failure policy: Fail refuses with 500, Ignore lets the request through', async () => {
  await configure('Validating', 'slow', [webhook('slow.example.com', '/slow', ['configmaps'], { timeoutSeconds: 1, failurePolicy: 'Fail' })]);
  const started = Date.now();
  const failed = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap('slow-fail') });
  assert.ok(Date.now() - started < 1400, 'the timeout bounds the call');
  assert.equal(failed.code, 500);
  assert.equal(message(failed), `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hooks.url}/slow?timeout=1s": context deadline exceeded`);
  assert.equal(await rig.metrics.webhookRejection.value({ name: 'slow.example.com', type: 'validating', operation: 'CREATE', error_type: 'calling_webhook_error', rejection_code: '503' }), 1);
  await unconfigure('Validating', 'slow');
  await configure('Mutating', 'slow-ignored', [webhook('slow-ignored.example.com', '/slow', ['configmaps'], { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
  assert.equal((await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap('slow-ignored') })).code, 201);
  await unconfigure('Mutating', 'slow-ignored');
});

test('namespace and object selectors choose the requests a webhook sees', async () => {
  calls.clear();
  await configure('Mutating', 'selectors', [
    webhook('ns.example.com', '/first', ['configmaps'], { namespaceSelector: { matchLabels: { team: 'a' } } }),
    webhook('obj.example.com', '/warn', ['configmaps'], { objectSelector: { matchExpressions: [{ key: 'watched', operator: 'Exists' }] } }),
  ]);
  await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'team-a', body: configMap('in-a') });
  await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'team-b', body: configMap('in-b') });
  assert.deepEqual((calls.get('/first') ?? []).map((r) => (r as { request: { namespace: string } }).request.namespace), ['team-a']);
  assert.equal(calls.get('/warn'), undefined, 'no object carried the label');
  await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'team-b', body: configMap('labelled', { watched: '1' }) });
  assert.equal(calls.get('/warn')?.length, 1);
  const stored = (await rig.get('configmaps', 'team-b', 'labelled'))!;
  // On update, a match on the old object suffices.
  await rig.call({ verb: 'update', resource: 'configmaps', namespace: 'team-b', name: 'labelled', body: { ...stored, metadata: { ...stored.metadata, labels: {} } } });
  assert.equal(calls.get('/warn')?.length, 2);
  await unconfigure('Mutating', 'selectors');
});

test('Equivalent matching reaches a webhook through another group of the resource, in the webhook\'s version; Exact does not', async () => {
  calls.clear();
  const eventsRule = [{ operations: ['CREATE'], apiGroups: ['events.svc.io'], apiVersions: ['v1'], resources: ['events'] }];
  await configure('Mutating', 'events', [
    webhook('equivalent.example.com', '/event', ['events'], { rules: eventsRule }),
    webhook('exact.example.com', '/warn', ['events'], { rules: eventsRule, matchPolicy: 'Exact' }),
  ]);
  const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm' };
  const created = await rig.call({ verb: 'create', resource: 'events', namespace: 'default', body: event });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const request = requestOf('/event');
  assert.deepEqual(request['kind'], { group: 'events.svc.io', version: 'v1', kind: 'Event' });
  assert.deepEqual(request['resource'], { group: 'events.svc.io', version: 'v1', resource: 'events' });
  assert.deepEqual(request['requestKind'], { group: '', version: 'v1', kind: 'Event' });
  assert.deepEqual(request['requestResource'], { group: '', version: 'v1', resource: 'events' });
  assert.equal((request['object'] as Json)['apiVersion'], 'events.svc.io/v1');
  assert.equal((request['object'] as Json)['note'], 'm', 'the object in the webhook\'s version');
  assert.deepEqual((await rig.get('events', 'default', 'e1'))?.metadata?.annotations, { converted: 'events.svc.io/v1' }, 'the patch came back to the stored version');
  assert.equal(calls.get('/warn'), undefined, 'Exact matching does not convert');
  await unconfigure('Mutating', 'events');
});

test('reinvocation: a webhook with IfNeeded is called again after a later webhook changed the object; Never is not', async () => {
  for (const policy of ['IfNeeded', 'Never'] as const) {
    calls.clear();
    await configure('Mutating', `reinvoke-${policy.toLowerCase()}`, [
      webhook('first.example.com', '/first', ['configmaps'], { reinvocationPolicy: policy }),
      webhook('second.example.com', '/second', ['configmaps']),
    ]);
    const created = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap(`re-${policy.toLowerCase()}`) });
    assert.equal(created.code, 201);
    assert.equal(calls.get('/first')?.length, policy === 'IfNeeded' ? 2 : 1, policy);
    assert.equal(calls.get('/second')?.length, 1, 'second changed the object once; it is not called again for its own change');
    if (policy === 'IfNeeded') {
      const again = requestOf('/first') as { object: KubeObject };
      assert.deepEqual(again.object.metadata?.labels, { second: 'yes' }, 'the second call sees the later change');
    }
    await unconfigure('Mutating', `reinvoke-${policy.toLowerCase()}`);
  }
});

test('dry run: webhooks with side effects fail the request without being called; NoneOnDryRun ones are called with dryRun', async () => {
  calls.clear();
  // A configuration kept from before v1 required None or NoneOnDryRun, as storage may still hold one.
  const def = rig.registry.lookup(group, 'v1', 'validatingwebhookconfigurations')!;
  const legacy = { apiVersion: `${group}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'effects' },
    webhooks: [webhook('effects.example.com', '/warn', ['configmaps'], { sideEffects: 'Some', failurePolicy: 'Fail', matchPolicy: 'Equivalent' })] };
  assert.ok((await rig.registry.store.create(def, legacy, { dryRun: false, retryGenerateName: false })).ok);
  await configure('Validating', 'dry', [webhook('dry.example.com', '/first', ['configmaps'], { sideEffects: 'NoneOnDryRun' })]);
  const dry = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', query: { dryRun: 'All' }, body: configMap('dry') });
  assert.equal(dry.code, 400);
  assert.equal(message(dry), 'admission webhook "effects.example.com" does not support dry run');
  assert.equal(calls.get('/warn'), undefined, 'the webhook with side effects is not called');
  assert.equal(requestOf('/first')['dryRun'], true);
  assert.deepEqual((requestOf('/first')['options'] as Json)['dryRun'], ['All']);
  await unconfigure('Validating', 'dry');
  await unconfigure('Validating', 'effects');
});

test('a Service reference reaches the webhook at its endpoints, verified by the Service\'s name, with its own credentials', async () => {
  calls.clear();
  assert.equal((await rig.call({ verb: 'create', resource: 'services', namespace: 'webhooks', body: {
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'hooks' }, spec: { ports: [{ name: 'https', port: 443, targetPort: hooks.port }], selector: { app: 'hooks' } },
  } })).code, 201);
  assert.equal((await rig.call({ verb: 'create', resource: 'endpoints', namespace: 'webhooks', body: {
    apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hooks' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: hooks.port }] }],
  } })).code, 201);
  await configure('Mutating', 'service', [{
    ...webhook('service.example.com', '/label', ['configmaps']),
    clientConfig: { service: { namespace: 'webhooks', name: 'hooks', path: '/label' }, caBundle: hooks.caBundle },
  }]);
  assert.equal((await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap('via-service') })).code, 201);
  assert.deepEqual((await rig.get('configmaps', 'default', 'via-service'))?.metadata?.labels, { mutated: 'yes' });
  assert.equal(hooks.received.at(-1)?.authorization, 'Bearer service-token');
  await unconfigure('Mutating', 'service');
});

test('audit annotations record each mutating call and its patch; a webhook\'s own annotations are kept under its name', async () => {
  await configure('Mutating', 'audited', [webhook('label.example.com', '/label', ['configmaps']), webhook('beta.example.com', '/beta', ['configmaps'], { admissionReviewVersions: ['v1beta1'] })]);
  const recorder = requestRecorder(() => {});
  const def = rig.registry.lookup('', 'v1', 'configmaps')!;
  const object = configMap('audited') as KubeObject;
  const a = admissionAttributes(def, 'CREATE', '', 'default', 'audited', { user: testAdmin, dryRun: false, recorder }, object);
  assert.deepEqual(await rig.chain.admit(a), { allowed: true });
  const annotations = Object.fromEntries([...recorder.annotations].map(([k, v]) => [k, v]));
  assert.deepEqual(annotations['mutation.webhook.admission.svc.io/round_0_index_0'],
    { value: '{"configuration":"audited","webhook":"label.example.com","mutated":true}', level: 'Metadata' });
  assert.deepEqual(annotations['patch.webhook.admission.svc.io/round_0_index_0'], {
    value: '{"configuration":"audited","webhook":"label.example.com","patch":[{"op":"add","path":"/metadata/labels","value":{"mutated":"yes"}}],"patchType":"JSONPatch"}',
    level: 'Request',
  });
  assert.deepEqual(annotations['mutation.webhook.admission.svc.io/round_0_index_1'],
    { value: '{"configuration":"audited","webhook":"beta.example.com","mutated":false}', level: 'Metadata' }, 'a v1beta1 review without uid is accepted');
  assert.deepEqual(annotations['label.example.com/seen'], { value: 'true', level: 'Metadata' });
  assert.equal((calls.get('/beta')?.at(-1) as Json)['apiVersion'], 'admission.svc.io/v1beta1');
  await unconfigure('Mutating', 'audited');
});

test('with AdmissionWebhookMatchConditions off, stored matchConditions are not evaluated: the webhook is called', async () => {
  calls.clear();
  // Written as a server with the gate on would have stored it (the strategy drops conditions while it is off).
  const def = rig.registry.lookup(group, 'v1', 'validatingwebhookconfigurations')!;
  const stored = await rig.registry.store.create(def, {
    apiVersion: `${group}/v1`, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'conditioned' },
    webhooks: [webhook('never.example.com', '/warn', ['configmaps'], {
      failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {},
      matchConditions: [{ name: 'never', expression: 'false' }],
    })],
  } as KubeObject, { dryRun: false, retryGenerateName: false });
  assert.ok(stored.ok);
  await new Promise((r) => setTimeout(r, 50));
  const created = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap('conditioned') });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  assert.equal(calls.get('/warn')?.length, 1);
});
