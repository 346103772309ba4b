import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';
import { createCa } from '../../pki/certificates.js';
import { encodePem } from '../../pki/pem.js';
import { testCertificateRequest } from '../../testing/test-requests.js';
import { validateSignerName } from './signer-name.js';

const group = 'certificates.svc.io';
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const request = b64((await testCertificateRequest({ commonName: 'jane' })).requestPem);
const csr = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: `${group}/v1`, kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request, signerName: 'example.com/signer', usages: ['client auth'], ...spec }, ...extra,
});

test('create records the requester and drops what the client claimed, and any status', async () => {
  const { call } = await testRegistry();
  const user = { username: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
  const created = await call({
    verb: 'create', group, resource: 'certificatesigningrequests', user,
    body: csr('mine', { username: 'root', groups: ['system:masters'], uid: 'x', extra: { forged: ['1'] } }, { status: { conditions: [{ type: 'Approved', status: 'True' }] } }),
  });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const body = created.body as { spec: Record<string, unknown>; status?: unknown };
  assert.equal(body.spec['username'], 'jane');
  assert.equal(body.spec['uid'], 'u-1');
  assert.deepEqual(body.spec['groups'], ['dev', 'system:authenticated']);
  assert.deepEqual(body.spec['extra'], { scopes: ['a', 'b'] });
  assert.deepEqual(body.status, {}, 'a request cannot be created approved: it starts with the empty status kube encodes');
});

test('validation of request, signer, usages, expiration, conditions and certificate, in kube words', async () => {
  const { call } = await testRegistry();
  const invalid = async (body: unknown): Promise<string> => {
    const r = await call({ verb: 'create', group, resource: 'certificatesigningrequests', body });
    assert.equal(r.code, 422, JSON.stringify(r.body));
    return (r.body as Status).message ?? '';
  };
  const { keyPem } = await testCertificateRequest();
  assert.match(await invalid(csr('a', { request: b64(keyPem) })), /spec.request: Invalid value: .*PEM block type must be CERTIFICATE REQUEST/);
  assert.match(await invalid(csr('a', { request: b64(encodePem('CERTIFICATE REQUEST', Buffer.from([0x30, 0x03, 0x02, 0x01, 0x00]))) })), /spec.request: Invalid value/);
  // A request that is no base64 fails kube's decoder before validation: 400, not 422.
  const undecodable = await call({ verb: 'create', group, resource: 'certificatesigningrequests', body: csr('a', { request: '!!notbase64' }) });
  assert.equal(undecodable.code, 400, JSON.stringify(undecodable.body));
  assert.match((undecodable.body as Status).message ?? '', /cannot be handled as a CertificateSigningRequest: illegal base64 data at input byte 0/);
  assert.match(await invalid(csr('a', { signerName: undefined })), /spec.signerName: Required value/);
  assert.match(await invalid(csr('a', { signerName: 'svc.io/legacy-unknown' })), /spec.signerName: Invalid value: "svc.io\/legacy-unknown": the legacy signerName is not allowed via this API version/);
  assert.match(await invalid(csr('a', { signerName: 'nodomain' })), /must be a fully qualified domain and path of the form 'example.com\/signer-name'/);
  assert.match(await invalid(csr('a', { signerName: 'local/x' })), /should be a domain with at least two segments separated by dots/);
  assert.match(await invalid(csr('a', { usages: [] })), /spec.usages: Required value/);
  assert.match(await invalid(csr('a', { usages: ['client auth', 'flying'] })), /spec.usages\[1\]: Unsupported value: "flying": supported values: "any", "cert sign"/);
  assert.match(await invalid(csr('a', { usages: ['client auth', 'client auth'] })), /spec.usages\[1\]: Duplicate value: "client auth"/);
  assert.match(await invalid(csr('a', { expirationSeconds: 599 })), /spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds \(10 minutes\)/);
  const ok = await call({ verb: 'create', group, resource: 'certificatesigningrequests', body: csr('fine', { expirationSeconds: 600, usages: ['digital signature', 'client auth'] }) });
  assert.equal(ok.code, 201, JSON.stringify(ok.body));
});

test('status writes: conditions typed, with a status, unique; Failed kept; the certificate set once', async () => {
  const { call } = await testRegistry();
  const created = await call({ verb: 'create', group, resource: 'certificatesigningrequests', body: csr('s', {}) });
  assert.equal(created.code, 201);
  const status = (body: unknown) => call({ verb: 'update', group, resource: 'certificatesigningrequests', name: 's', subresource: 'status', body });
  const base = created.body as Record<string, unknown>;
  const message = async (body: unknown) => ((await status(body)).body as Status).message ?? '';
  assert.match(await message({ ...base, status: { conditions: [{ status: 'True' }] } }), /status.conditions\[0\].type: Required value/);
  assert.match(await message({ ...base, status: { conditions: [{ type: 'Custom' }] } }), /status.conditions\[0\].status: Required value/);
  assert.match(await message({ ...base, status: { conditions: [{ type: 'Failed', status: 'False' }] } }), /status.conditions\[0\].status: Unsupported value: "False": supported values: "True"/);
  assert.match(await message({ ...base, status: { conditions: [{ type: 'Custom', status: 'True' }, { type: 'Custom', status: 'False' }] } }), /status.conditions\[1\].type: Duplicate value: "Custom"/);
  assert.match(await message({ ...base, status: { certificate: b64(encodePem('PRIVATE KEY', Buffer.from('x'))) } }), /only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"/);
  const cert = (await createCa('issued')).certPem;
  const failed = await status({ ...base, status: { conditions: [{ type: 'Failed', status: 'True', reason: 'R' }], certificate: b64(`explanatory text\n${cert}`) } });
  assert.equal(failed.code, 200, JSON.stringify(failed.body));
  const stored = failed.body as { status: { conditions: { lastUpdateTime?: string; lastTransitionTime?: string }[] } };
  assert.ok(stored.status.conditions[0]!.lastUpdateTime && stored.status.conditions[0]!.lastTransitionTime);
  assert.match(await message({ ...stored, status: { ...stored.status, conditions: [] } }), /updates may not remove a condition of type "Failed"/);
});

test('signer names: domain labels and path components as kube checks them', () => {
  assert.deepEqual(validateSignerName('f', 'example.com/signer'), []);
  assert.deepEqual(validateSignerName('f', 'svc.io/api-client'), []);
  assert.equal(validateSignerName('f', 'Example.com/x')[0]?.detail.startsWith('validating label "Example"'), true);
  assert.equal(validateSignerName('f', 'example.com/UP')[0]?.detail.startsWith('validating component "UP"'), true);
  assert.equal(validateSignerName('f', 'a/b/c')[0]?.detail, "must be a fully qualified domain and path of the form 'example.com/signer-name'");
});
