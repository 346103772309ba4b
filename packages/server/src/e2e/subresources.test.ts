/**
 * Subresources end to end against the real server: scale (and `kubectl scale deployment` in the k8s flavour when
 * kubectl is on PATH), pods/binding, eviction refused and then allowed by a PodDisruptionBudget, a TokenRequest
 * whose token then authenticates, CSR approval, and pods/log answering its Status error.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call, createNamespace } from './http.js';
import { kubectlsOrSkip, runKubectl } from '@svc-apiserver/testing/kubectl';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { testCertificateRequest } from '../testing/test-requests.js';

const names = namesFor('svc');
const ns = 'subres';
const base = `/api/v1/namespaces/${ns}`;
const apps = `/apis/apps/v1/namespaces/${ns}`;
let server: ServerProcess;

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } };
const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template } });
const pod = (name: string, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...extra } });

before(async () => {
  server = await startServerProcess({ storage: 'memory' });
  await createNamespace(server.client, ns);
});
after(async () => {
  await server?.stop();
});

test('scale: get, put and merge-patch the Scale of a deployment', async () => {
  assert.equal((await call(server.client, 'POST', `${apps}/deployments`, deployment('web'))).status, 201);
  const got = await call(server.client, 'GET', `${apps}/deployments/web/scale`);
  assert.equal(got.status, 200);
  assert.equal(got.body.kind, 'Scale');
  assert.equal(got.body.apiVersion, 'autoscaling/v1');
  assert.deepEqual(got.body.spec, { replicas: 1 });
  assert.deepEqual(got.body.status, { replicas: 0, selector: 'app=web' });
  const put = await call(server.client, 'PUT', `${apps}/deployments/web/scale`, { ...got.body, spec: { replicas: 3 } });
  assert.equal(put.status, 200, put.text);
  const patched = await call(server.client, 'PATCH', `${apps}/deployments/web/scale`, { spec: { replicas: 4 } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(patched.status, 200, patched.text);
  const dep = await call(server.client, 'GET', `${apps}/deployments/web`);
  assert.equal(dep.body.spec.replicas, 4);
});

test('binding: a pod is assigned once', async () => {
  assert.equal((await call(server.client, 'POST', `${base}/pods`, pod('bound'))).status, 201);
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } };
  const r = await call(server.client, 'POST', `${base}/pods/bound/binding`, binding);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.status, 'Success');
  assert.equal((await call(server.client, 'GET', `${base}/pods/bound`)).body.spec.nodeName, 'node-1');
  const again = await call(server.client, 'POST', `${base}/bindings`, { ...binding, target: { kind: 'Node', name: 'node-2' } });
  assert.equal(again.status, 409);
  assert.equal(again.body.reason, 'Conflict');
});

test('eviction: 429 while the PodDisruptionBudget allows no disruption, then the pod goes', async () => {
  const created = await call(server.client, 'POST', `${base}/pods`, pod('evictme'));
  const running = await call(server.client, 'PUT', `${base}/pods/evictme/status`,
    { ...created.body, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
  assert.equal(running.status, 200, running.text);
  const pdb = await call(server.client, 'POST', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`,
    { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'budget' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  assert.equal(pdb.status, 201, pdb.text);
  const setStatus = async (disruptionsAllowed: number) => {
    const current = await call(server.client, 'GET', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/budget`);
    const r = await call(server.client, 'PUT', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/budget/status`,
      { ...current.body, status: { observedGeneration: 1, disruptionsAllowed, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 } });
    assert.equal(r.status, 200, r.text);
  };
  await setStatus(0);
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evictme', namespace: ns } };
  const refused = await call(server.client, 'POST', `${base}/pods/evictme/eviction`, eviction);
  assert.equal(refused.status, 429, refused.text);
  assert.equal(refused.body.reason, 'TooManyRequests');
  assert.equal(refused.body.details.causes[0].reason, 'DisruptionBudget');
  assert.equal((await call(server.client, 'GET', `${base}/pods/evictme`)).status, 200);
  await setStatus(1);
  const allowed = await call(server.client, 'POST', `${base}/pods/evictme/eviction`, eviction);
  assert.equal(allowed.status, 201, allowed.text);
  assert.equal((await call(server.client, 'GET', `${base}/pods/evictme`)).status, 404);
});

test('token request: the issued token authenticates as the service account', async () => {
  assert.equal((await call(server.client, 'POST', `${base}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status, 201);
  const r = await call(server.client, 'POST', `${base}/serviceaccounts/robot/token`,
    { apiVersion: `${names.group('authentication')}/v1`, kind: 'TokenRequest', spec: { expirationSeconds: 600 } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.spec.expirationSeconds, 600);
  const token: string = r.body.status.token;
  assert.ok(token.split('.').length === 3);
  const review = await call(server.client, 'POST', `/apis/${names.group('authentication')}/v1/tokenreviews`,
    { apiVersion: `${names.group('authentication')}/v1`, kind: 'TokenReview', spec: { token } });
  assert.equal(review.status, 201, review.text);
  assert.equal(review.body.status.authenticated, true);
  assert.equal(review.body.status.user.username, `system:serviceaccount:${ns}:robot`);
  const asRobot = await call(server.anonymous, 'GET', `${base}/configmaps`, undefined, { authorization: `Bearer ${token}` });
  assert.notEqual(asRobot.status, 401, asRobot.text);
  const bogus = await call(server.anonymous, 'GET', `${base}/configmaps`, undefined, { authorization: `Bearer ${token.slice(0, -4)}AAAA` });
  assert.equal(bogus.status, 401);
  const short = await call(server.client, 'POST', `${base}/serviceaccounts/robot/token`, { spec: { expirationSeconds: 60 } });
  assert.equal(short.status, 422);
});

test('CSR approval: approved through the approval subresource only', async () => {
  const path = `/apis/${names.group('certificates')}/v1/certificatesigningrequests`;
  const { requestPem } = await testCertificateRequest({ commonName: 'csr-1' });
  const csr = { apiVersion: `${names.group('certificates')}/v1`, kind: 'CertificateSigningRequest', metadata: { name: 'csr-1' },
    spec: { request: Buffer.from(requestPem).toString('base64'), signerName: 'example.com/signer', usages: ['client auth'] } };
  const created = await call(server.client, 'POST', path, csr);
  assert.equal(created.status, 201, created.text);
  const approvedCondition = { type: 'Approved', status: 'True', reason: 'E2E', message: 'approved by test' };
  const viaStatus = await call(server.client, 'PUT', `${path}/csr-1/status`, { ...created.body, status: { conditions: [approvedCondition] } });
  assert.equal(viaStatus.status, 422, viaStatus.text);
  assert.match(viaStatus.body.message, /updates may not add a condition of type "Approved"/);
  const approved = await call(server.client, 'PUT', `${path}/csr-1/approval`, { ...created.body, status: { conditions: [approvedCondition] } });
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.body.status.conditions[0].type, 'Approved');
  assert.ok(approved.body.status.conditions[0].lastUpdateTime);
});

test('pods/log and exec answer a Status error (no node agent)', async () => {
  assert.equal((await call(server.client, 'POST', `${base}/pods`, pod('logs'))).status, 201);
  const log = await call(server.client, 'GET', `${base}/pods/logs/log`);
  assert.equal(log.status, 400, log.text);
  assert.equal(log.body.kind, 'Status');
  assert.equal(log.body.message, 'pod logs does not have a host assigned');
  const boundLog = await call(server.client, 'GET', `${base}/pods/bound/log`);
  assert.equal(boundLog.status, 503, boundLog.text);
  assert.equal(boundLog.body.reason, 'ServiceUnavailable');
  const exec = await call(server.client, 'POST', `${base}/pods/bound/exec?command=ls`);
  assert.equal(exec.status, 503, exec.text);
});

const kubectl = kubectlsOrSkip('kubectl scale deployment (k8s flavour)', [])[0];
if (kubectl !== undefined) {
  const bin = kubectl;
  describe('kubectl scale deployment, k8s flavour', () => {
    let k8s: ServerProcess;
    const home = tempDir({ after }, 'kubectl-home-');
    before(async () => {
      k8s = await startServerProcess({ flavour: 'k8s', storage: 'memory' });
    });
    after(async () => {
      await k8s?.stop();
    });
    test('kubectl scale changes the replicas through the scale subresource', async () => {
      assert.equal((await call(k8s.client, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web'))).status, 201);
      const r = await runKubectl(bin, k8s.kubeconfigPath, home, ['scale', 'deployment', 'web', '--replicas=3', '-n', 'default']);
      assert.equal(r.code, 0, `${r.stderr}${r.stdout}`);
      assert.match(r.stdout, /deployment.apps\/web scaled/);
      const dep = await call(k8s.client, 'GET', '/apis/apps/v1/namespaces/default/deployments/web');
      assert.equal(dep.body.spec.replicas, 3);
      const stale = await runKubectl(bin, k8s.kubeconfigPath, home, ['scale', 'deployment', 'web', '--replicas=5', '--current-replicas=1', '-n', 'default']);
      assert.notEqual(stale.code, 0, 'a --current-replicas precondition that does not hold fails');
    });
    test('kubectl create token, certificate approve and logs', async () => {
      assert.equal((await call(k8s.client, 'POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status, 201);
      const token = await runKubectl(bin, k8s.kubeconfigPath, home, ['create', 'token', 'robot', '-n', 'default', '--duration=15m']);
      assert.equal(token.code, 0, `${token.stderr}${token.stdout}`);
      assert.equal(token.stdout.trim().split('.').length, 3);
      const { requestPem } = await testCertificateRequest({ commonName: 'csr-k' });
      const csr = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'csr-k' },
        spec: { request: Buffer.from(requestPem).toString('base64'), signerName: 'example.com/signer', usages: ['client auth'] } };
      assert.equal((await call(k8s.client, 'POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', csr)).status, 201);
      const approve = await runKubectl(bin, k8s.kubeconfigPath, home, ['certificate', 'approve', 'csr-k']);
      assert.equal(approve.code, 0, `${approve.stderr}${approve.stdout}`);
      const got = await call(k8s.client, 'GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/csr-k');
      assert.equal(got.body.status.conditions[0].type, 'Approved');
      assert.equal((await call(k8s.client, 'POST', '/api/v1/namespaces/default/pods', pod('p'))).status, 201);
      const logs = await runKubectl(bin, k8s.kubeconfigPath, home, ['logs', 'p', '-n', 'default']);
      assert.notEqual(logs.code, 0);
      assert.match(logs.stderr, /pod p does not have a host assigned/);
    });
  });
}
