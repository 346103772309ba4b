/**
 * The identities the server hands out, end to end over HTTPS against a real in-process server (its controllers on a
 * clock the test steps): a namespace gets its `default` account and root CA ConfigMap; a Pod gets the token volume;
 * a legacy token Secret is filled and its token authenticates until its account goes; an openssl key and request
 * become a client certificate that authenticates; denied, failed and unauthorized paths; a node joining with a
 * bootstrap token gets its client certificate approved automatically; the CSR cleaner's periods;
 * `cluster-info` signed for a bootstrap token and verified as document 2 describes; expired bootstrap tokens
 * removed; service account issuer discovery; controllers switched off. In the k8s flavour, `kubectl certificate
 * approve` where kubectl is present.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactVerify, importJWK, jwtVerify } from 'jose';
import { parse } from 'yaml';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { startServer, type RunningServer } from '../server.js';
import { fakeClock, type FakeClock } from '../controllers/kit/clock.js';
import { testCertificateRequest } from '../testing/test-requests.js';
import { call, createNamespace, eventually } from './http.js';
import { kubectlsOrSkip, runKubectl } from '@svc-apiserver/testing/kubectl';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { startServerProcess, type ServerProcess } from './server-process.js';

const csrPath = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const tokens = ['approver-token,alice,uid-alice', 'requester-token,jane,uid-jane,dev', 'nobody-token,nora,uid-nora'].join('\n');

/** A key and a request made by openssl when it is installed (as a user would), else by the test's own generator. */
function keyAndRequest(dir: string, name: string, subject: string): { keyPem: string; requestPem: string } | undefined {
  try {
    const key = join(dir, `${name}.key`);
    const req = join(dir, `${name}.csr`);
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-subj', subject, '-out', req], { stdio: 'ignore' });
    return { keyPem: readFileSync(key, 'utf8'), requestPem: readFileSync(req, 'utf8') };
  } catch {
    return undefined;
  }
}

async function requestFor(dir: string, name: string, commonName: string, organizations: string[]): Promise<{ keyPem: string; requestPem: string }> {
  const subject = `/CN=${commonName}${organizations.map((o) => `/O=${o}`).join('')}`;
  return keyAndRequest(dir, name, subject) ?? testCertificateRequest({ commonName, organizations });
}

const csrBody = (name: string, requestPem: string, signerName: string, usages: string[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: Buffer.from(requestPem).toString('base64'), signerName, usages, ...extra },
});

describe('identities, svc flavour', () => {
  const dir = tempDir({ after }, 'svc-identities-');
  let server: RunningServer;
  let clock: FakeClock;
  let admin: RestClient;
  const clients: RestClient[] = [];
  const client = (extra: { token?: string; cert?: string; key?: string } = {}): RestClient => {
    const c = createClient({
      server: server.url, namespace: 'default', ca: Buffer.from(server.ca),
      ...(extra.token ? { token: extra.token } : {}),
      ...(extra.cert ? { cert: Buffer.from(extra.cert), key: Buffer.from(extra.key ?? '') } : {}),
    });
    clients.push(c);
    return c;
  };

  before(async () => {
    writeFileSync(join(dir, 'tokens.csv'), `${tokens}\n`);
    clock = fakeClock(Date.now());
    server = await startServer({
      dataDir: dir, securePort: 0, storage: 'memory', clock, log: () => {},
      tokenAuthFile: join(dir, 'tokens.csv'), enableBootstrapTokenAuth: true,
      controllers: ['*', 'bootstrapsigner', 'tokencleaner'],
      runtimeConfig: ['authentication.svc.io/v1alpha1=true'],
      clusterSigningDurationMs: 24 * 3_600_000,
    });
    await server.ready();
    admin = client({ cert: server.adminCert, key: server.adminKey });
    // alice may approve for the API client signer; jane and nora hold nothing beyond the defaults.
    const rbac = '/apis/rbac.authorization.svc.io/v1';
    assert.equal((await call(admin, 'POST', `${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'csr-approver' },
      rules: [
        { apiGroups: ['certificates.svc.io'], resources: ['certificatesigningrequests'], verbs: ['get', 'list', 'watch', 'create'] },
        { apiGroups: ['certificates.svc.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
        { apiGroups: ['certificates.svc.io'], resources: ['signers'], resourceNames: ['svc.io/*'], verbs: ['approve'] },
      ],
    })).status, 201);
    assert.equal((await call(admin, 'POST', `${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'csr-requester' },
      rules: [
        { apiGroups: ['certificates.svc.io'], resources: ['certificatesigningrequests'], verbs: ['get', 'create'] },
        { apiGroups: ['certificates.svc.io'], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['update'] },
      ],
    })).status, 201);
    for (const [name, role, user] of [['alice-approves', 'csr-approver', 'alice'], ['jane-requests', 'csr-requester', 'jane'], ['nora-requests', 'csr-requester', 'nora']]) {
      assert.equal((await call(admin, 'POST', `${rbac}/clusterrolebindings`, {
        apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRoleBinding', metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: role },
        subjects: [{ apiGroup: 'rbac.authorization.svc.io', kind: 'User', name: user }],
      })).status, 201);
    }
  });

  after(async () => {
    for (const c of clients) c.close();
    await server?.close();
  });

  test('a new namespace gets its default account and root CA ConfigMap within a second', async () => {
    const started = Date.now();
    await createNamespace(admin, 'fresh');
    assert.ok(await eventually(async () =>
      (await call(admin, 'GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).status === 200
      && (await call(admin, 'GET', '/api/v1/namespaces/fresh/configmaps/svc-root-ca.crt')).status === 200, 1000, 10), 'within a second');
    assert.ok(Date.now() - started < 1500);
    const cm = await call(admin, 'GET', '/api/v1/namespaces/fresh/configmaps/svc-root-ca.crt');
    assert.deepEqual(cm.body.data, { 'ca.crt': server.ca });
    assert.ok(new X509Certificate(server.ca).checkIssued(new X509Certificate(server.ca)), 'the CA that verifies this server');
  });

  test('a Pod gets the token volume mounted read-only in every container; a missing account is refused', async () => {
    await createNamespace(admin, 'pods');
    const created = await call(admin, 'POST', '/api/v1/namespaces/pods/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' },
      spec: { initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'app', image: 'nginx' }, { name: 'side', image: 'envoy' }] },
    });
    assert.equal(created.status, 201, created.text);
    const spec = created.body.spec;
    assert.equal(spec.serviceAccountName, 'default');
    assert.equal(spec.serviceAccount, 'default');
    assert.equal(spec.volumes.length, 1);
    const volume = spec.volumes[0];
    assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.deepEqual(volume.projected, {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'svc-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    for (const c of [...spec.initContainers, ...spec.containers]) {
      assert.deepEqual(c.volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/svc.io/serviceaccount' }], c.name);
    }
    const optOut = await call(admin, 'POST', '/api/v1/namespaces/pods/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'quiet' }, spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }] },
    });
    assert.equal(optOut.status, 201, optOut.text);
    assert.equal(optOut.body.spec.volumes, undefined);
    const missing = await call(admin, 'POST', '/api/v1/namespaces/pods/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'lost' }, spec: { serviceAccountName: 'ghost', containers: [{ name: 'c', image: 'nginx' }] },
    });
    assert.equal(missing.status, 403);
    assert.equal(missing.body.reason, 'Forbidden');
    assert.equal(missing.body.message, 'pods "lost" is forbidden: error looking up service account pods/ghost: serviceaccount "ghost" not found');
  });

  test('a legacy token Secret is filled, authenticates as its account, and stops working when the account goes', async () => {
    await createNamespace(admin, 'legacy');
    const unnamed = await call(admin, 'POST', '/api/v1/namespaces/legacy/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bare' }, type: 'svc.io/service-account-token' });
    assert.equal(unnamed.status, 422);
    assert.match(unnamed.body.message, /metadata.annotations\[svc.io\/service-account.name\]: Required value/);
    const robot = await call(admin, 'POST', '/api/v1/namespaces/legacy/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
    assert.equal(robot.status, 201);
    assert.equal((await call(admin, 'POST', '/api/v1/namespaces/legacy/secrets', {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 'robot-token', annotations: { 'svc.io/service-account.name': 'robot' } }, type: 'svc.io/service-account-token',
    })).status, 201);
    let secret: { data?: Record<string, string>; metadata: { annotations: Record<string, string> } } | undefined;
    assert.ok(await eventually(async () => {
      secret = (await call(admin, 'GET', '/api/v1/namespaces/legacy/secrets/robot-token')).body;
      return secret?.data?.['token'] !== undefined;
    }, 5000, 20));
    const decode = (k: string) => Buffer.from(secret!.data![k]!, 'base64').toString('utf8');
    assert.equal(decode('ca.crt'), server.ca);
    assert.equal(decode('namespace'), 'legacy');
    assert.equal(secret!.metadata.annotations['svc.io/service-account.uid'], robot.body.metadata.uid);
    const asRobot = client({ token: decode('token') });
    const whoami = await call(asRobot, 'POST', '/apis/authentication.svc.io/v1alpha1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1alpha1', kind: 'SelfSubjectReview' });
    assert.equal(whoami.status, 201, whoami.text);
    assert.deepEqual(whoami.body.status.userInfo, {
      username: 'system:serviceaccount:legacy:robot', uid: robot.body.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:legacy', 'system:authenticated'],
    });
    assert.equal((await call(admin, 'DELETE', '/api/v1/namespaces/legacy/serviceaccounts/robot')).status, 200);
    assert.ok(await eventually(async () => (await call(admin, 'GET', '/api/v1/namespaces/legacy/secrets/robot-token')).status === 404, 5000, 20), 'the Secret goes with its account');
    assert.equal((await call(asRobot, 'POST', '/apis/authentication.svc.io/v1alpha1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1alpha1', kind: 'SelfSubjectReview' })).status, 401);
  });

  test('openssl key and request → create → approve → a client certificate that authenticates', async () => {
    const jane = client({ token: 'requester-token' });
    const alice = client({ token: 'approver-token' });
    const { keyPem, requestPem } = await requestFor(dir, 'jane', 'jane', ['dev', 'qa']);
    const created = await call(jane, 'POST', csrPath, csrBody('jane-client', requestPem, 'svc.io/api-client', ['client auth'], { expirationSeconds: 3600, username: 'root' }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.spec.username, 'jane', 'the requester, not what the client wrote');
    assert.deepEqual(created.body.spec.groups, ['dev', 'system:authenticated']);
    assert.equal(created.body.spec.uid, 'uid-jane');
    const selfApproval = await call(jane, 'PUT', `${csrPath}/jane-client/approval`, { ...created.body, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Self' }] } });
    assert.equal(selfApproval.status, 403);
    assert.equal(selfApproval.body.message, 'certificatesigningrequests.certificates.svc.io "jane-client" is forbidden: user not permitted to approve requests with signerName "svc.io/api-client"');
    const before = Date.now();
    const approved = await call(alice, 'PUT', `${csrPath}/jane-client/approval`, { ...created.body, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Reviewed' }] } });
    assert.equal(approved.status, 200, approved.text);
    let issued = '';
    assert.ok(await eventually(async () => {
      issued = (await call(jane, 'GET', `${csrPath}/jane-client`)).body.status?.certificate ?? '';
      return issued !== '';
    }, 5000, 20), 'issued');
    const certPem = Buffer.from(issued, 'base64').toString('utf8');
    const cert = new X509Certificate(certPem);
    assert.equal(cert.subject, 'CN=jane\nO=dev\nO=qa');
    assert.equal(cert.ca, false);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2'], 'client auth only');
    assert.ok(cert.checkPrivateKey((await import('node:crypto')).createPrivateKey(keyPem)), 'the request key');
    assert.ok(cert.checkIssued(new X509Certificate(server.ca)));
    const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    assert.ok(lifetime <= 3600_000, `lifetime ${lifetime} within expirationSeconds`);
    assert.ok(Date.parse(cert.validTo) <= before + 3600_000 + 1000);
    const asJane = client({ cert: certPem, key: keyPem });
    const whoami = await call(asJane, 'POST', '/apis/authentication.svc.io/v1alpha1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1alpha1', kind: 'SelfSubjectReview' });
    assert.equal(whoami.status, 201, whoami.text);
    assert.deepEqual(whoami.body.status.userInfo, { username: 'jane', groups: ['dev', 'qa', 'system:authenticated'] });
  });

  test('denied, failed, forbidden subjects and certificates written without sign', async () => {
    const jane = client({ token: 'requester-token' });
    const nora = client({ token: 'nobody-token' });
    const alice = client({ token: 'approver-token' });
    const masters = await requestFor(dir, 'root', 'root', ['system:masters']);
    const refused = await call(jane, 'POST', csrPath, csrBody('masters', masters.requestPem, 'svc.io/api-client', ['client auth']));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, 'certificatesigningrequests.certificates.svc.io "masters" is forbidden: use of svc.io/api-client signer with system:masters group is not allowed');

    const plain = await requestFor(dir, 'plain', 'nora', ['dev']);
    const denied = await call(nora, 'POST', csrPath, csrBody('denied', plain.requestPem, 'svc.io/api-client', ['client auth']));
    assert.equal(denied.status, 201);
    const deny = await call(alice, 'PUT', `${csrPath}/denied/approval`, { ...denied.body, status: { conditions: [{ type: 'Denied', status: 'True', reason: 'No' }] } });
    assert.equal(deny.status, 200, deny.text);
    const both = await call(alice, 'PUT', `${csrPath}/denied/approval`, { ...deny.body, status: { conditions: [...deny.body.status.conditions, { type: 'Approved', status: 'True' }] } });
    assert.equal(both.status, 422);

    const failing = await call(nora, 'POST', csrPath, csrBody('failing', plain.requestPem, 'svc.io/api-client', ['client auth', 'server auth']));
    assert.equal(failing.status, 201);
    assert.equal((await call(alice, 'PUT', `${csrPath}/failing/approval`, { ...failing.body, status: { conditions: [{ type: 'Approved', status: 'True' }] } })).status, 200);
    let failed: { type: string; reason: string; message: string } | undefined;
    assert.ok(await eventually(async () => {
      failed = ((await call(admin, 'GET', `${csrPath}/failing`)).body.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Failed');
      return failed !== undefined;
    }, 5000, 20));
    assert.equal(failed!.reason, 'SignerValidationFailure');
    assert.equal(failed!.message, 'invalid usage for client certificate: server auth');

    const pending = await call(nora, 'POST', csrPath, csrBody('forged', plain.requestPem, 'example.com/signer', ['client auth']));
    assert.equal(pending.status, 201);
    const garbage = await call(nora, 'PUT', `${csrPath}/forged/status`, { ...pending.body, status: { certificate: 'Zm9v' } });
    assert.equal(garbage.status, 422, 'not PEM');
    const forged = await call(nora, 'PUT', `${csrPath}/forged/status`, { ...pending.body, status: { certificate: Buffer.from(server.ca).toString('base64') } });
    assert.equal(forged.status, 403);
    assert.equal(forged.body.message, 'certificatesigningrequests.certificates.svc.io "forged" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');
    await eventually(async () => false, 200, 50);
    assert.equal((await call(admin, 'GET', `${csrPath}/denied`)).body.status.certificate, undefined, 'a denied request is never signed');
  });

  test('a node joins with a bootstrap token: its client certificate request is approved automatically and signed', async () => {
    const id = 'joinme';
    const secret = 'abcdef0123456789';
    assert.equal((await call(admin, 'POST', '/api/v1/namespaces/svc-system/secrets', {
      apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.svc.io/token', metadata: { name: `bootstrap-token-${id}` },
      stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true' },
    })).status, 201);
    const joiner = client({ token: `${id}.${secret}` });
    // Bootstrappers may request node client certificates, approved automatically (as kubeadm binds them).
    for (const [name, role] of [['bootstrappers-request', 'system:node-bootstrapper'], ['bootstrappers-autoapprove', 'system:certificates.svc.io:certificatesigningrequests:nodeclient']]) {
      assert.equal((await call(admin, 'POST', '/apis/rbac.authorization.svc.io/v1/clusterrolebindings', {
        apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRoleBinding', metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: role },
        subjects: [{ apiGroup: 'rbac.authorization.svc.io', kind: 'Group', name: 'system:bootstrappers' }],
      })).status, 201);
    }
    const nodeKey = await requestFor(dir, 'node', 'system:node:worker-1', ['system:nodes']);
    const nodeCsr = await call(joiner, 'POST', csrPath, csrBody('node-worker-1', nodeKey.requestPem, 'svc.io/api-client-node', ['digital signature', 'key encipherment', 'client auth']));
    assert.equal(nodeCsr.status, 201, nodeCsr.text);
    let nodeCert = '';
    assert.ok(await eventually(async () => {
      nodeCert = (await call(joiner, 'GET', `${csrPath}/node-worker-1`)).body.status?.certificate ?? '';
      return nodeCert !== '';
    }, 5000, 20), 'auto-approved and signed');
    const approval = (await call(admin, 'GET', `${csrPath}/node-worker-1`)).body.status.conditions[0];
    assert.deepEqual([approval.type, approval.reason], ['Approved', 'AutoApproved']);
    const asNode = client({ cert: Buffer.from(nodeCert, 'base64').toString(), key: nodeKey.keyPem });
    const node = await call(asNode, 'POST', '/apis/authentication.svc.io/v1alpha1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1alpha1', kind: 'SelfSubjectReview' });
    assert.deepEqual(node.body.status.userInfo, { username: 'system:node:worker-1', groups: ['system:nodes', 'system:authenticated'] });
  });

  test('the cleaner: decided requests go after an hour, pending ones after a day, on the controller clock', async () => {
    const plain = await requestFor(dir, 'clean', 'c', ['dev']);
    const approved = await call(admin, 'POST', csrPath, csrBody('clean-approved', plain.requestPem, 'example.com/signer', ['client auth']));
    const pending = await call(admin, 'POST', csrPath, csrBody('clean-pending', plain.requestPem, 'example.com/signer', ['client auth']));
    assert.equal(approved.status, 201);
    assert.equal(pending.status, 201);
    assert.equal((await call(admin, 'PUT', `${csrPath}/clean-approved/approval`, { ...approved.body, status: { conditions: [{ type: 'Approved', status: 'True' }] } })).status, 200);
    const exists = async (name: string) => (await call(admin, 'GET', `${csrPath}/${name}`)).status === 200;
    clock.step(50 * 60_000);
    await eventually(async () => false, 100, 50);
    assert.equal(await exists('clean-approved'), true, 'kept within the hour');
    clock.step(11 * 60_000);
    assert.ok(await eventually(async () => !(await exists('clean-approved')), 5000, 20), 'approved request deleted after an hour');
    assert.ok(!(await exists('denied')) && !(await exists('failing')), 'denied and failed ones too');
    assert.equal(await exists('clean-pending'), true);
    clock.step(23 * 3_600_000);
    assert.ok(await eventually(async () => !(await exists('clean-pending')), 5000, 20), 'pending request deleted after a day');
  });

  test('cluster-info: anonymous get, a signature per signing token that verifies with the token; expired tokens removed', async () => {
    const anonymous = client();
    const id = 'abcdef';
    const secret = '0123456789abcdef';
    const expiration = new Date(clock.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const created = await call(admin, 'POST', '/api/v1/namespaces/svc-system/secrets', {
      apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.svc.io/token', metadata: { name: `bootstrap-token-${id}` },
      stringData: { 'token-id': id, 'token-secret': secret, expiration, 'usage-bootstrap-signing': 'true', 'usage-bootstrap-authentication': 'true' },
    });
    assert.equal(created.status, 201, created.text);
    let cm: { data: Record<string, string> } | undefined;
    assert.ok(await eventually(async () => {
      const r = await call(anonymous, 'GET', '/api/v1/namespaces/svc-public/configmaps/cluster-info');
      cm = r.status === 200 ? r.body : undefined;
      return cm?.data[`jws-kubeconfig-${id}`] !== undefined;
    }, 5000, 20), 'signed and readable anonymously');
    const kubeconfig = parse(cm!.data['kubeconfig']!);
    assert.equal(kubeconfig.clusters[0].cluster.server, server.url);
    assert.equal(Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), server.ca);
    // Document 2's check: the payload as base64url without padding between the periods, the full token as key.
    const [header, empty, signature] = cm!.data[`jws-kubeconfig-${id}`]!.split('.');
    assert.equal(empty, '');
    const jws = `${header}.${Buffer.from(cm!.data['kubeconfig']!).toString('base64url')}.${signature}`;
    const verified = await compactVerify(jws, new TextEncoder().encode(`${id}.${secret}`));
    assert.equal(verified.protectedHeader.alg, 'HS256');
    await assert.rejects(compactVerify(jws, new TextEncoder().encode(`${id}.fedcba9876543210`)));
    const whoami = await call(client({ token: `${id}.${secret}` }), 'POST', '/apis/authentication.svc.io/v1alpha1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1alpha1', kind: 'SelfSubjectReview' });
    assert.equal(whoami.body.status.userInfo.username, `system:bootstrap:${id}`);


    clock.step(3_600_001);
    assert.ok(await eventually(async () => (await call(admin, 'GET', `/api/v1/namespaces/svc-system/secrets/bootstrap-token-${id}`)).status === 404, 5000, 20), 'expired token removed');
    assert.ok(await eventually(async () => (await call(anonymous, 'GET', '/api/v1/namespaces/svc-public/configmaps/cluster-info')).body.data[`jws-kubeconfig-${id}`] === undefined, 5000, 20));
  });

  test('issuer discovery: service accounts read the configuration and keys, which verify a token this server issued', async () => {
    await createNamespace(admin, 'oidc');
    assert.ok(await eventually(async () => (await call(admin, 'GET', '/api/v1/namespaces/oidc/serviceaccounts/default')).status === 200, 5000, 20));
    const tokenRequest = await call(admin, 'POST', '/api/v1/namespaces/oidc/serviceaccounts/default/token', {
      apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: { audiences: ['https://outside.example'], expirationSeconds: 600 },
    });
    assert.equal(tokenRequest.status, 201, tokenRequest.text);
    const ownToken = await call(admin, 'POST', '/api/v1/namespaces/oidc/serviceaccounts/default/token', { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: {} });
    const asAccount = client({ token: ownToken.body.status.token });
    const config = await call(asAccount, 'GET', '/.well-known/openid-configuration');
    assert.equal(config.status, 200, config.text);
    assert.equal(config.headers['content-type'], 'application/json');
    assert.equal(config.headers['cache-control'], 'public, max-age=3600');
    assert.equal(config.body.issuer, 'https://svc-apiserver.svc');
    assert.equal(config.body.jwks_uri, `${server.url}/openid/v1/jwks`);
    const keys = await call(asAccount, 'GET', '/openid/v1/jwks');
    assert.equal(keys.status, 200);
    assert.equal(keys.headers['content-type'], 'application/jwk-set+json');
    const token: string = tokenRequest.body.status.token;
    const kid = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
    const jwk = keys.body.keys.find((k: { kid: string }) => k.kid === kid);
    const { payload } = await jwtVerify(token, await importJWK(jwk, jwk.alg), { issuer: config.body.issuer, audience: 'https://outside.example' });
    assert.equal(payload.sub, 'system:serviceaccount:oidc:default');
    assert.equal((await call(client(), 'GET', '/.well-known/openid-configuration')).status, 403, 'not for anonymous users by default');
  });
});

test('--controllers switches the identity controllers off and on', async (t) => {
  const dir = tempDir(t, 'svc-identities-off-');
  const server = await startServer({
    dataDir: dir, securePort: 0, storage: 'memory', log: () => {},
    controllers: ['*', '-serviceaccount', '-root-ca-cert-publisher'],
  });
  const admin = createClient({ server: server.url, namespace: 'default', ca: Buffer.from(server.ca), cert: Buffer.from(server.adminCert), key: Buffer.from(server.adminKey) });
  try {
    await server.ready();
    await createNamespace(admin, 'bare');
    await eventually(async () => false, 300, 50);
    assert.equal((await call(admin, 'GET', '/api/v1/namespaces/bare/serviceaccounts/default')).status, 404);
    assert.equal((await call(admin, 'GET', '/api/v1/namespaces/bare/configmaps/svc-root-ca.crt')).status, 404);
    const cm = await call(admin, 'GET', '/api/v1/namespaces/svc-public/configmaps/cluster-info');
    assert.equal(cm.status, 200, 'cluster-info is written whatever the controllers');
    assert.ok(await eventually(async () => (await call(admin, 'GET', '/api/v1/namespaces/svc-system/secrets')).status === 200, 1000));
    assert.equal((await call(admin, 'POST', '/api/v1/namespaces/svc-system/secrets', {
      apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.svc.io/token', metadata: { name: 'bootstrap-token-zzzzzz' },
      stringData: { 'token-id': 'zzzzzz', 'token-secret': 'zzzzzzzzzzzzzzzz', 'usage-bootstrap-signing': 'true', expiration: '2000-01-01T00:00:00Z' },
    })).status, 201);
    await eventually(async () => false, 300, 50);
    assert.equal((await call(admin, 'GET', '/api/v1/namespaces/svc-system/secrets/bootstrap-token-zzzzzz')).status, 200, 'tokencleaner is off by default');
    assert.equal(Object.keys((await call(admin, 'GET', '/api/v1/namespaces/svc-public/configmaps/cluster-info')).body.data).length, 1, 'bootstrapsigner is off by default');
  } finally {
    admin.close();
    await server.close();
  }
});

test('--service-account-private-key-file signs legacy tokens that --service-account-key-file verifies', async (t) => {
  const dir = tempDir(t, 'svc-identities-keys-');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(join(dir, 'legacy.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(dir, 'legacy.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  const server = await startServer({
    dataDir: dir, securePort: 0, storage: 'memory', log: () => {},
    serviceAccountPrivateKeyFile: join(dir, 'legacy.key'), serviceAccountKeyFiles: [join(dir, 'legacy.pub')],
    runtimeConfig: ['authentication.svc.io/v1alpha1=true'],
  });
  const admin = createClient({ server: server.url, namespace: 'default', ca: Buffer.from(server.ca), cert: Buffer.from(server.adminCert), key: Buffer.from(server.adminKey) });
  let asRobot: RestClient | undefined;
  try {
    await server.ready();
    await createNamespace(admin, 'keys');
    assert.equal((await call(admin, 'POST', '/api/v1/namespaces/keys/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status, 201);
    assert.equal((await call(admin, 'POST', '/api/v1/namespaces/keys/secrets', {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 'robot-token', annotations: { 'svc.io/service-account.name': 'robot' } }, type: 'svc.io/service-account-token',
    })).status, 201);
    let token = '';
    assert.ok(await eventually(async () => {
      const data = (await call(admin, 'GET', '/api/v1/namespaces/keys/secrets/robot-token')).body.data;
      token = data?.token === undefined ? '' : Buffer.from(data.token, 'base64').toString('utf8');
      return token !== '';
    }, 5000, 20));
    // Signed by the given key: its public half verifies the token outside the server.
    const verified = await jwtVerify(token, publicKey);
    assert.equal(verified.payload.sub, 'system:serviceaccount:keys:robot');
    asRobot = createClient({ server: server.url, namespace: 'keys', ca: Buffer.from(server.ca), token });
    const whoami = await call(asRobot, 'POST', '/apis/authentication.svc.io/v1alpha1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1alpha1', kind: 'SelfSubjectReview' });
    assert.equal(whoami.status, 201, whoami.text);
    assert.equal(whoami.body.status.userInfo.username, 'system:serviceaccount:keys:robot');
  } finally {
    asRobot?.close();
    admin.close();
    await server.close();
  }
});

const [bin] = kubectlsOrSkip('kubectl certificate approve (k8s flavour)', []);
if (bin !== undefined) {
  describe('identities, k8s flavour with kubectl', () => {
    let server: ServerProcess;
    const home = tempDir({ after }, 'kubectl-home-');
    before(async () => {
      server = await startServerProcess({ flavour: 'k8s', storage: 'memory' });
    });
    after(async () => {
      await server?.stop();
    });
    test('kubectl certificate approve issues a certificate; pods mount the Kubernetes path', async () => {
      const { keyPem, requestPem } = await requestFor(home, 'kube', 'kube-user', ['devs']);
      const path = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
      const created = await call(server.client, 'POST', path, {
        apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'kube-user' },
        spec: { request: Buffer.from(requestPem).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 86400 },
      });
      assert.equal(created.status, 201, created.text);
      const approve = await runKubectl(bin, server.kubeconfigPath, home, ['certificate', 'approve', 'kube-user']);
      assert.equal(approve.code, 0, `${approve.stderr}${approve.stdout}`);
      let issued = '';
      assert.ok(await eventually(async () => {
        issued = (await call(server.client, 'GET', `${path}/kube-user`)).body.status?.certificate ?? '';
        return issued !== '';
      }, 10_000, 50));
      const listed = await runKubectl(bin, server.kubeconfigPath, home, ['get', 'csr', 'kube-user']);
      assert.match(listed.stdout, /kubernetes\.io\/kube-apiserver-client\s+admin\s+24h\s+Approved,Issued/);
      const certPem = Buffer.from(issued, 'base64').toString();
      const asUser = createClient({ server: server.url, namespace: 'default', ...(server.admin.ca ? { ca: server.admin.ca } : {}), cert: Buffer.from(certPem), key: Buffer.from(keyPem) });
      try {
        const r = await call(asUser, 'GET', '/api/v1/namespaces/default/pods');
        assert.equal(r.status, 403, 'authenticated, not authorized');
        assert.match(r.body.message, /User "kube-user" cannot list resource "pods"/);
      } finally {
        asUser.close();
      }
      assert.ok(await eventually(async () => (await call(server.client, 'GET', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).status === 200, 5000, 20));
      const pod = await call(server.client, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
      assert.equal(pod.status, 201, pod.text);
      assert.equal(pod.body.spec.containers[0].volumeMounts[0].mountPath, '/var/run/secrets/kubernetes.io/serviceaccount');
      assert.equal(pod.body.spec.volumes[0].projected.sources[1].configMap.name, 'kube-root-ca.crt');
    });
  });
}
