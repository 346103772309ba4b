import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject, Status } from '@svc-apiserver/api';
import { generatedSuffixAlphabet } from '../../meta/generate-name.js';
import { testRegistry } from '../../testing/test-registry.js';

type Obj = KubeObject & { data?: Record<string, string>; spec?: Record<string, unknown>; status?: Record<string, unknown> };
const cm = (name: string, data: Record<string, string> = { a: '1' }, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data });

test('configmap CRUD: create, get, update, list, delete with kube status codes and messages', async () => {
  const { call } = await testRegistry();
  const created = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('cfg') });
  assert.equal(created.code, 201);
  const obj = created.body as Obj;
  assert.equal(obj.kind, 'ConfigMap');
  assert.equal(obj.apiVersion, 'v1');
  assert.equal(obj.metadata?.namespace, 'default');
  assert.match(obj.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
  assert.match(obj.metadata?.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.ok(Number(obj.metadata?.resourceVersion) > 0);
  assert.equal(obj.metadata?.generation, undefined);

  const again = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('cfg') });
  assert.equal(again.code, 409);
  assert.equal((again.body as Status).reason, 'AlreadyExists');
  assert.equal((again.body as Status).message, 'configmaps "cfg" already exists');

  const got = await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'cfg' });
  assert.deepEqual(got.body, obj);
  const missing = await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'nope' });
  assert.equal(missing.code, 404);
  assert.equal((missing.body as Status).message, 'configmaps "nope" not found');

  const updated = await call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'cfg', body: { ...obj, data: { a: '2' } } });
  assert.equal(updated.code, 200);
  assert.equal((updated.body as Obj).data?.a, '2');
  assert.notEqual((updated.body as Obj).metadata?.resourceVersion, obj.metadata?.resourceVersion);

  const stale = await call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'cfg', body: { ...obj, data: { a: '3' } } });
  assert.equal(stale.code, 409);
  assert.equal((stale.body as Status).reason, 'Conflict');
  assert.equal((stale.body as Status).message,
    'Operation cannot be fulfilled on configmaps "cfg": the object has been modified; please apply your changes to the latest version and try again');

  const list = await call({ verb: 'list', resource: 'configmaps', namespace: 'default' });
  const l = list.body as { kind: string; items: Obj[]; metadata: { resourceVersion: string } };
  assert.equal(l.kind, 'ConfigMapList');
  assert.equal(l.items.length, 1);
  assert.equal(l.items[0]!.kind, undefined);

  const deleted = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'cfg' });
  assert.equal(deleted.code, 200);
  assert.equal((deleted.body as Status).status, 'Success');
  assert.equal((deleted.body as Status).details?.name, 'cfg');
  assert.equal((await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'cfg' })).code, 404);
  assert.equal((await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'cfg' })).code, 404);
});

test('unknown resources answer 404 and unsupported verbs 405', async () => {
  const { call } = await testRegistry();
  const unknown = await call({ verb: 'list', resource: 'widgets', namespace: 'default' });
  assert.equal(unknown.code, 404);
  assert.equal((unknown.body as Status).message, 'the server could not find the requested resource');
  const finalizeGet = await call({ verb: 'get', resource: 'namespaces', name: 'default', namespace: 'default', subresource: 'finalize' });
  assert.equal(finalizeGet.code, 405);
  const badSub = await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'x', subresource: 'status' });
  assert.equal(badSub.code, 404);
  const putCollection = await call({ verb: 'update', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'x' } } });
  assert.equal(putCollection.code, 405);
  const postNamed = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', name: 'x', body: { metadata: { name: 'x' } } });
  assert.equal(postNamed.code, 405);
});

test('generateName picks a 5-character suffix from kube\'s alphabet; names are validated', async () => {
  const { call } = await testRegistry();
  const res = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { generateName: 'gen-' } } });
  assert.equal(res.code, 201);
  const name = (res.body as Obj).metadata?.name ?? '';
  assert.match(name, new RegExp(`^gen-[${generatedSuffixAlphabet}]{5}$`));
  const bad = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('Bad_Name') });
  assert.equal(bad.code, 422);
  const status = bad.body as Status;
  assert.equal(status.reason, 'Invalid');
  assert.match(status.message ?? '', /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/);
  assert.equal(status.details?.causes?.[0]?.field, 'metadata.name');
  const none = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: {} } });
  assert.equal((none.body as Status).message, 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  const svc = await call({ verb: 'create', resource: 'services', namespace: 'default', body: { metadata: { name: '1abc' }, spec: { ports: [{ port: 80 }] } } });
  assert.equal(svc.code, 422, 'services use DNS-1035 labels');
});

test('create-on-update: leases are created by PUT (201), configmaps are not (404); name must match the URL', async () => {
  const { call } = await testRegistry();
  const lease = await call({ verb: 'update', group: 'coordination.svc.io', resource: 'leases', namespace: 'default', name: 'l1',
    body: { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'l1' }, spec: { holderIdentity: 'a' } } });
  assert.equal(lease.code, 201);
  const put = await call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'x', body: cm('x') });
  assert.equal(put.code, 404);
  const mismatch = await call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'y', body: cm('x') });
  assert.equal(mismatch.code, 400);
  assert.equal((mismatch.body as Status).message, 'the name of the object (x) does not match the name on the URL (y)');
  const wrongKind = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { ...cm('z'), kind: 'Secret' } });
  assert.equal(wrongKind.code, 400);
  const wrongNs = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('z', {}, { namespace: 'other' }) });
  assert.equal(wrongNs.code, 400);
});

test('status subresource: main writes keep status, /status writes keep spec; generation bumps on spec changes only', async () => {
  const { call } = await testRegistry();
  const rc = { metadata: { name: 'rc' }, spec: { replicas: 1, selector: { a: 'b' }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } }, status: { replicas: 7 } };
  const created = (await call({ verb: 'create', resource: 'replicationcontrollers', namespace: 'default', body: rc })).body as Obj;
  assert.equal(created.metadata?.generation, 1);
  assert.deepEqual(created.status, { replicas: 0 }, 'the status sent is dropped on create; the zero status kube encodes stands');

  const withStatus = await call({ verb: 'update', resource: 'replicationcontrollers', namespace: 'default', name: 'rc', subresource: 'status',
    body: { ...created, spec: { ...created.spec, replicas: 5 }, status: { replicas: 3 } } });
  assert.equal(withStatus.code, 200);
  const s1 = withStatus.body as Obj;
  assert.deepEqual(s1.status, { replicas: 3 });
  assert.equal(s1.spec?.replicas, 1, 'spec change through /status ignored');
  assert.equal(s1.metadata?.generation, 1);

  const main = await call({ verb: 'update', resource: 'replicationcontrollers', namespace: 'default', name: 'rc',
    body: { ...s1, spec: { ...s1.spec, replicas: 2 }, status: { replicas: 99 } } });
  const m = main.body as Obj;
  assert.equal(m.spec?.replicas, 2);
  assert.deepEqual(m.status, { replicas: 3 }, 'status change through the main resource ignored');
  assert.equal(m.metadata?.generation, 2);

  const labels = await call({ verb: 'patch', resource: 'replicationcontrollers', namespace: 'default', name: 'rc',
    contentType: 'application/merge-patch+json', body: { metadata: { labels: { x: 'y' } } } });
  assert.equal((labels.body as Obj).metadata?.generation, 2, 'metadata changes do not bump generation');
  const st = await call({ verb: 'get', resource: 'replicationcontrollers', namespace: 'default', name: 'rc', subresource: 'status' });
  assert.equal((st.body as Obj).kind, 'ReplicationController');
});

test('pods: containers required, status Pending on create', async () => {
  const { call } = await testRegistry();
  const bad = await call({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } } });
  assert.equal(bad.code, 422);
  assert.equal((bad.body as Status).details?.causes?.[0]?.field, 'spec.containers[0].image');
  const ok = await call({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } });
  assert.equal(ok.code, 201);
  assert.deepEqual((ok.body as Obj).status, { phase: 'Pending', qosClass: 'BestEffort' });
  const del = await call({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'p' });
  assert.equal((del.body as Obj).kind, 'Pod', 'pods return the deleted object');
});

test('finalizers: delete marks, a second delete keeps deletionTimestamp, removing the last finalizer removes the object', async () => {
  const { call } = await testRegistry();
  await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('f', {}, { finalizers: ['example.com/hold'] }) });
  const first = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'f' });
  assert.equal(first.code, 200);
  const marked = first.body as Obj;
  assert.ok(marked.metadata?.deletionTimestamp);
  assert.equal(marked.kind, 'ConfigMap');
  const second = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'f' });
  assert.equal((second.body as Obj).metadata?.deletionTimestamp, marked.metadata?.deletionTimestamp);
  assert.equal((second.body as Obj).metadata?.resourceVersion, marked.metadata?.resourceVersion);
  const addFinalizer = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'f', contentType: 'application/merge-patch+json',
    body: { metadata: { finalizers: ['example.com/hold', 'example.com/other'] } } });
  assert.equal(addFinalizer.code, 422, 'no new finalizers while deleting');
  const release = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'f', contentType: 'application/json-patch+json',
    body: [{ op: 'remove', path: '/metadata/finalizers' }] });
  assert.equal(release.code, 200);
  assert.equal((await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'f' })).code, 404);
});

test('delete preconditions and dry run', async () => {
  const { call } = await testRegistry();
  const created = (await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('d') })).body as Obj;
  const pre = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'd', body: { preconditions: { uid: 'other' } } });
  assert.equal(pre.code, 409);
  assert.match((pre.body as Status).message ?? '', /Precondition failed: UID in precondition: other, UID in object meta: /);
  const dry = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'd', query: { dryRun: 'All' } });
  assert.equal(dry.code, 200);
  assert.equal((await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'd' })).code, 200);
  const dryCreate = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('dry'), query: { dryRun: 'All' } });
  assert.equal(dryCreate.code, 201);
  assert.equal((await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'dry' })).code, 404);
  const dryUpdate = await call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'd', body: { ...created, data: { a: 'z' } }, query: { dryRun: 'All' } });
  assert.equal((dryUpdate.body as Obj).data?.a, 'z');
  assert.equal(((await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'd' })).body as Obj).data?.a, '1');
  const ok = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'd', body: { preconditions: { uid: created.metadata?.uid, resourceVersion: created.metadata?.resourceVersion } } });
  assert.equal(ok.code, 200);
});

test('patches: merge, JSON and strategic merge patch, failing test op 422, no-op keeps resourceVersion, apply without fieldManager 422', async () => {
  const { call } = await testRegistry();
  const created = (await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('p', { a: '1', b: '2' }) })).body as Obj;
  const merged = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/merge-patch+json',
    body: { data: { a: null, c: '3' } } });
  assert.equal(merged.code, 200);
  assert.deepEqual((merged.body as Obj).data, { b: '2', c: '3' });
  const rv = (merged.body as Obj).metadata?.resourceVersion;
  const noop = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/merge-patch+json', body: { data: { b: '2' } } });
  assert.equal((noop.body as Obj).metadata?.resourceVersion, rv);
  const json = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/json-patch+json',
    body: [{ op: 'test', path: '/data/b', value: '2' }, { op: 'replace', path: '/data/b', value: 'x' }] });
  assert.equal((json.body as Obj).data?.b, 'x');
  const failed = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/json-patch+json',
    body: [{ op: 'test', path: '/data/b', value: 'nope' }] });
  assert.equal(failed.code, 422);
  const smp = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/strategic-merge-patch+json',
    body: { metadata: { labels: { tier: 'web' } }, data: { c: null } } });
  assert.equal(smp.code, 200);
  assert.deepEqual((smp.body as Obj).metadata?.labels, { tier: 'web' });
  assert.deepEqual((smp.body as Obj).data, { b: 'x' });
  const badSmp = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/strategic-merge-patch+json',
    body: { metadata: { $patch: 'bogus' } } });
  assert.equal(badSmp.code, 400);
  const apply = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/apply-patch+yaml', body: {} });
  assert.equal(apply.code, 422);
  assert.equal((apply.body as Status).message, 'PatchOptions.meta.svc.io "" is invalid: fieldManager: Required value: is required for apply patch');
  const staleRv = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/merge-patch+json',
    body: { metadata: { resourceVersion: created.metadata?.resourceVersion }, data: { q: '1' } } });
  assert.equal(staleRv.code, 409);
  const rename = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'p', contentType: 'application/merge-patch+json', body: { metadata: { name: 'q' } } });
  assert.equal(rename.code, 400);
});

test('field validation: Warn warns per unknown field and drops it, Strict fails with 400, type errors are 400', async () => {
  const { call } = await testRegistry();
  const warn = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { ...cm('w'), foo: 1, metadata: { name: 'w', bar: 2 } } });
  assert.equal(warn.code, 201);
  assert.deepEqual(warn.warnings.sort(), ['unknown field "foo"', 'unknown field "metadata.bar"']);
  assert.equal((warn.body as Obj).foo, undefined);
  const strict = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', query: { fieldValidation: 'Strict' }, body: { ...cm('s'), foo: 1 } });
  assert.equal(strict.code, 400);
  assert.equal((strict.body as Status).message, 'strict decoding error: unknown field "foo"');
  const ignore = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', query: { fieldValidation: 'Ignore' }, body: { ...cm('i'), foo: 1 } });
  assert.equal(ignore.code, 201);
  assert.deepEqual(ignore.warnings, []);
  const typed = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 't' }, data: { a: 1 } } });
  assert.equal(typed.code, 400);
  assert.match((typed.body as Status).message ?? '', /^ConfigMap in version "v1" cannot be handled as a ConfigMap: /);
});

test('NamespaceLifecycle: missing namespace 404, immortal namespaces 403', async () => {
  const { call } = await testRegistry(['default', 'svc-system']);
  const missing = await call({ verb: 'create', resource: 'configmaps', namespace: 'ghost', body: cm('x') });
  assert.equal(missing.code, 404);
  assert.equal((missing.body as Status).message, 'namespaces "ghost" not found');
  for (const name of ['default', 'svc-system']) {
    const del = await call({ verb: 'delete', resource: 'namespaces', name, namespace: name });
    assert.equal(del.code, 403);
    assert.equal((del.body as Status).message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
  }
});

test('namespaces: finalizer and name label on create; delete goes Terminating; new content is refused', async () => {
  const { call, names } = await testRegistry(['default', 'doomed']);
  const ns = (await call({ verb: 'get', resource: 'namespaces', name: 'doomed', namespace: 'doomed' })).body as Obj;
  assert.deepEqual(ns.spec, { finalizers: [names.name('namespaceFinalizer')] });
  assert.deepEqual(ns.status, { phase: 'Active' });
  assert.equal(ns.metadata?.labels?.[names.domain('metadata.name')], 'doomed');
  const del = await call({ verb: 'delete', resource: 'namespaces', name: 'doomed', namespace: 'doomed' });
  assert.equal(del.code, 200);
  assert.equal((del.body as Obj).status?.phase, 'Terminating');
  assert.ok((del.body as Obj).metadata?.deletionTimestamp);
  const refused = await call({ verb: 'create', resource: 'configmaps', namespace: 'doomed', body: cm('late') });
  assert.equal(refused.code, 403);
  assert.equal((refused.body as Status).message, 'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated');
});

test('secrets: stringData merged into data, type defaulted and immutable, immutable data', async () => {
  const { call } = await testRegistry();
  const created = await call({ verb: 'create', resource: 'secrets', namespace: 'default', body: { metadata: { name: 's' }, data: { a: 'YQ==' }, stringData: { b: 'hi' } } });
  assert.equal(created.code, 201);
  const s = created.body as Obj & { type?: string; stringData?: unknown };
  assert.deepEqual(s.data, { a: 'YQ==', b: 'aGk=' });
  assert.equal(s.stringData, undefined);
  assert.equal(s.type, 'Opaque');
  const retype = await call({ verb: 'update', resource: 'secrets', namespace: 'default', name: 's', body: { ...s, type: 'other' } });
  assert.equal(retype.code, 422);
  // kube's decoder refuses data that is not base64 before validation: 400, not 422.
  const badB64 = await call({ verb: 'create', resource: 'secrets', namespace: 'default', body: { metadata: { name: 'b' }, data: { a: '!!' } } });
  assert.equal(badB64.code, 400);
  assert.match(String((badB64.body as { message?: string }).message), /illegal base64 data at input byte 0/);
  await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { ...cm('im'), immutable: true } });
  const frozen = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'im', contentType: 'application/merge-patch+json', body: { data: { a: '9' } } });
  assert.equal(frozen.code, 422);
});

test('list: label and field selectors, bad selectors 400, pages of one snapshot', async () => {
  const { call } = await testRegistry();
  for (let i = 0; i < 5; i++) {
    await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm(`c${i}`, {}, { labels: { idx: String(i), tier: i % 2 ? 'odd' : 'even' } }) });
  }
  const names = async (query: Record<string, string>) =>
    ((await call({ verb: 'list', resource: 'configmaps', namespace: 'default', query })).body as { items: Obj[] }).items.map((o) => o.metadata?.name);
  assert.deepEqual(await names({ labelSelector: 'tier=odd' }), ['c1', 'c3']);
  assert.deepEqual(await names({ labelSelector: 'idx in (0,4),tier!=odd' }), ['c0', 'c4']);
  assert.deepEqual(await names({ fieldSelector: 'metadata.name=c2' }), ['c2']);
  assert.deepEqual(await names({ fieldSelector: 'metadata.name!=c2', labelSelector: '!missing' }), ['c0', 'c1', 'c3', 'c4']);
  const bad = await call({ verb: 'list', resource: 'configmaps', namespace: 'default', query: { fieldSelector: 'spec.foo=1' } });
  assert.equal(bad.code, 400);
  assert.equal((bad.body as Status).message, 'field label not supported: spec.foo');
  assert.equal((await call({ verb: 'list', resource: 'configmaps', namespace: 'default', query: { labelSelector: 'a in (' } })).code, 400);

  const page1 = (await call({ verb: 'list', resource: 'configmaps', namespace: 'default', query: { limit: '2' } })).body as { items: Obj[]; metadata: { continue?: string; resourceVersion: string } };
  assert.deepEqual(page1.items.map((o) => o.metadata?.name), ['c0', 'c1']);
  assert.ok(page1.metadata.continue);
  await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('c5') });
  const rest: string[] = [];
  let token: string | undefined = page1.metadata.continue;
  while (token) {
    const page = (await call({ verb: 'list', resource: 'configmaps', namespace: 'default', query: { limit: '2', continue: token! } })).body as typeof page1;
    assert.equal(page.metadata.resourceVersion, page1.metadata.resourceVersion);
    rest.push(...page.items.map((o) => o.metadata?.name ?? ''));
    token = page.metadata.continue;
  }
  assert.deepEqual(rest, ['c2', 'c3', 'c4'], 'the object created between pages is not in the snapshot');
  const selectedPage = (await call({ verb: 'list', resource: 'configmaps', namespace: 'default', query: { limit: '1', labelSelector: 'tier=odd' } })).body as typeof page1;
  assert.deepEqual(selectedPage.items.map((o) => o.metadata?.name), ['c1']);
  assert.ok(selectedPage.metadata.continue);
  const all = await call({ verb: 'list', resource: 'configmaps', query: {} });
  assert.equal((all.body as { items: Obj[] }).items.length, 6, 'all-namespaces list');
});

test('deletecollection deletes what the selector selects and answers the list', async () => {
  const { call } = await testRegistry();
  for (const [n, t] of [['a', 'x'], ['b', 'y'], ['c', 'x']] as const) {
    await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm(n, {}, { labels: { t } }) });
  }
  const res = await call({ verb: 'deletecollection', resource: 'configmaps', namespace: 'default', query: { labelSelector: 't=x' } });
  assert.equal(res.code, 200);
  assert.equal((res.body as { kind: string }).kind, 'ConfigMapList');
  assert.deepEqual((res.body as { items: Obj[] }).items.map((o) => o.metadata?.name), ['a', 'c']);
  const left = (await call({ verb: 'list', resource: 'configmaps', namespace: 'default' })).body as { items: Obj[] };
  assert.deepEqual(left.items.map((o) => o.metadata?.name), ['b']);
});

test('the all-namespaces path of a namespaced resource serves only list and watch: 405 for its other methods, 404 for named paths', async () => {
  const { call } = await testRegistry();
  assert.equal((await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: cm('kept') })).code, 201);
  assert.equal((await call({ verb: 'list', resource: 'configmaps' })).code, 200);
  for (const verb of ['deletecollection', 'create', 'update', 'patch'] as const) {
    const r = await call({ verb, resource: 'configmaps', body: cm('kept') });
    assert.equal(r.code, 405, verb);
    assert.equal((r.body as Status).reason, 'MethodNotAllowed', verb);
  }
  for (const verb of ['get', 'update', 'delete'] as const) {
    const r = await call({ verb, resource: 'configmaps', name: 'kept', body: cm('kept') });
    assert.equal(r.code, 404, verb);
    assert.equal((r.body as Status).message, 'the server could not find the requested resource', verb);
  }
  // A resource that cannot be listed (pods/binding addressed as `bindings`) has no all-namespaces route at all.
  assert.equal((await call({ verb: 'create', resource: 'bindings', body: { metadata: { name: 'p' } } })).code, 404);
  assert.equal((await call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'kept' })).code, 200, 'nothing was deleted');
});
