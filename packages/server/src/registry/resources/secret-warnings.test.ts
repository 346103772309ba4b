import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCa } from '../../pki/certificates.js';
import { x509KeyPairError } from './secret-warnings.js';

test("a TLS pair is checked as Go's tls.X509KeyPair checks it, with its messages", async () => {
  const a = await createCa('a');
  const b = await createCa('b');
  const buf = (s: string): Buffer => Buffer.from(s);
  assert.equal(x509KeyPairError(buf(a.certPem), buf(a.keyPem)), undefined);
  assert.equal(x509KeyPairError(buf(a.certPem), buf(b.keyPem)), 'tls: private key does not match public key');
  assert.equal(x509KeyPairError(buf('x'), buf(a.keyPem)), 'tls: failed to find any PEM data in certificate input');
  assert.equal(x509KeyPairError(buf(a.keyPem), buf(a.certPem)), 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched');
  assert.equal(x509KeyPairError(buf(a.certPem), buf(a.certPem)), 'tls: found a certificate rather than a key in the PEM for the private key');
  assert.equal(x509KeyPairError(buf(a.certPem), buf('')), 'tls: failed to find any PEM data in key input');
  assert.equal(x509KeyPairError(buf(a.certPem), buf('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')), 'tls: failed to parse private key');
});
