import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { parseCertificateRequest, type CertificateRequest } from '../../pki/csr.js';
import { testCertificateRequest, type TestRequestOptions } from '../../testing/test-requests.js';
import { signerVerdict } from './signer-rules.js';

const names = namesFor('svc');

async function req(options: TestRequestOptions): Promise<CertificateRequest> {
  const parsed = parseCertificateRequest((await testCertificateRequest(options)).requestPem);
  assert.ok(parsed.ok);
  return parsed.value;
}

test('API client: client auth required, only digital signature and key encipherment beside it', async () => {
  const r = await req({ commonName: 'jane', dnsNames: ['x.example'] });
  const verdict = (usages: string[]) => signerVerdict(names, 'svc.io/api-client', r, usages);
  assert.deepEqual(verdict(['client auth']), { recognized: true });
  assert.deepEqual(verdict(['digital signature', 'key encipherment', 'client auth']), { recognized: true });
  assert.deepEqual(verdict(['digital signature']), { recognized: true, violation: 'missing required usage for client certificate: client auth' });
  assert.deepEqual(verdict(['client auth', 'server auth']), { recognized: true, violation: 'invalid usage for client certificate: server auth' });
});

test('API client node: system:nodes, system:node: names, no alternative names, the client usages', async () => {
  const verdict = async (options: TestRequestOptions, usages = ['key encipherment', 'digital signature', 'client auth']) =>
    signerVerdict(names, 'svc.io/api-client-node', await req(options), usages);
  const node = { commonName: 'system:node:n1', organizations: ['system:nodes'] };
  assert.deepEqual(await verdict(node), { recognized: true });
  assert.deepEqual(await verdict(node, ['digital signature', 'client auth']), { recognized: true });
  assert.deepEqual(await verdict({ ...node, organizations: ['system:nodes', 'extra'] }), { recognized: true, violation: 'subject organization is not system:nodes' });
  assert.deepEqual(await verdict({ ...node, commonName: 'n1' }), { recognized: true, violation: 'subject common name does not begin with system:node:' });
  assert.deepEqual(await verdict({ ...node, dnsNames: ['n1'] }), { recognized: true, violation: 'DNS subjectAltNames are not allowed' });
  assert.deepEqual(await verdict({ ...node, ipAddresses: ['10.0.0.1'] }), { recognized: true, violation: 'IP subjectAltNames are not allowed' });
  assert.deepEqual(await verdict(node, ['client auth']), { recognized: true, violation: 'usages did not match [client auth digital signature key encipherment]' });
});

test('node serving: system:nodes, a DNS or IP name, no email or URI, the serving usages', async () => {
  const verdict = async (options: TestRequestOptions, usages = ['key encipherment', 'digital signature', 'server auth']) =>
    signerVerdict(names, 'svc.io/node-serving', await req(options), usages);
  const node = { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1.example'] };
  assert.deepEqual(await verdict(node), { recognized: true });
  assert.deepEqual(await verdict({ ...node, dnsNames: [] }), { recognized: true, violation: 'DNS or IP subjectAltName is required' });
  assert.deepEqual(await verdict({ ...node, emailAddresses: ['n@example.com'] }), { recognized: true, violation: 'Email subjectAltNames are not allowed' });
  assert.deepEqual(await verdict({ ...node, uris: ['spiffe://x/y'] }), { recognized: true, violation: 'URI subjectAltNames are not allowed' });
  assert.deepEqual(await verdict(node, ['server auth']), { recognized: true, violation: 'usages did not match [digital signature key encipherment server auth]' });
});

test('other signers are not recognized; legacy unknown takes anything', async () => {
  const r = await req({ commonName: 'x' });
  assert.deepEqual(signerVerdict(names, 'example.com/signer', r, ['client auth']), { recognized: false });
  assert.deepEqual(signerVerdict(names, 'svc.io/legacy-unknown', r, ['cert sign']), { recognized: true });
  const k8s = namesFor('k8s');
  assert.deepEqual(signerVerdict(k8s, 'kubernetes.io/kube-apiserver-client', r, ['server auth']).recognized, true);
  assert.deepEqual(signerVerdict(k8s, 'svc.io/api-client', r, ['client auth']), { recognized: false });
});
