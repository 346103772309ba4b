import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { ensurePki, pkiFiles, servingSans } from './ensure-pki.js';
import { certificateSans } from './certificate-inspection.js';
import { kubeconfigYaml } from './kubeconfig.js';
import { parse } from 'yaml';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

test('servingSans: fixed names, bind address, extras; wildcard binds dropped; deduplicated', () => {
  assert.deepEqual(servingSans('0.0.0.0', ['my.host', '10.0.0.5', 'localhost']), ['localhost', '127.0.0.1', '::1', 'my.host', '10.0.0.5']);
  assert.deepEqual(servingSans('192.168.1.2', []), ['localhost', '127.0.0.1', '::1', '192.168.1.2']);
});

test('first start creates CA, serving and admin certificates; a second start reuses them', async (t) => {
  const dir = tempDir(t, 'pki-');
  const sans = servingSans('127.0.0.1', ['api.example', '10.1.2.3']);
  const first = await ensurePki({ dir, sans, caName: 'svc-apiserver-ca' });
  assert.deepEqual([...first.created].sort(), ['admin', 'ca', 'serving']);
  const ca = new X509Certificate(first.ca.certPem);
  assert.match(ca.subject, /CN=svc-apiserver-ca/);
  assert.equal(ca.ca, true);
  const serving = new X509Certificate(first.serving.certPem);
  assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
  assert.deepEqual(certificateSans(first.serving.certPem), ['0:0:0:0:0:0:0:1', '10.1.2.3', '127.0.0.1', 'api.example', 'localhost']);
  assert.match(serving.subjectAltName ?? '', /IP Address:10\.1\.2\.3/);
  assert.match(serving.subjectAltName ?? '', /DNS:api\.example/);
  const admin = new X509Certificate(first.admin.certPem);
  assert.equal(admin.subject.split('\n').sort().join(','), 'CN=admin,O=system:masters');
  assert.ok(admin.verify(ca.publicKey));
  assert.equal((await stat(join(dir, pkiFiles.caKey))).mode & 0o777, 0o600);
  assert.equal((await stat(join(dir, pkiFiles.adminKey))).mode & 0o777, 0o600);

  const second = await ensurePki({ dir, sans, caName: 'svc-apiserver-ca' });
  assert.deepEqual(second.created, []);
  assert.equal(second.serving.certPem, first.serving.certPem);
  assert.equal(second.admin.certPem, first.admin.certPem);

  // A changed SAN set issues a new serving certificate from the same CA; admin stays.
  const third = await ensurePki({ dir, sans: [...sans, 'new.example'], caName: 'svc-apiserver-ca' });
  assert.deepEqual(third.created, ['serving']);
  assert.equal(third.ca.certPem, first.ca.certPem);
  assert.ok(certificateSans(third.serving.certPem).includes('new.example'));
  assert.equal(await readFile(join(dir, pkiFiles.servingCert), 'utf8'), third.serving.certPem);
});

test('kubeconfig holds the CA and client credentials inline and sets the current context', () => {
  const doc = parse(kubeconfigYaml({ server: 'https://127.0.0.1:1', caPem: 'CA', clientCertPem: 'CERT', clientKeyPem: 'KEY', name: 'svc-apiserver' }));
  assert.equal(doc['current-context'], 'svc-apiserver');
  assert.equal(doc.clusters[0].cluster.server, 'https://127.0.0.1:1');
  assert.equal(Buffer.from(doc.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), 'CA');
  assert.equal(Buffer.from(doc.users[0].user['client-key-data'], 'base64').toString(), 'KEY');
  assert.deepEqual(doc.contexts[0], { name: 'svc-apiserver', context: { cluster: 'svc-apiserver', user: 'svc-apiserver' } });
});
