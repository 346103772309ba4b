import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { admissionRig, type AdmissionRig } from '../testing/admission-test-kit.js';
import { seededRandom } from '../../testing/seeded-random.js';
import { startTestHttpsServer, type Answer, type ReceivedRequest, type TestHttpsServer } from '../testing/test-https-server.js';

const group = 'admissionregistration.svc.io';
let server: TestHttpsServer;
/** The same answers from a server that speaks HTTP/2. */
let http2Server: TestHttpsServer;
let rig: AdmissionRig;
let next: (req: ReceivedRequest) => Answer = () => ({ json: {} });

before(async () => {
  server = await startTestHttpsServer();
  server.handle((req) => next(req));
  http2Server = await startTestHttpsServer([], { http2: true });
  http2Server.handle((req) => next(req));
  rig = await admissionRig({ plugins: ['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'] });
  const hook = (name: string, path: string, failurePolicy: string, to = server) => ({
    name, admissionReviewVersions: ['v1'], sideEffects: 'None', timeoutSeconds: 1, failurePolicy,
    clientConfig: { url: `${to.url}${path}`, caBundle: to.caBundle },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  });
  for (const [kind, resource] of [['Mutating', 'mutatingwebhookconfigurations'], ['Validating', 'validatingwebhookconfigurations']]) {
    const created = await rig.call({ verb: 'create', group, resource, body: { apiVersion: `${group}/v1`, kind: `${kind}WebhookConfiguration`, metadata: { name: 'fuzz' },
      webhooks: [
        hook(`fail.${kind!.toLowerCase()}.example.com`, '/fail', 'Fail'), hook(`ignore.${kind!.toLowerCase()}.example.com`, '/ignore', 'Ignore'),
        hook(`fail-h2.${kind!.toLowerCase()}.example.com`, '/fail', 'Fail', http2Server), hook(`ignore-h2.${kind!.toLowerCase()}.example.com`, '/ignore', 'Ignore', http2Server),
      ] } });
    assert.equal(created.code, 201);
  }
  await new Promise((r) => setTimeout(r, 50));
});
after(async () => {
  rig.close();
  await server.close();
  await http2Server.close();
});

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');

/** Malformed (and some well-formed) answers, each a function of the request. */
const answers: ((req: ReceivedRequest, random: () => number) => Answer)[] = [
  () => ({ raw: '{not json' }),
  () => ({ raw: '' }),
  () => ({ json: [1, 2, 3] }),
  () => ({ json: 'AdmissionReview' }),
  () => ({ json: null }),
  () => ({ json: { apiVersion: 'admission.svc.io/v1', kind: 'AdmissionReview' } }),
  (req) => ({ json: review(req, { uid: 'not-the-uid', allowed: true }) }),
  (req) => ({ json: { ...review(req, { allowed: true }), apiVersion: 'admission.svc.io/v2' } }),
  (req) => ({ json: review(req, { allowed: 'yes' }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: '%%%not base64%%%' }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64('{"op":"add"') }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64({ op: 'add', path: '/x', value: 1 }) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'explode', path: '/data' }]) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'remove', path: '/no/such/path' }]) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'test', path: '/kind', value: 'Secret' }]) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'replace', path: '/data', value: 5 }]) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'replace', path: '', value: [] }]) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/metadata/name', value: { nested: true } }]) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64(Array.from({ length: 20000 }, (_, i) => ({ op: 'add', path: `/data/k${i}`, value: 'v'.repeat(20) }))) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/data/big', value: 'x'.repeat(3_000_000) }]) }) }),
  (req) => ({ json: review(req, { allowed: true, patchType: 'XMLPatch', patch: b64([]) }) }),
  (req) => ({ json: review(req, { allowed: true, patch: b64([{ op: 'add', path: '/metadata/labels', value: {} }]) }) }),
  (req) => ({ json: review(req, { allowed: false, status: { code: 99999, message: 7 } }) }),
  (req) => ({ json: review(req, { allowed: false, status: { code: 'teapot' } }) }),
  (req) => ({ json: review(req, { allowed: false, status: 'no' }) }),
  (req) => ({ json: review(req, { allowed: false, status: { code: 302, message: 'moved' } }) }),
  (req) => ({ json: review(req, { allowed: true, warnings: [1, { a: 1 }] }) }),
  (req) => ({ json: review(req, { allowed: true, warnings: Array.from({ length: 50 }, () => 'w'.repeat(500)) }) }),
  (req) => ({ json: review(req, { allowed: true, auditAnnotations: { a: 1, b: 'x' } }) }),
  (req) => ({ status: 500, json: review(req, { allowed: true }) }),
  (req) => ({ status: 418, raw: 'teapot' }),
  (req) => ({ json: review(req, { allowed: true }), delayMs: 1300 }),
  (req) => ({ json: review(req, { allowed: true }) }),
  (req, random) => ({ json: review(req, { allowed: random() < 0.5 }) }),
];

function review(req: ReceivedRequest, response: Record<string, unknown>): Record<string, unknown> {
  const body = req.body as { request?: { uid?: string } } | undefined;
  return { apiVersion: 'admission.svc.io/v1', kind: 'AdmissionReview', response: { uid: body?.request?.uid, ...response } };
}

test('malformed webhook answers, over HTTP/1.1 and HTTP/2, never throw, hang or crash: every request ends with an object or a Status', async () => {
  const random = seededRandom(42);
  let slow = 0;
  for (let i = 0; i < 70; i++) {
    let pick = answers[Math.floor(random() * answers.length)]!;
    // Slow answers cost their timeout each; a few suffice.
    if (pick === answers[31] && ++slow > 2) pick = answers[32]!;
    next = (req) => pick(req, random);
    const started = Date.now();
    const res = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, data: { k: 'v' } } });
    const took = Date.now() - started;
    assert.ok(took < 5000, `case ${i} took ${took} ms`);
    assert.equal(typeof res.code, 'number', `case ${i}`);
    assert.ok(res.code! >= 200 && res.code! <= 999, `case ${i}: code ${res.code}`);
    const body = res.body as { kind?: string; message?: unknown };
    assert.ok(body.kind === 'ConfigMap' || body.kind === 'Status', `case ${i}: ${JSON.stringify(body).slice(0, 200)}`);
    if (body.kind === 'Status') assert.equal(typeof body.message, 'string', `case ${i}`);
  }
});
