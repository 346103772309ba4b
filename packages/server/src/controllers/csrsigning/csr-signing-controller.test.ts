import assert from 'node:assert/strict';
import { test } from 'node:test';
import { X509Certificate } from 'node:crypto';
import { createCa } from '../../pki/certificates.js';
import { loadSigningCa } from '../../pki/signing-ca.js';
import { csrTestSetup } from '../../testing/csr-test-setup.js';
import { fakeClock } from '../kit/clock.js';
import { until } from '../../testing/until.js';
import { grantedDurationMs, startCsrSigningController } from './csr-signing-controller.js';

const hour = 3_600_000;

test('granted lifetime: the configured one, a shorter request, never under 10 minutes', () => {
  assert.equal(grantedDurationMs(8760 * hour, undefined), 8760 * hour);
  assert.equal(grantedDurationMs(8760 * hour, 3600), hour);
  assert.equal(grantedDurationMs(hour, 7200), hour);
  assert.equal(grantedDurationMs(hour, 60), 10 * 60_000);
});

test('approved requests of a built-in signer are signed, broken ones fail, others are left alone', async () => {
  const s = await csrTestSetup();
  const caPair = await createCa('signer-ca');
  const ca = await loadSigningCa(caPair.certPem, caPair.keyPem);
  assert.ok(ca.ok);
  const now = Date.parse('2031-06-01T12:00:00Z');
  const clock = fakeClock(now);
  const cas = new Map([['svc.io/api-client', ca.value], ['svc.io/api-client-node', ca.value]]);
  const ctl = startCsrSigningController({ registry: s.registry, names: s.names, retryMs: 20, config: { clock, csrSigning: { cas, durationMs: 8760 * hour } } });
  try {
    await s.createCsr('good', 'svc.io/api-client', ['client auth'], { commonName: 'jane', organizations: ['dev'] }, { expirationSeconds: 3600 });
    await s.createCsr('pending', 'svc.io/api-client', ['client auth'], { commonName: 'p' });
    await s.createCsr('denied', 'svc.io/api-client', ['client auth'], { commonName: 'd' });
    await s.createCsr('bad-usage', 'svc.io/api-client', ['client auth', 'server auth'], { commonName: 'b' });
    await s.createCsr('custom', 'example.com/signer', ['client auth'], { commonName: 'c' });
    for (const name of ['good', 'bad-usage', 'custom']) await s.decide(name, 'Approved');
    await s.decide('denied', 'Denied');
    await until('good signed', async () => (await s.get('good'))?.status?.certificate !== undefined);
    await until('bad-usage failed', async () => ((await s.get('bad-usage'))?.status?.conditions ?? []).some((c) => c.type === 'Failed'));
    await ctl.idle();
    const cert = new X509Certificate(Buffer.from(String((await s.get('good'))!.status!.certificate), 'base64'));
    assert.equal(cert.subject, 'CN=jane\nO=dev');
    assert.equal(cert.ca, false);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.equal(Date.parse(cert.validFrom), now);
    assert.equal(Date.parse(cert.validTo), now + hour, 'the requested hour, not the configured year');
    assert.ok(cert.verify(new X509Certificate(caPair.certPem).publicKey));
    const failed = ((await s.get('bad-usage'))!.status!.conditions ?? []).find((c) => c.type === 'Failed')!;
    assert.equal(failed.reason, 'SignerValidationFailure');
    assert.equal(failed.message, 'invalid usage for client certificate: server auth');
    assert.equal((await s.get('bad-usage'))!.status!.certificate, undefined);
    for (const name of ['pending', 'denied', 'custom']) assert.equal((await s.get(name))!.status?.certificate, undefined, name);
  } finally {
    await ctl.stop();
  }
});
