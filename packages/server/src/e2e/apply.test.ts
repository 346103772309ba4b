/**
 * Server-side apply over HTTPS against the real server as a child process (document 1 §Server-side apply): apply
 * creates and updates, managedFields entries, conflicts (409 with causes) and force, the option and body checks,
 * field validation of apply bodies, dry run and no-op applies, and the default manager of other writes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './http.js';
import { serverForFile } from './server-process.js';

const ns = 'e2e-apply';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const applyType = { 'content-type': 'application/apply-patch+yaml' };
const server = serverForFile({}, ns);

const applyCm = (name: string, data: Record<string, string>, query: string, extra = '') =>
  call(server().client, 'PATCH', `${cms}/${name}?${query}`,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}data:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`).join('\n')}\n`,
    applyType);

test('apply creates (201), then updates (200); managedFields record the applier', async () => {
  const created = await applyCm('a', { x: '1' }, 'fieldManager=alice');
  assert.equal(created.status, 201, created.text);
  const entries = created.body.metadata.managedFields;
  assert.equal(entries.length, 1);
  assert.deepEqual(Object.keys(entries[0]), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
  assert.equal(entries[0].manager, 'alice');
  assert.equal(entries[0].operation, 'Apply');
  assert.deepEqual(entries[0].fieldsV1, { 'f:data': { 'f:x': {} } });
  const updated = await applyCm('a', { x: '1', z: '2' }, 'fieldManager=alice');
  assert.equal(updated.status, 200, updated.text);
  assert.deepEqual(updated.body.data, { x: '1', z: '2' });
  // JSON is YAML: an apply body may be JSON.
  const json = await call(server().client, 'PATCH', `${cms}/a?fieldManager=alice`,
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } }), applyType);
  assert.equal(json.status, 200, json.text);
  assert.deepEqual(json.body.data, { x: '1' }, 'z, applied before by alice only, is removed');
});

test('conflicts: 409 naming manager and field, force takes ownership', async () => {
  await applyCm('c', { x: '1' }, 'fieldManager=alice');
  const clash = await applyCm('c', { x: '2' }, 'fieldManager=bob');
  assert.equal(clash.status, 409, clash.text);
  assert.equal(clash.body.reason, 'Conflict');
  assert.equal(clash.body.message, 'Apply failed with 1 conflict: conflict with "alice": .data.x');
  assert.deepEqual(clash.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.x' }]);
  const forced = await applyCm('c', { x: '2' }, 'fieldManager=bob&force=true');
  assert.equal(forced.status, 200, forced.text);
  assert.deepEqual(forced.body.metadata.managedFields.map((e: { manager: string }) => e.manager), ['bob']);
  // An update never conflicts, and takes the field from the applier.
  const put = await call(server().client, 'PUT', `${cms}/c?fieldManager=editor`, { ...forced.body, data: { x: '3' } });
  assert.equal(put.status, 200, put.text);
  const again = await applyCm('c', { x: '4' }, 'fieldManager=bob');
  assert.equal(again.status, 409);
  assert.equal(again.body.message, 'Apply failed with 1 conflict: conflict with "editor" using v1: .data.x');
});

test('apply options and body: fieldManager required (422), force only with apply (422), managedFields, version (400)', async () => {
  const noManager = await applyCm('o', { x: '1' }, '');
  assert.equal(noManager.status, 422, noManager.text);
  assert.equal(noManager.body.message, 'PatchOptions.meta.svc.io "" is invalid: fieldManager: Required value: is required for apply patch');
  assert.deepEqual(noManager.body.details, {
    group: 'meta.svc.io', kind: 'PatchOptions',
    causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
  });
  const forceMerge = await call(server().client, 'PATCH', `${cms}/o?force=true`, { data: {} }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(forceMerge.status, 422, forceMerge.text);
  assert.match(forceMerge.body.message, /force: Forbidden: may not be specified for non-apply patch/);
  const managed = await applyCm('o', { x: '1' }, 'fieldManager=m', '  managedFields: []\n');
  assert.equal(managed.status, 400, managed.text);
  const withManaged = await call(server().client, 'PATCH', `${cms}/o?fieldManager=m`,
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: o\n  managedFields:\n  - manager: x\n', applyType);
  assert.equal(withManaged.status, 400, withManaged.text);
  assert.equal(withManaged.body.message, 'metadata.managedFields must be nil');
  const version = await call(server().client, 'PATCH', `${cms}/o?fieldManager=m`, 'apiVersion: v2\nkind: ConfigMap\nmetadata:\n  name: o\n', applyType);
  assert.equal(version.status, 400);
  assert.equal(version.body.message, 'Incorrect version specified in apply patch. Specified patch version: v2, expected: v1');
  const unknown = await call(server().client, 'PATCH', `${cms}/o?fieldManager=m`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: o\nbogus: 1\n', applyType);
  assert.equal(unknown.status, 500, unknown.text);
  assert.equal(unknown.body.message, `failed to create typed patch object (${ns}/o; /v1, Kind=ConfigMap): .bogus: field not declared in schema`);
});

test('apply field validation: duplicate YAML keys warn (Warn) or fail (Strict)', async () => {
  const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dup\ndata:\n  x: "1"\n  x: "2"\n';
  const strict = await call(server().client, 'PATCH', `${cms}/dup?fieldManager=m&fieldValidation=Strict`, body, applyType);
  assert.equal(strict.status, 400, strict.text);
  assert.equal(strict.body.message, 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "x" already set in map');
  const warned = await call(server().client, 'PATCH', `${cms}/dup?fieldManager=m`, body, applyType);
  assert.equal(warned.status, 201, warned.text);
  assert.equal(warned.headers.warning, '299 - "line 7: key \\"x\\" already set in map"');
  assert.deepEqual(warned.body.data, { x: '2' });
  const ignored = await call(server().client, 'PATCH', `${cms}/dup?fieldManager=m&fieldValidation=Ignore`, body, applyType);
  assert.equal(ignored.status, 200);
  assert.equal(ignored.headers.warning, undefined);
});

test('dry-run apply and no-op apply leave the store revision unchanged', async () => {
  const first = await applyCm('d', { x: '1' }, 'fieldManager=m');
  assert.equal(first.status, 201);
  const revision = async () => (await call(server().client, 'GET', `${cms}?limit=1`)).body.metadata.resourceVersion as string;
  const before = await revision();
  const dry = await applyCm('d', { x: '9' }, 'fieldManager=m&dryRun=All');
  assert.equal(dry.status, 200, dry.text);
  assert.equal(dry.body.data.x, '9');
  const dryCreate = await applyCm('d-new', { x: '9' }, 'fieldManager=m&dryRun=All');
  assert.equal(dryCreate.status, 201, dryCreate.text);
  const same = await applyCm('d', { x: '1' }, 'fieldManager=m');
  assert.equal(same.status, 200);
  assert.equal(same.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
  assert.equal(await revision(), before);
  assert.equal((await call(server().client, 'GET', `${cms}/d-new`)).status, 404);
});

test('non-apply writes: the field manager defaults to the user agent before its first slash', async () => {
  const created = await call(server().client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ua' }, data: { a: '1' } },
    { 'user-agent': 'my-tool/v1.2.3 (linux/amd64)' });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.body.metadata.managedFields.map((e: { manager: string; operation: string }) => [e.manager, e.operation]), [['my-tool', 'Update']]);
  const named = await call(server().client, 'PATCH', `${cms}/ua?fieldManager=patcher`, { data: { b: '2' } }, { 'content-type': 'application/merge-patch+json' });
  assert.deepEqual(named.body.metadata.managedFields.map((e: { manager: string }) => e.manager), ['my-tool', 'patcher']);
  const reset = await call(server().client, 'PATCH', `${cms}/ua?fieldManager=resetter`, { metadata: { managedFields: [{}] }, data: { c: '3' } },
    { 'content-type': 'application/merge-patch+json' });
  assert.deepEqual(reset.body.metadata.managedFields.map((e: { manager: string; fieldsV1: unknown }) => [e.manager, e.fieldsV1]),
    [['resetter', { 'f:data': { 'f:c': {} } }]]);
});
