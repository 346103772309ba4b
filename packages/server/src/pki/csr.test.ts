import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webcrypto } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { parseCertificateRequest } from './csr.js';
import { decodePemBlocks, encodePem } from './pem.js';
import { testCertificateRequest } from '../testing/test-requests.js';

test('a request parses with its subject and alternative names, ECDSA and RSA', async () => {
  for (const keyType of ['ecdsa', 'rsa'] as const) {
    const { requestPem } = await testCertificateRequest({
      keyType, commonName: 'jane', organizations: ['dev', 'ops'], dnsNames: ['a.example'], ipAddresses: ['10.0.0.1'],
      emailAddresses: ['j@example.com'], uris: ['spiffe://example/jane'],
    });
    const parsed = parseCertificateRequest(`leading text\n${requestPem}trailing text\n`);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.equal(parsed.value.commonName, 'jane');
    assert.deepEqual(parsed.value.organizations, ['dev', 'ops']);
    assert.deepEqual(parsed.value.dnsNames, ['a.example']);
    assert.deepEqual(parsed.value.ipAddresses, ['10.0.0.1']);
    assert.deepEqual(parsed.value.emailAddresses, ['j@example.com']);
    assert.deepEqual(parsed.value.uris, ['spiffe://example/jane']);
  }
});

test('a request whose signature does not verify is refused', async () => {
  const { requestPem } = await testCertificateRequest({ commonName: 'jane' });
  const der = decodePemBlocks(requestPem)[0]!.bytes;
  // The subject's last byte is inside the signed part: flipping it breaks the signature, not the structure.
  const tampered = Buffer.from(der);
  const at = tampered.indexOf(Buffer.from('jane'));
  tampered[at] = 'J'.charCodeAt(0);
  const parsed = parseCertificateRequest(encodePem('CERTIFICATE REQUEST', tampered));
  assert.equal(parsed.ok, false);
  assert.match(parsed.ok ? '' : parsed.error, /signature does not verify/);
});

test('the first PEM block must be a CERTIFICATE REQUEST', async () => {
  const { keyPem } = await testCertificateRequest();
  for (const input of ['', 'not pem', keyPem, encodePem('CERTIFICATE', Buffer.from('x'))]) {
    const parsed = parseCertificateRequest(input);
    assert.deepEqual(parsed, { ok: false, error: 'PEM block type must be CERTIFICATE REQUEST' });
  }
  const junk = parseCertificateRequest(encodePem('CERTIFICATE REQUEST', Buffer.from('garbage')));
  assert.equal(junk.ok, false);
  assert.match(junk.ok ? '' : junk.error, /^x509: malformed certificate request/);
});

test('an Ed25519 request verifies', async () => {
  const keys = (await webcrypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=ed', keys, signingAlgorithm: { name: 'Ed25519' } });
  const parsed = parseCertificateRequest(csr.toString('pem'));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.equal(parsed.value.commonName, 'ed');
});
