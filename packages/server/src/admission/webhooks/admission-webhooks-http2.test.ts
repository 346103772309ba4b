/**
 * Webhooks that offer HTTP/2 are called over it, as kube's Go client calls them: mutation, denial, warnings,
 * credentials and timeouts under both failure policies behave as over HTTP/1.1, and a server that offers only
 * HTTP/1.1 beside it keeps being called over HTTP/1.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { admissionRig, type AdmissionRig } from '../testing/admission-test-kit.js';
import { startTestHttpsServer, type Answer, type ReceivedRequest, type TestHttpsServer } from '../testing/test-https-server.js';

type Json = Record<string, unknown>;
const group = 'admissionregistration.svc.io';

let h2: TestHttpsServer;
let h1: TestHttpsServer;
let rig: AdmissionRig;
const dir = tempDir({ after }, 'admission-webhooks-http2-');

function answer(req: ReceivedRequest, response: Json = {}, delayMs?: number): Answer {
  const review = req.body as { apiVersion: string; request: { uid: string } };
  return { json: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...response } }, ...(delayMs === undefined ? {} : { delayMs }) };
}

function backend(req: ReceivedRequest): Answer {
  const object = (req.body as { request: { object?: KubeObject } }).request.object;
  switch (req.path.replace(/\?.*$/, '')) {
    case '/label':
      return answer(req, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { via: req.httpVersion } }])).toString('base64') });
    case '/deny':
      return object?.metadata?.name === 'forbidden' ? answer(req, { allowed: false, status: { code: 418, message: 'teapots only' }, warnings: ['said no'] }) : answer(req);
    case '/slow':
      return answer(req, {}, 1500);
    default:
      return answer(req);
  }
}

before(async () => {
  h2 = await startTestHttpsServer([], { http2: true });
  h1 = await startTestHttpsServer();
  h2.handle(backend);
  h1.handle(backend);
  const credentials = join(dir, 'credentials.kubeconfig');
  writeFileSync(credentials, ['apiVersion: v1', 'kind: Config', 'users:', `- {name: "127.0.0.1:${h2.port}", user: {token: h2-token}}`].join('\n'));
  const webhookConfiguration = { apiVersion: 'apiserver.config.svc.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: credentials };
  rig = await admissionRig({
    plugins: ['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'], namespaces: ['default'],
    configuration: { MutatingAdmissionWebhook: webhookConfiguration, ValidatingAdmissionWebhook: webhookConfiguration },
  });
});
after(async () => {
  rig.close();
  await h2.close();
  await h1.close();
});

function webhook(name: string, server: TestHttpsServer, path: string, extra: Json = {}): Json {
  return {
    name, admissionReviewVersions: ['v1'], sideEffects: 'None', timeoutSeconds: 5,
    clientConfig: { url: `${server.url}${path}`, caBundle: server.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    ...extra,
  };
}

const resourceOf = (kind: 'Mutating' | 'Validating') => (kind === 'Mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations');

async function configure(kind: 'Mutating' | 'Validating', name: string, webhooks: Json[]): Promise<void> {
  const created = await rig.call({ verb: 'create', group, resource: resourceOf(kind), body: { apiVersion: `${group}/v1`, kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks } });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  await new Promise((r) => setTimeout(r, 50));
}

afterEach(async () => {
  for (const kind of ['Mutating', 'Validating'] as const) {
    const listed = await rig.call({ verb: 'list', group, resource: resourceOf(kind) });
    for (const item of (listed.body as { items: KubeObject[] }).items) await rig.call({ verb: 'delete', group, resource: resourceOf(kind), name: item.metadata!.name! });
  }
  await new Promise((r) => setTimeout(r, 50));
});

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
const create = (name: string) => rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: configMap(name) });

test('a webhook offering HTTP/2 is called over it, with its credentials; its patch is stored; concurrent calls share the connection', async () => {
  await configure('Mutating', 'label', [webhook('label.example.com', h2, '/label')]);
  const before = h2.received.length;
  const created = await Promise.all(Array.from({ length: 8 }, (_, i) => create(`h2-${i}`)));
  assert.deepEqual(created.map((c) => c.code), Array(8).fill(201));
  assert.deepEqual((await rig.get('configmaps', 'default', 'h2-0'))?.metadata?.labels, { via: '2.0' });
  const seen = h2.received.slice(before);
  assert.equal(seen.length, 8);
  assert.ok(seen.every((r) => r.httpVersion === '2.0' && r.authorization === 'Bearer h2-token'));
  assert.match(seen[0]!.path, /^\/label\?timeout=5s$/);
  assert.equal(new Set(seen.map((r) => r.remotePort)).size, 1, 'one connection');
});

test('a webhook offering only HTTP/1.1 keeps being called over HTTP/1.1', async () => {
  await configure('Mutating', 'label-h1', [webhook('label.example.com', h1, '/label')]);
  for (const name of ['h1-a', 'h1-b']) assert.equal((await create(name)).code, 201);
  assert.deepEqual((await rig.get('configmaps', 'default', 'h1-b'))?.metadata?.labels, { via: '1.1' });
  assert.ok(h1.received.every((r) => r.httpVersion === '1.1'));
});

test('over HTTP/2, a denial shows the webhook\'s code, message and warnings', async () => {
  await configure('Validating', 'deny', [webhook('deny.example.com', h2, '/deny')]);
  const denied = await create('forbidden');
  assert.equal(denied.code, 418);
  assert.equal((denied.body as { message: string }).message, 'admission webhook "deny.example.com" denied the request: teapots only');
  assert.ok(denied.warnings.includes('said no'));
  assert.equal((await create('allowed')).code, 201);
});

test('over HTTP/2, timeouts follow the failure policy and leave the connection usable', async () => {
  await configure('Validating', 'slow', [webhook('slow.example.com', h2, '/slow', { timeoutSeconds: 1, failurePolicy: 'Fail' })]);
  const started = Date.now();
  const failed = await create('slow-fail');
  assert.ok(Date.now() - started < 1400, 'the timeout bounds the call');
  assert.equal(failed.code, 500);
  assert.equal((failed.body as { message: string }).message,
    `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${h2.url}/slow?timeout=1s": context deadline exceeded`);
  await rig.call({ verb: 'delete', group, resource: 'validatingwebhookconfigurations', name: 'slow' });
  await configure('Mutating', 'slow-ignored', [webhook('slow-ignored.example.com', h2, '/slow', { timeoutSeconds: 1, failurePolicy: 'Ignore' }), webhook('label.example.com', h2, '/label')]);
  const ignored = await create('slow-ignored');
  assert.equal(ignored.code, 201);
  assert.deepEqual((await rig.get('configmaps', 'default', 'slow-ignored'))?.metadata?.labels, { via: '2.0' }, 'the next webhook was called on the same session');
});

test('over HTTP/2, a webhook that goes away fails the call under Fail with the cause', async () => {
  const gone = await startTestHttpsServer([], { http2: true });
  gone.handle(backend);
  await configure('Validating', 'gone', [webhook('gone.example.com', gone, '/ok', { failurePolicy: 'Fail' })]);
  assert.equal((await create('while-up')).code, 201);
  await gone.close();
  const failed = await create('after-close');
  assert.equal(failed.code, 500);
  assert.match((failed.body as { message: string }).message, /failed calling webhook "gone\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/ok\?timeout=5s": /);
});
