import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject, Status } from '@svc-apiserver/api';
import { testRegistry } from '../../../testing/test-registry.js';
import { createCa } from '../../../pki/certificates.js';
import { testCertificateRequest } from '../../../testing/test-requests.js';

const request = Buffer.from((await testCertificateRequest({ commonName: 'c' })).requestPem).toString('base64');
const certificate = Buffer.from((await createCa('issued')).certPem).toString('base64');
const otherCertificate = Buffer.from((await createCa('other')).certPem).toString('base64');
const csr = { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'c' }, spec: { request, signerName: 'example.com/signer', usages: ['client auth'] } };
type Csr = KubeObject & { status?: { conditions?: { type: string; status: string; lastUpdateTime?: string }[]; certificate?: string } };

test('certificatesigningrequests: approval conditions only through approval, others only through status', async () => {
  const { call } = await testRegistry();
  const at = (subresource: string, verb: string, body?: unknown, contentType?: string) =>
    call({ verb, group: 'certificates.svc.io', resource: 'certificatesigningrequests', name: 'c', subresource, ...(body === undefined ? {} : { body }), ...(contentType ? { contentType } : {}) });
  const created = await call({ verb: 'create', group: 'certificates.svc.io', resource: 'certificatesigningrequests', body: csr });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const base = created.body as Csr;

  const approvingStatus = await at('status', 'update', { ...base, status: { conditions: [{ type: 'Approved', status: 'True' }], certificate } });
  assert.equal(approvingStatus.code, 422, 'status may not approve');
  assert.match((approvingStatus.body as Status).message ?? '', /updates may not add a condition of type "Approved"/);
  const notPem = await at('status', 'update', { ...base, status: { certificate: 'Y2VydA==' } });
  assert.equal(notPem.code, 422);
  assert.match((notPem.body as Status).message ?? '', /status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block/);
  const viaStatus = await at('status', 'update', { ...base, status: { certificate } });
  assert.equal(viaStatus.code, 200, JSON.stringify(viaStatus.body));
  assert.equal((viaStatus.body as Csr).status?.certificate, certificate);
  const replaced = await at('status', 'update', { ...(viaStatus.body as Csr), status: { certificate: otherCertificate } });
  assert.equal(replaced.code, 422);
  assert.match((replaced.body as Status).message ?? '', /updates may not modify existing certificate content/);

  const approved = await at('approval', 'update', { ...(viaStatus.body as Csr), status: { conditions: [{ type: 'Approved', status: 'True', reason: 'OK' }] } });
  assert.equal(approved.code, 200, JSON.stringify(approved.body));
  const a = approved.body as Csr;
  assert.equal(a.status?.conditions?.[0]?.type, 'Approved');
  assert.ok(a.status?.conditions?.[0]?.lastUpdateTime);
  assert.equal(a.status?.certificate, certificate, 'approval keeps the certificate');

  const both = await at('approval', 'update', { ...a, status: { conditions: [...(a.status?.conditions ?? []), { type: 'Denied', status: 'True' }] } });
  assert.equal(both.code, 422);
  assert.match((both.body as Status).message ?? '', /Approved and Denied conditions are mutually exclusive/);
  const removed = await at('approval', 'update', { ...a, status: {} });
  assert.equal(removed.code, 422);
  assert.match((removed.body as Status).message ?? '', /updates may not remove a condition of type "Approved"/);
  const falseStatus = await at('approval', 'patch', { status: { conditions: [{ type: 'Approved', status: 'False' }] } }, 'application/merge-patch+json');
  assert.equal(falseStatus.code, 422);

  const got = await at('approval', 'get');
  assert.equal(got.code, 200);
  assert.equal((got.body as Csr).kind, 'CertificateSigningRequest');
  const specChange = await call({ verb: 'update', group: 'certificates.svc.io', resource: 'certificatesigningrequests', name: 'c',
    body: { ...a, spec: { ...csr.spec, signerName: 'other.example/x' } } });
  assert.equal(specChange.code, 200);
  assert.equal((specChange.body as { spec: { signerName: string } }).spec.signerName, 'example.com/signer');
});
