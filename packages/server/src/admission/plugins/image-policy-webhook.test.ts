import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { startTestHttpsServer, type TestHttpsServer } from '../testing/test-https-server.js';
import { testPod } from '../testing/test-objects.js';

const configuration = (extra: Record<string, unknown> = {}) => ({ ImagePolicyWebhook: { imagePolicy: { kubeConfigFile: kubeconfig, ...extra } } });
let backend: TestHttpsServer;
const dir = tempDir({ after }, 'image-policy-');
const kubeconfig = join(dir, 'backend.kubeconfig');
before(async () => {
  backend = await startTestHttpsServer();
  backend.handle(() => ({ json: { status: { allowed: true } } }));
  writeFileSync(kubeconfig, [
    'apiVersion: v1', 'kind: Config', 'current-context: c',
    `clusters: [{name: b, cluster: {server: "${backend.url}/review", certificate-authority-data: ${backend.caBundle}}}]`,
    'users: [{name: me, user: {token: image-token}}]',
    'contexts: [{name: c, context: {cluster: b, user: me}}]',
  ].join('\n'));
});
after(async () => {
  await backend.close();
});

pluginConformance('ImagePolicyWebhook', { configuration: configuration() });

test('ImagePolicyWebhook: the backend sees an ImageReview of the images, policy annotations and namespace; its denial refuses the pod', async () => {
  const rig = await admissionRig({ plugins: ['ImagePolicyWebhook'], configuration: configuration({ denyTTL: 1 }) });
  backend.received.length = 0;
  backend.handle((req) => {
    const spec = (req.body as { spec: { containers: { image: string }[] } }).spec;
    const bad = spec.containers.some((c) => c.image.startsWith('evil/'));
    return { json: { apiVersion: 'imagepolicy.svc.io/v1alpha1', kind: 'ImageReview', status: bad ? { allowed: false, reason: 'evil images are banned' } : { allowed: true, auditAnnotations: { checked: 'yes' } } } };
  });
  const pod = testPod('ok', { initContainers: [{ name: 'i', image: 'init:1' }] }, { annotations: { 'team.image-policy.svc.io/ticket': 'T-1', other: 'x' } });
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod })).code, 201);
  assert.deepEqual(backend.received[0]?.body, {
    apiVersion: 'imagepolicy.svc.io/v1alpha1', kind: 'ImageReview',
    spec: { containers: [{ image: 'registry.example/app:1' }, { image: 'init:1' }], annotations: { 'team.image-policy.svc.io/ticket': 'T-1' }, namespace: 'default' },
  });
  assert.equal(backend.received[0]?.authorization, 'Bearer image-token');
  const denied = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('bad', { containers: [{ name: 'c', image: 'evil/miner' }] }) });
  assert.equal(denied.code, 403);
  assert.equal((denied.body as { message: string }).message, 'pods "bad" is forbidden: image policy webhook backend denied one or more images: evil images are banned');
  // Allowed answers are cached for allowTTL: the same review is not sent again.
  const before = backend.received.length;
  const again = { ...pod, metadata: { ...pod.metadata, name: 'again' } };
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: again })).code, 201);
  assert.equal(backend.received.length, before);
  rig.close();
});

test('ImagePolicyWebhook: an unreachable backend refuses, or with defaultAllow admits and marks the pod', async () => {
  backend.handle(() => ({ status: 500, json: {} }));
  const closed = await admissionRig({ plugins: ['ImagePolicyWebhook'], configuration: configuration({ retryBackoff: 1 }) });
  const refused = await closed.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('p') });
  assert.equal(refused.code, 403);
  assert.equal((refused.body as { message: string }).message, 'pods "p" is forbidden: Error contacting webhook: 500');
  closed.close();
  const open = await admissionRig({ plugins: ['ImagePolicyWebhook'], configuration: configuration({ retryBackoff: 1, defaultAllow: true }) });
  assert.equal((await open.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('q') })).code, 201);
  assert.equal((await open.get('pods', 'default', 'q'))?.metadata?.annotations?.['alpha.image-policy.svc.io/failed-open'], 'true');
  open.close();
});

test('ImagePolicyWebhook: the configuration is required and its durations checked', async () => {
  await assert.rejects(admissionRig({ plugins: ['ImagePolicyWebhook'] }), /ImagePolicyWebhook: invalid configuration: an imagePolicy configuration with a kubeConfigFile is required/);
  await assert.rejects(admissionRig({ plugins: ['ImagePolicyWebhook'], configuration: configuration({ allowTTL: 99999 }) }), /allow cache: valid value is between/);
});
