import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCa } from '../../pki/certificates.js';
import { csrTestSetup } from '../../testing/csr-test-setup.js';
import { fakeClock } from '../kit/clock.js';
import { until } from '../../testing/until.js';
import { csrDeletionTime, decidedRetentionMs, pendingRetentionMs, startCsrCleaner } from './csr-cleaner.js';

const minute = 60_000;

test('deletion times: decided an hour after the decision, pending a day after creation, issued when expired', async () => {
  const cert = await createCa('short');
  const notAfter = Date.parse(new (await import('node:crypto')).X509Certificate(cert.certPem).validTo);
  const at = '2030-01-01T00:00:00Z';
  const t0 = Date.parse(at);
  assert.equal(csrDeletionTime({ metadata: { creationTimestamp: at } }), t0 + pendingRetentionMs);
  assert.equal(csrDeletionTime({ metadata: { creationTimestamp: at }, status: { conditions: [{ type: 'Denied', status: 'True', lastUpdateTime: at }] } }), t0 + decidedRetentionMs);
  assert.equal(csrDeletionTime({ metadata: { creationTimestamp: at }, status: { conditions: [{ type: 'Custom', status: 'True', lastUpdateTime: at }] } }), undefined);
  assert.equal(csrDeletionTime({
    metadata: { creationTimestamp: at },
    status: { conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: at }], certificate: Buffer.from(cert.certPem).toString('base64') },
  }), Math.min(t0 + decidedRetentionMs, notAfter));
});

test('the cleaner deletes on its clock: decided after an hour, pending after a day, not before', async () => {
  const s = await csrTestSetup();
  const clock = fakeClock(Date.now());
  const ctl = startCsrCleaner({ registry: s.registry, names: s.names, retryMs: 20, config: { clock } });
  const gone = async (name: string) => (await s.get(name)) === undefined;
  try {
    await s.createCsr('approved', 'example.com/signer', ['client auth'], { commonName: 'a' });
    await s.createCsr('denied', 'example.com/signer', ['client auth'], { commonName: 'd' });
    await s.createCsr('pending', 'example.com/signer', ['client auth'], { commonName: 'p' });
    await s.decide('approved', 'Approved');
    await s.decide('denied', 'Denied');
    await ctl.idle();
    await until('wake-ups scheduled', () => clock.waiting() === 3);
    clock.step(59 * minute);
    await ctl.idle();
    for (const name of ['approved', 'denied', 'pending']) assert.equal(await gone(name), false, `${name} kept before its hour`);
    clock.step(2 * minute);
    await until('decided requests deleted', async () => (await gone('approved')) && (await gone('denied')));
    assert.equal(await gone('pending'), false);
    clock.step(23 * 60 * minute);
    await until('pending request deleted after a day', () => gone('pending'));
  } finally {
    await ctl.stop();
  }
});
