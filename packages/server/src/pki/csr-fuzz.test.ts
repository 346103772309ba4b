/**
 * Seeded malformed input for the request parser: whatever a client puts in `spec.request`, parsing answers a
 * value and never throws.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCertificateRequest } from './csr.js';
import { certificatePemError } from './certificate-pem.js';
import { decodePemBlocks, encodePem } from './pem.js';
import { testCertificateRequest } from '../testing/test-requests.js';
import { seededRandom } from '../testing/seeded-random.js';

test('mutated, truncated and random requests are answered with an error value, never a throw', async () => {
  const { requestPem } = await testCertificateRequest({ commonName: 'fuzz', organizations: ['o'], dnsNames: ['f.example'] });
  const der = decodePemBlocks(requestPem)[0]!.bytes;
  for (let seed = 1; seed <= 300; seed++) {
    const rand = seededRandom(seed);
    const bytes = Buffer.from(der);
    const kind = seed % 4;
    let input: Buffer;
    if (kind === 0) {
      for (let i = 0; i < 1 + Math.floor(rand() * 8); i++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      input = bytes;
    } else if (kind === 1) {
      input = bytes.subarray(0, Math.floor(rand() * bytes.length));
    } else if (kind === 2) {
      input = Buffer.from(Array.from({ length: Math.floor(rand() * 400) }, () => Math.floor(rand() * 256)));
    } else {
      // A length field made huge: the reader must refuse it, not allocate it.
      input = Buffer.concat([Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff]), bytes.subarray(2, 2 + Math.floor(rand() * 64))]);
    }
    const pem = encodePem('CERTIFICATE REQUEST', input);
    let parsed: ReturnType<typeof parseCertificateRequest> | undefined;
    assert.doesNotThrow(() => {
      parsed = parseCertificateRequest(pem);
    }, `seed ${seed}`);
    assert.ok(parsed !== undefined && (parsed.ok || typeof parsed.error === 'string'), `seed ${seed}`);
    assert.doesNotThrow(() => certificatePemError(Buffer.from(encodePem('CERTIFICATE', input))), `seed ${seed}`);
  }
});

test('broken PEM framing is not a request', () => {
  for (const text of [
    '-----BEGIN CERTIFICATE REQUEST-----\n!!!!\n-----END CERTIFICATE REQUEST-----\n',
    '-----BEGIN CERTIFICATE REQUEST-----\nabc\n-----END CERTIFICATE-----\n',
    '-----BEGIN CERTIFICATE REQUEST-----\nProc-Type: 4\n\nMAA=\n-----END CERTIFICATE REQUEST-----\n',
    '\u0000\uffff-----BEGIN',
  ]) {
    const parsed = parseCertificateRequest(text);
    assert.equal(parsed.ok, false, text);
  }
});
