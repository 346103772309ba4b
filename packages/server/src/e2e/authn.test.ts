/**
 * Authentication end to end: a real server process with every method configured, driven over HTTPS with client
 * certificates, static, bootstrap, service account, OIDC and webhook tokens, a proxy with and without its
 * certificate, impersonation headers, TokenReview and SelfSubjectReview; `kubectl auth whoami` in the k8s flavour.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type ConnectionConfig, type RestClient } from '@svc-apiserver/client';
import { namesFor } from '@svc-apiserver/api';
import { startOidcIssuer, startTokenWebhook, testTls, type TestOidcIssuer, type TestTls, type TestWebhook } from '../testing/auth-fixtures.js';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { ensureSigningKey } from '../auth/serviceaccount/keys.js';
import { serviceAccountTokenIssuer, type ServiceAccountTokenIssuer } from '../auth/serviceaccount/token-issuer.js';
import { startServer } from '../server.js';

const ssrPath = '/apis/authentication.svc.io/v1alpha1/selfsubjectreviews';
const ssrBody = { apiVersion: 'authentication.svc.io/v1alpha1', kind: 'SelfSubjectReview' };
const unauthorizedBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

const dir = tempDir({ after }, 'svc-authn-');
let users: TestTls;
let proxies: TestTls;
let issuerTls: TestTls;
let oidc: TestOidcIssuer;
let webhook: TestWebhook;
let server: ServerProcess;
let tokens: ServiceAccountTokenIssuer;
const clients: RestClient[] = [];

function client(extra: Partial<ConnectionConfig>): RestClient {
  const c = createClient({ server: server.admin.server, namespace: 'default', ...(server.admin.ca ? { ca: server.admin.ca } : {}), ...extra });
  clients.push(c);
  return c;
}
const withToken = (token: string) => client({ token });

async function whoami(c: RestClient, headers: Record<string, string> = {}) {
  const r = await call(c, 'POST', ssrPath, ssrBody, headers);
  return r;
}

before(async () => {
  [users, proxies, issuerTls] = await Promise.all([testTls('users-ca'), testTls('proxy-ca'), testTls('issuer-ca')]);
  oidc = await startOidcIssuer(issuerTls);
  webhook = await startTokenWebhook(issuerTls, (token) =>
    token === 'hook-token' ? { authenticated: true, user: { username: 'hooked-user', groups: ['hook-group'] } } : { authenticated: false, error: 'unknown token' });
  writeFileSync(join(dir, 'client-ca.crt'), users.ca.certPem);
  writeFileSync(join(dir, 'proxy-ca.crt'), proxies.ca.certPem);
  writeFileSync(join(dir, 'oidc-ca.crt'), oidc.caPem);
  writeFileSync(join(dir, 'tokens.csv'), 'static-token-0123,stan,uid-stan,"readers,writers"\n');
  writeFileSync(join(dir, 'webhook.kubeconfig'), webhook.kubeconfig());
  server = await startServerProcess({
    extraArgs: [
      `--client-ca-file=${join(dir, 'client-ca.crt')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      '--enable-bootstrap-token-auth',
      `--oidc-issuer-url=${oidc.issuer}`, '--oidc-client-id=svc-client', `--oidc-ca-file=${join(dir, 'oidc-ca.crt')}`,
      '--oidc-groups-claim=groups', '--oidc-groups-prefix=oidc:',
      `--authentication-token-webhook-config-file=${join(dir, 'webhook.kubeconfig')}`, '--authentication-token-webhook-version=v1',
      `--requestheader-client-ca-file=${join(dir, 'proxy-ca.crt')}`, '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group', '--requestheader-extra-headers-prefix=X-Remote-Extra-', '--requestheader-allowed-names=front-proxy',
      '--runtime-config=authentication.svc.io/v1alpha1=true',
    ],
  });
  const key = await ensureSigningKey('', server.dataDir);
  assert.ok(key.ok, 'the server generated its signing key in the data dir');
  tokens = serviceAccountTokenIssuer(namesFor('svc'), key.ok ? key.value : (undefined as never), 'https://svc-apiserver.svc');
});

after(async () => {
  for (const c of clients) c.close();
  await server?.stop();
  await oidc?.close();
  await webhook?.close();
});

test('the generated admin certificate and a certificate from --client-ca-file authenticate', async () => {
  const admin = await whoami(server.client);
  assert.equal(admin.status, 201, admin.text);
  assert.equal(admin.body.status.userInfo.username, 'admin');
  assert.deepEqual(admin.body.status.userInfo.groups, ['system:masters', 'system:authenticated']);
  const cert = await users.client('carol', ['team-a']);
  const carol = await whoami(client({ cert: Buffer.from(cert.certPem), key: Buffer.from(cert.keyPem) }));
  assert.equal(carol.status, 201, carol.text);
  assert.deepEqual(carol.body.status.userInfo, { username: 'carol', groups: ['team-a', 'system:authenticated'] });
  assert.equal(carol.body.kind, 'SelfSubjectReview');
  assert.equal(carol.body.apiVersion, 'authentication.svc.io/v1alpha1');
  const stranger = await (await testTls('stranger')).client('mallory');
  const rejected = await whoami(client({ cert: Buffer.from(stranger.certPem), key: Buffer.from(stranger.keyPem) }));
  assert.equal(rejected.status, 401);
  assert.deepEqual(rejected.body, unauthorizedBody);
});

test('a CA added to --client-ca-file is trusted without a restart', async () => {
  const later = await testTls('later-ca');
  const cert = await later.client('late-user');
  const c = client({ cert: Buffer.from(cert.certPem), key: Buffer.from(cert.keyPem) });
  assert.equal((await whoami(c)).status, 401);
  writeFileSync(join(dir, 'client-ca.crt'), users.ca.certPem + later.ca.certPem);
  assert.ok(await eventually(async () => (await whoami(c)).status === 201, 10_000, 200), 'the reloaded bundle trusts the new CA');
  const carol = await users.client('carol');
  assert.equal((await whoami(client({ cert: Buffer.from(carol.certPem), key: Buffer.from(carol.keyPem) }))).status, 201, 'the old CA still works');
});

test('static, OIDC and webhook tokens; bad tokens are 401 with a Status that reveals nothing', async () => {
  const stan = await whoami(withToken('static-token-0123'));
  assert.deepEqual(stan.body.status.userInfo, { username: 'stan', uid: 'uid-stan', groups: ['readers', 'writers', 'system:authenticated'] });
  const alice = await whoami(withToken(await oidc.token({ groups: ['admins'] })));
  assert.equal(alice.status, 201, alice.text);
  assert.deepEqual(alice.body.status.userInfo, { username: `${oidc.issuer}#alice`, groups: ['oidc:admins', 'system:authenticated'] });
  const hooked = await whoami(withToken('hook-token'));
  assert.deepEqual(hooked.body.status.userInfo, { username: 'hooked-user', groups: ['hook-group', 'system:authenticated'] });
  assert.equal(webhook.reviews.at(-1)?.apiVersion, 'authentication.svc.io/v1');
  for (const bad of ['static-token-9999', await oidc.token({ exp: Math.floor(Date.now() / 1000) - 60 }), 'abcdef.0123456789abcdef', 'x.y.z']) {
    const r = await whoami(withToken(bad));
    assert.equal(r.status, 401, bad.slice(0, 20));
    assert.deepEqual(r.body, unauthorizedBody);
  }
  assert.ok(!server.output().includes('static-token-9999'), 'tokens never reach the log');
  // Anonymous requests are authenticated as system:anonymous; the default policy grants self reviews to
  // system:authenticated only, so the answer names that user in a 403.
  const anonymous = await whoami(server.anonymous);
  assert.equal(anonymous.status, 403, anonymous.text);
  assert.equal(anonymous.body.message,
    'selfsubjectreviews.authentication.svc.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.svc.io" at the cluster scope');
});

test('an authenticating proxy is trusted only with its client certificate', async () => {
  const headers = { 'X-Remote-User': 'proxied', 'X-Remote-Group': 'pg', 'X-Remote-Extra-Acme.com%2Fteam': 'blue' };
  const proxyCert = await proxies.client('front-proxy');
  const viaProxy = await whoami(client({ cert: Buffer.from(proxyCert.certPem), key: Buffer.from(proxyCert.keyPem) }), headers);
  assert.equal(viaProxy.status, 201, viaProxy.text);
  assert.deepEqual(viaProxy.body.status.userInfo, { username: 'proxied', groups: ['pg', 'system:authenticated'], extra: { 'acme.com/team': ['blue'] } });
  const direct = await whoami(server.anonymous, headers);
  assert.equal(direct.status, 403, 'headers without the proxy certificate are ignored');
  assert.match(direct.body.message, /User "system:anonymous" cannot create/);
  const wrongName = await proxies.client('not-front-proxy');
  const r = await whoami(client({ cert: Buffer.from(wrongName.certPem), key: Buffer.from(wrongName.keyPem) }), headers);
  assert.equal(r.status, 401);
});

test('bootstrap tokens authenticate until they expire', async () => {
  const expiration = new Date(Date.now() + 2500).toISOString().replace(/\.\d+Z$/, 'Z');
  const secret = {
    apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.svc.io/token', metadata: { name: 'bootstrap-token-abcdef', namespace: 'svc-system' },
    stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', expiration, 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:nodes' },
  };
  const created = await call(server.client, 'POST', '/api/v1/namespaces/svc-system/secrets', secret);
  assert.equal(created.status, 201, created.text);
  const c = withToken('abcdef.0123456789abcdef');
  const before = await whoami(c);
  assert.equal(before.status, 201, before.text);
  assert.deepEqual(before.body.status.userInfo, { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:nodes', 'system:authenticated'] });
  assert.ok(await eventually(async () => (await whoami(c)).status === 401, 10_000, 200), 'the expired token is rejected');
});

test('service account tokens are revoked by deleting their Secret, service account or Pod', async () => {
  await createNamespace(server.client, 'sa-test');
  const sa = await call(server.client, 'POST', '/api/v1/namespaces/sa-test/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
  assert.equal(sa.status, 201, sa.text);
  const ref = { name: 'robot', uid: sa.body.metadata.uid as string };
  const legacy = await tokens.issueLegacy('sa-test', ref, 'robot-token');
  const secret = await call(server.client, 'POST', '/api/v1/namespaces/sa-test/secrets', {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: 'robot-token' }, stringData: { token: legacy },
  });
  assert.equal(secret.status, 201, secret.text);
  const pod = await call(server.client, 'POST', '/api/v1/namespaces/sa-test/pods', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'busybox' }] },
  });
  assert.equal(pod.status, 201, pod.text);
  const bound = await tokens.issueBound({
    namespace: 'sa-test', serviceAccount: ref, pod: { name: 'worker', uid: pod.body.metadata.uid }, audiences: ['https://svc-apiserver.svc'], expirationSeconds: 3600,
  });
  const legacyUser = await whoami(withToken(legacy));
  assert.deepEqual(legacyUser.body.status.userInfo, {
    username: 'system:serviceaccount:sa-test:robot', uid: ref.uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:sa-test', 'system:authenticated'],
  });
  const boundUser = await whoami(withToken(bound));
  assert.equal(boundUser.status, 201, boundUser.text);
  assert.deepEqual(boundUser.body.status.userInfo.extra, { 'authentication.svc.io/pod-name': ['worker'], 'authentication.svc.io/pod-uid': [pod.body.metadata.uid] });

  // TokenReview with the server's audiences and with a foreign one.
  const review = await call(server.client, 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'TokenReview', spec: { token: bound } });
  assert.equal(review.status, 201, review.text);
  assert.equal(review.body.status.authenticated, true);
  assert.deepEqual(review.body.status.audiences, ['https://svc-apiserver.svc']);
  const foreign = await call(server.client, 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token: bound, audiences: ['vault'] } });
  assert.equal(foreign.body.status.authenticated, undefined, 'false is omitted, as kube encodes it');
  assert.ok(foreign.body.status.error);

  assert.equal((await call(server.client, 'DELETE', '/api/v1/namespaces/sa-test/secrets/robot-token')).status, 200);
  assert.equal((await whoami(withToken(legacy))).status, 401, 'the legacy token dies with its Secret');
  assert.equal((await whoami(withToken(bound))).status, 201, 'the pod-bound token does not depend on that Secret');
  assert.equal((await call(server.client, 'DELETE', '/api/v1/namespaces/sa-test/pods/worker')).status, 200);
  assert.equal((await whoami(withToken(bound))).status, 401, 'the bound token dies with its Pod');
});

test('impersonation headers replace the identity', async () => {
  const r = await whoami(server.client, { 'Impersonate-User': 'jane', 'Impersonate-Group': 'dev', 'Impersonate-Extra-Reason': 'debugging', 'Impersonate-Uid': 'j-1' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.body.status.userInfo, { username: 'jane', uid: 'j-1', groups: ['dev', 'system:authenticated'], extra: { reason: ['debugging'] } });
  const sa = await whoami(server.client, { 'Impersonate-User': 'system:serviceaccount:ns1:robot' });
  assert.deepEqual(sa.body.status.userInfo.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated']);
  const noUser = await whoami(server.client, { 'Impersonate-Group': 'dev' });
  assert.equal(noUser.status, 500);
});

test('SelfSubjectReview is not served unless its alpha version is enabled; TokenReview is', async () => {
  const s = await startServer({ storage: 'memory', securePort: 0, dataDir: join(dir, 'plain'), log: () => {} });
  try {
    const c = createClient({ server: s.url, namespace: 'default', ca: Buffer.from(s.ca), cert: Buffer.from(s.adminCert), key: Buffer.from(s.adminKey) });
    clients.push(c);
    assert.equal((await call(c, 'POST', ssrPath, ssrBody)).status, 404);
    const groups = await call(c, 'GET', '/apis/authentication.svc.io');
    assert.deepEqual(groups.body.versions.map((v: { version: string }) => v.version), ['v1']);
    const review = await call(c, 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token: 'nope' } });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.body.status.authenticated, undefined, 'false is omitted, as kube encodes it');
    assert.deepEqual(review.body.status.user, {});
    const empty = await call(c, 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: {} });
    assert.equal(empty.status, 400);
  } finally {
    await s.close();
  }
});

test('kubectl auth whoami in the k8s flavour', async (t) => {
  const [kubectl] = findKubectls();
  if (kubectl === undefined) {
    t.skip('kubectl is not installed');
    return;
  }
  const k8s = await startServerProcess({ flavour: 'k8s', storage: 'memory', extraArgs: ['--runtime-config=authentication.k8s.io/v1alpha1=true'] });
  const home = tempDir(t, 'kubectl-home-');
  try {
    const run = await runKubectl(kubectl, k8s.kubeconfigPath, home, ['auth', 'whoami', '-o', 'json']);
    assert.equal(run.code, 0, run.stderr);
    const review = JSON.parse(run.stdout);
    assert.equal(review.apiVersion, 'authentication.k8s.io/v1alpha1');
    assert.equal(review.status.userInfo.username, 'admin');
    assert.deepEqual(review.status.userInfo.groups, ['system:masters', 'system:authenticated']);
    const as = await runKubectl(kubectl, k8s.kubeconfigPath, home, ['auth', 'whoami', '--as=jane', '--as-group=dev', '--as-group=qa']);
    assert.equal(as.code, 0, as.stderr);
    assert.match(as.stdout, /Username\s+jane/);
    assert.match(as.stdout, /Groups\s+\[dev qa system:authenticated\]/);
  } finally {
    await k8s.stop();
  }
});
