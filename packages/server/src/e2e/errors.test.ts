/**
 * Failure responses in kube-apiserver's shapes and wording: 400, 404, 405, 409, 413, 415, 422, and the server
 * staying healthy after malformed bodies.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call, createNamespace } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const names = namesFor('svc');
const ns = 'e2e-errors';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
let server: ServerProcess;

const dns1123SubdomainError = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

before(async () => {
  server = await startServerProcess();
  await createNamespace(server.client, ns);
});

after(async () => {
  await server?.stop();
});

const failure = (code: number, reason: string, message: string, details?: Record<string, unknown>) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code,
});

test('404 NotFound for a missing object, in core and named groups', async () => {
  const r = await call(server.client, 'GET', `${cms}/missing`);
  assert.equal(r.status, 404);
  assert.equal(r.headers['content-type'], 'application/json');
  assert.deepEqual(r.body, failure(404, 'NotFound', 'configmaps "missing" not found', { name: 'missing', kind: 'configmaps' }));
  const group = names.group('coordination');
  const lease = await call(server.client, 'GET', `/apis/${group}/v1/namespaces/${ns}/leases/missing`);
  assert.equal(lease.status, 404);
  assert.deepEqual(lease.body, failure(404, 'NotFound', `leases.${group} "missing" not found`, { name: 'missing', group, kind: 'leases' }));
});

test('percent-escapes in the path are decoded as Go decodes them; a malformed one is a 400', async () => {
  const rbac = names.group('rbac.authorization');
  const encoded = await call(server.client, 'GET', `/apis/${rbac}/v1/clusterroles/system%3Aaggregate-to-edit`);
  assert.equal(encoded.status, 200, encoded.text);
  assert.equal(encoded.body.metadata.name, 'system:aggregate-to-edit');
  const created = await call(server.client, 'POST', `/api/v1/namespaces/${ns}/config%6Daps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'escaped' } });
  assert.equal(created.status, 201, created.text);
  const malformed = await call(server.client, 'GET', `${cms}/bad%zz`);
  assert.equal(malformed.status, 400, malformed.text);
  assert.equal(malformed.body.kind, 'Status');
});

test('404 for an unknown resource path and for a missing namespace', async () => {
  const r = await call(server.client, 'GET', '/api/v1/widgets');
  assert.equal(r.status, 404);
  assert.equal(r.body.kind, 'Status');
  assert.equal(r.body.reason, 'NotFound');
  assert.equal(r.body.message, 'the server could not find the requested resource');
  const noNs = await call(server.client, 'POST', '/api/v1/namespaces/nope/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  assert.equal(noNs.status, 404, noNs.text);
  assert.deepEqual(noNs.body, failure(404, 'NotFound', 'namespaces "nope" not found', { name: 'nope', kind: 'namespaces' }));
});

test('409 AlreadyExists', async () => {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice' } };
  assert.equal((await call(server.client, 'POST', cms, body)).status, 201);
  const r = await call(server.client, 'POST', cms, body);
  assert.equal(r.status, 409);
  assert.deepEqual(r.body, failure(409, 'AlreadyExists', 'configmaps "twice" already exists', { name: 'twice', kind: 'configmaps' }));
});

test('422 Invalid with one cause per field', async () => {
  const bad = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } });
  assert.equal(bad.status, 422, bad.text);
  assert.deepEqual(bad.body, failure(422, 'Invalid', `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${dns1123SubdomainError}`, {
    name: 'Bad_Name', kind: 'ConfigMap',
    causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${dns1123SubdomainError}`, field: 'metadata.name' }],
  }));
  const unnamed = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
  assert.equal(unnamed.status, 422, unnamed.text);
  assert.deepEqual(unnamed.body, failure(422, 'Invalid', 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required', {
    kind: 'ConfigMap',
    causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }],
  }));
  const labels = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'badlabel', labels: { 'bad key!': 'v' } } });
  assert.equal(labels.status, 422, labels.text);
  assert.equal(labels.body.details.causes[0].field, 'metadata.labels');
});

test('413 RequestEntityTooLarge above 3 MiB', async () => {
  const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { blob: 'x'.repeat(3 * 1024 * 1024 + 10) } });
  const r = await call(server.client, 'POST', cms, big);
  assert.equal(r.status, 413, r.text.slice(0, 300));
  assert.deepEqual(r.body, failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'));
});

test('405 MethodNotAllowed for a verb the path does not serve', async () => {
  const r = await call(server.client, 'PUT', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  assert.equal(r.status, 405, r.text);
  assert.equal(r.body.kind, 'Status');
  assert.equal(r.body.reason, 'MethodNotAllowed');
  assert.equal(r.body.code, 405);
  assert.equal(r.body.message, 'the server does not allow this method on the requested resource');
});

test('415 UnsupportedMediaType for an unknown body type', async () => {
  const r = await call(server.client, 'POST', cms, 'name=x', { 'content-type': 'text/plain' });
  assert.equal(r.status, 415, r.text);
  assert.equal(r.body.reason, 'UnsupportedMediaType');
  assert.match(r.body.message, /^the body of the request was in an unknown format - accepted media types include: .*application\/json.*application\/yaml/);
});

test('400 BadRequest for malformed JSON and YAML; the server stays healthy', async () => {
  const json = await call(server.client, 'POST', cms, '{"apiVersion": "v1", "kind": ');
  assert.equal(json.status, 400, json.text);
  assert.equal(json.body.kind, 'Status');
  assert.equal(json.body.reason, 'BadRequest');
  const yaml = await call(server.client, 'POST', cms, 'apiVersion: v1\nkind: [ConfigMap\n', { 'content-type': 'application/yaml' });
  assert.equal(yaml.status, 400, yaml.text);
  assert.equal(yaml.body.reason, 'BadRequest');
  const notObject = await call(server.client, 'POST', cms, '[1, 2]');
  assert.equal(notObject.status, 400, notObject.text);
  const ready = await call(server.anonymous, 'GET', '/readyz');
  assert.equal(ready.status, 200);
  const fine = await call(server.client, 'POST', cms, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  octal: "0644"\n', { 'content-type': 'application/yaml' });
  assert.equal(fine.status, 201, fine.text);
  assert.equal(fine.body.data.octal, '0644');
});

test('400 for a name or namespace that differs from the URL', async () => {
  const created = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'urlname' } });
  assert.equal(created.status, 201, created.text);
  const renamed = await call(server.client, 'PUT', `${cms}/urlname`, { ...created.body, metadata: { ...created.body.metadata, name: 'other' } });
  assert.equal(renamed.status, 400, renamed.text);
  assert.equal(renamed.body.reason, 'BadRequest');
  assert.equal(renamed.body.message, 'the name of the object (other) does not match the name on the URL (urlname)');
  const otherNs = await call(server.client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } });
  assert.equal(otherNs.status, 400, otherNs.text);
  assert.equal(otherNs.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
});

test('unknown fields: Warn (default) answers with a Warning header, Strict fails with 400', async () => {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unknown-field' }, bogus: 1 };
  const warned = await call(server.client, 'POST', cms, body);
  assert.equal(warned.status, 201, warned.text);
  assert.match(String(warned.headers.warning), /299 - "unknown field \\"bogus\\""/);
  const strict = await call(server.client, 'POST', `${cms}?fieldValidation=Strict`, { ...body, metadata: { name: 'strict' } });
  assert.equal(strict.status, 400, strict.text);
  assert.equal(strict.body.reason, 'BadRequest');
  assert.match(strict.body.message, /unknown field "bogus"/);
});

test('anonymous requests are authorized like any other: 403 Forbidden with the path or resource named', async () => {
  const r = await call(server.anonymous, 'GET', '/api/v1/namespaces');
  assert.equal(r.status, 403, r.text);
  assert.deepEqual(r.body, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
    message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    details: { kind: 'namespaces' },
  });
  const path = await call(server.anonymous, 'GET', '/openapi/v2');
  assert.equal(path.status, 403);
  assert.equal(path.body.message, 'forbidden: User "system:anonymous" cannot get path "/openapi/v2"');
});
