import assert from 'node:assert/strict';
import { test } from 'node:test';
import { X509Certificate } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createCa } from './certificates.js';
import { parseCertificateRequest } from './csr.js';
import { signCertificateRequest } from './sign-certificate-request.js';
import { loadSigningCa } from './signing-ca.js';
import { testCertificateRequest } from '../testing/test-requests.js';

test('the certificate carries the request subject, names and key, the usages asked for and no CA bit', async () => {
  const caPair = await createCa('test-ca');
  const ca = await loadSigningCa(caPair.certPem, caPair.keyPem);
  assert.ok(ca.ok);
  const { requestPem } = await testCertificateRequest({
    commonName: 'jane', organizations: ['dev'], dnsNames: ['j.example'], ipAddresses: ['10.1.2.3'],
    extensions: [new x509.BasicConstraintsExtension(true, 2, true)],
  });
  const parsed = parseCertificateRequest(requestPem);
  assert.ok(parsed.ok);
  const now = Date.parse('2030-01-01T00:00:00Z');
  const signed = await signCertificateRequest(ca.value, parsed.value, { usages: ['digital signature', 'client auth'], durationMs: 3600_000, now });
  assert.ok(signed.ok);
  const cert = new X509Certificate(signed.value);
  assert.equal(cert.subject, 'CN=jane\nO=dev');
  assert.equal(cert.ca, false);
  assert.ok(cert.checkIssued(new X509Certificate(caPair.certPem)));
  assert.ok(cert.verify(new X509Certificate(caPair.certPem).publicKey));
  assert.equal(cert.subjectAltName, 'DNS:j.example, IP Address:10.1.2.3');
  assert.equal(cert.keyUsage?.join(','), '1.3.6.1.5.5.7.3.2');
  assert.equal(Date.parse(cert.validFrom), now);
  assert.equal(Date.parse(cert.validTo), now + 3600_000);
  const pub = await parsed.value.publicKey.export();
  const spki = Buffer.from(await crypto.subtle.exportKey('spki', pub)).toString('base64');
  assert.equal(cert.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'), spki);
  const peculiar = new x509.X509Certificate(signed.value);
  const basic = peculiar.getExtension(x509.BasicConstraintsExtension);
  assert.equal(basic?.ca, false);
  const usage = peculiar.getExtension(x509.KeyUsagesExtension);
  assert.equal(usage?.usages, x509.KeyUsageFlags.digitalSignature);
});

test('long certificates are backdated 5 minutes with the same lifetime; nothing outlives the CA', async () => {
  const caPair = await createCa('test-ca');
  const ca = await loadSigningCa(caPair.certPem, caPair.keyPem);
  assert.ok(ca.ok);
  const parsed = parseCertificateRequest((await testCertificateRequest({ commonName: 'x' })).requestPem);
  assert.ok(parsed.ok);
  const now = Math.floor(Date.now() / 1000) * 1000;
  const day = await signCertificateRequest(ca.value, parsed.value, { usages: ['client auth'], durationMs: 86_400_000, now });
  assert.ok(day.ok);
  const cert = new X509Certificate(day.value);
  assert.equal(Date.parse(cert.validFrom), now - 300_000);
  assert.equal(Date.parse(cert.validTo) - Date.parse(cert.validFrom), 86_400_000);
  const forever = await signCertificateRequest(ca.value, parsed.value, { usages: ['client auth'], durationMs: 100 * 365 * 86_400_000, now });
  assert.ok(forever.ok);
  assert.equal(Date.parse(new X509Certificate(forever.value).validTo), ca.value.notAfter);
  const late = await signCertificateRequest(ca.value, parsed.value, { usages: ['client auth'], durationMs: 3600_000, now: ca.value.notAfter + 1000 });
  assert.equal(late.ok, false);
});

test('a CA key that does not match its certificate is refused', async () => {
  const a = await createCa('a');
  const b = await createCa('b');
  const loaded = await loadSigningCa(a.certPem, b.keyPem);
  assert.deepEqual(loaded, { ok: false, error: 'the CA private key does not match its certificate' });
});
