import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { UserInfo } from '../../request/user-info.js';
import { testCertificateRequest } from '../../testing/test-requests.js';
import type { AdmissionAttributes } from '../plugin.js';
import { certificateApprovalPlugin } from './certificate-approval.js';
import { certificateSigningPlugin } from './certificate-signing.js';
import { certificateSubjectRestrictionPlugin } from './certificate-subject-restriction.js';
import { pluginConformance } from '../plugin-suite.js';
import { admissionMetrics } from '../admission-metrics.js';
import { defaultAdmissionFlags, type PluginInit } from '../plugin.js';
import { defaultFeatureGates } from '../../feature-gates.js';
import { clusterTrustBundleAttestPlugin } from './cluster-trust-bundle-attest.js';

for (const name of ['CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction', 'ClusterTrustBundleAttest']) pluginConformance(name);

const names = namesFor('svc');
const group = 'certificates.svc.io';

/** An authorizer allowing `verb` on signers for the listed names, recording what it was asked. */
function signersAuthorizer(allowed: Record<string, string[]>, asked: string[] = []): Authorizer {
  return {
    name: 'test',
    async authorize({ user, info }) {
      asked.push(`${user.username} ${info.verb} ${info.apiGroup}/${info.resource} ${info.name}`);
      const ok = info.resource === 'signers' && info.apiGroup === group && (allowed[user.username] ?? []).includes(`${info.verb} ${info.name}`);
      return { decision: ok ? 'allow' : 'no-opinion' };
    },
  };
}

const csrObject = (signerName: string, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: `${group}/v1`, kind: 'CertificateSigningRequest', metadata: { name: 'c' }, spec: { signerName, request: '', usages: ['client auth'] }, status,
});

function update(subresource: string, user: UserInfo, object: KubeObject, oldObject: KubeObject): AdmissionAttributes {
  return {
    operation: 'UPDATE', group, version: 'v1', resource: 'certificatesigningrequests', subresource, kind: 'CertificateSigningRequest',
    namespace: '', name: 'c', object, oldObject, dryRun: false, user,
  };
}

test('CertificateApproval: approve on the signer or its domain wildcard; others are refused', async () => {
  const asked: string[] = [];
  const p = certificateApprovalPlugin(names);
  p.setAuthorizer(signersAuthorizer({ exact: ['approve example.com/signer'], wild: ['approve example.com/*'] }, asked));
  const csr = csrObject('example.com/signer');
  for (const username of ['exact', 'wild']) {
    assert.deepEqual(await p.validate!(update('approval', { username, groups: [] }, csr, csr)), { allowed: true }, username);
  }
  const refused = await p.validate!(update('approval', { username: 'nobody', groups: [] }, csr, csr));
  assert.equal(refused.allowed ? 0 : refused.status.code, 403);
  assert.equal(refused.allowed ? '' : refused.status.message,
    'certificatesigningrequests.certificates.svc.io "c" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
  assert.deepEqual(asked.slice(-2), [
    `nobody approve ${group}/signers example.com/signer`, `nobody approve ${group}/signers example.com/*`,
  ]);
  assert.deepEqual(await p.validate!(update('status', { username: 'nobody', groups: [] }, csr, csr)), { allowed: true }, 'only approval is checked');
});

test('CertificateSigning: only a change of the certificate needs sign, for the stored signer', async () => {
  const p = certificateSigningPlugin(names);
  p.setAuthorizer(signersAuthorizer({ signer: ['sign example.com/signer'] }));
  const old = csrObject('example.com/signer');
  const withCert = csrObject('example.com/signer', { certificate: 'Zm9v' });
  const conditionsOnly = csrObject('example.com/signer', { conditions: [{ type: 'Custom', status: 'True' }] });
  const nobody = { username: 'nobody', groups: [] };
  assert.deepEqual(await p.validate!(update('status', nobody, conditionsOnly, old)), { allowed: true });
  const refused = await p.validate!(update('status', nobody, withCert, old));
  assert.equal(refused.allowed ? '' : refused.status.message,
    'certificatesigningrequests.certificates.svc.io "c" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');
  assert.deepEqual(await p.validate!(update('status', { username: 'signer', groups: [] }, withCert, old)), { allowed: true });
});

test('CertificateSubjectRestriction: system:masters is refused for the API client signer only', async () => {
  const p = certificateSubjectRestrictionPlugin(names);
  const masters = Buffer.from((await testCertificateRequest({ commonName: 'root', organizations: ['system:masters'] })).requestPem).toString('base64');
  const plain = Buffer.from((await testCertificateRequest({ commonName: 'jane', organizations: ['dev'] })).requestPem).toString('base64');
  const create = (signerName: string, request: string): AdmissionAttributes => ({
    operation: 'CREATE', group, version: 'v1', resource: 'certificatesigningrequests', subresource: '', kind: 'CertificateSigningRequest',
    namespace: '', name: 'c', dryRun: false, user: { username: 'u', groups: [] },
    object: { apiVersion: `${group}/v1`, kind: 'CertificateSigningRequest', metadata: { name: 'c' }, spec: { signerName, request, usages: ['client auth'] } },
  });
  const refused = await p.validate!(create('svc.io/api-client', masters));
  assert.equal(refused.allowed ? 0 : refused.status.code, 403);
  assert.equal(refused.allowed ? '' : refused.status.message,
    'certificatesigningrequests.certificates.svc.io "c" is forbidden: use of svc.io/api-client signer with system:masters group is not allowed');
  assert.deepEqual(await p.validate!(create('svc.io/api-client', plain)), { allowed: true });
  assert.deepEqual(await p.validate!(create('example.com/signer', masters)), { allowed: true });
});

test('ClusterTrustBundleAttest: a bundle naming a signer needs attest on it, while the ClusterTrustBundle gate is on', async () => {
  const init = (gate: boolean): PluginInit => ({
    configuration: () => undefined, flags: defaultAdmissionFlags, metrics: admissionMetrics(),
    featureGates: { ...defaultFeatureGates, ClusterTrustBundle: gate },
  });
  const bundle = (name: string, signerName?: string, extra: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: `${group}/v1alpha1`, kind: 'ClusterTrustBundle', metadata: { name, ...extra },
    spec: { trustBundle: 'pem', ...(signerName === undefined ? {} : { signerName }) },
  });
  const write = (operation: 'CREATE' | 'UPDATE', user: UserInfo, object: KubeObject, oldObject?: KubeObject): AdmissionAttributes => ({
    operation, group, version: 'v1alpha1', resource: 'clustertrustbundles', subresource: '', kind: 'ClusterTrustBundle',
    namespace: '', name: object.metadata?.name ?? '', object, ...(oldObject === undefined ? {} : { oldObject }), dryRun: false, user,
  });
  const nobody = { username: 'nobody', groups: [] };
  const signed = bundle('example.com:foo:1', 'example.com/foo');

  const off = clusterTrustBundleAttestPlugin(names, init(false));
  off.setAuthorizer(signersAuthorizer({}));
  assert.equal(off.actsOn!(group, 'clustertrustbundles'), false, 'the gate off: nothing to do');
  assert.deepEqual(await off.validate!(write('CREATE', nobody, signed)), { allowed: true });

  const asked: string[] = [];
  const p = clusterTrustBundleAttestPlugin(names, init(true));
  p.setAuthorizer(signersAuthorizer({ exact: ['attest example.com/foo'], wild: ['attest example.com/*'] }, asked));
  assert.ok(p.actsOn!(group, 'clustertrustbundles'));
  assert.equal(p.actsOn!(group, 'certificatesigningrequests'), false);
  for (const username of ['exact', 'wild']) assert.deepEqual(await p.validate!(write('CREATE', { username, groups: [] }, signed)), { allowed: true }, username);
  const refused = await p.validate!(write('CREATE', nobody, signed));
  assert.equal(refused.allowed ? 0 : refused.status.code, 403);
  assert.equal(refused.allowed ? '' : refused.status.message,
    'clustertrustbundles.certificates.svc.io "example.com:foo:1" is forbidden: user not permitted to attest for signerName "example.com/foo"');
  assert.deepEqual(asked.slice(-2), [`nobody attest ${group}/signers example.com/foo`, `nobody attest ${group}/signers example.com/*`]);
  assert.deepEqual(await p.validate!(write('CREATE', nobody, bundle('plain'))), { allowed: true }, 'no signer: no check');
  const gcOnly = bundle('example.com:foo:1', 'example.com/foo', { finalizers: ['f'], ownerReferences: [{ uid: 'u' }] });
  assert.deepEqual(await p.validate!(write('UPDATE', nobody, gcOnly, signed)), { allowed: true }, 'garbage-collection fields only');
  const changed = { ...signed, spec: { trustBundle: 'other', signerName: 'example.com/foo' } };
  assert.equal((await p.validate!(write('UPDATE', nobody, changed, signed))).allowed, false, 'a real change is checked');
});
