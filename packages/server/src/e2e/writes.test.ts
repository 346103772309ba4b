/**
 * The write paths over HTTPS against the real server: the three patch types (strategic merge directives
 * included), field validation at every level with nested and duplicate fields, dry run on every verb leaving the
 * store revision unchanged, PUT semantics, delete options and deletecollection paging.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Reply } from './http.js';
import { serverForFile } from './server-process.js';

const ns = 'e2e-writes';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const pods = `/api/v1/namespaces/${ns}/pods`;
const podTemplates = `/api/v1/namespaces/${ns}/podtemplates`;
const server = serverForFile({}, ns);

const patch = (path: string, type: string, body: unknown, query = ''): Promise<Reply> =>
  call(server().client, 'PATCH', `${path}${query}`, body, { 'content-type': `application/${type}` });
const revision = async (): Promise<string> => (await call(server().client, 'GET', `${cms}?limit=1`)).body.metadata.resourceVersion;
const pod = (name: string, containers: unknown[]) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers } });
// A pod's containers are immutable once created; a pod template's may change freely, so list patching runs there.
const podTemplate = (name: string, containers: unknown[]) => ({
  apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, template: { metadata: { labels: { app: name } }, spec: { containers } },
});

test('JSON patch, merge patch and strategic merge patch; a no-op keeps resourceVersion; failures 422/400', async () => {
  const created = await call(server().client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { a: '1' } });
  assert.equal(created.status, 201);
  const json = await patch(`${cms}/p`, 'json-patch+json', [{ op: 'test', path: '/data/a', value: '1' }, { op: 'add', path: '/data/b', value: '2' }]);
  assert.equal(json.status, 200, json.text);
  assert.deepEqual(json.body.data, { a: '1', b: '2' });
  const failedTest = await patch(`${cms}/p`, 'json-patch+json', [{ op: 'test', path: '/data/a', value: 'nope' }]);
  assert.equal(failedTest.status, 422, failedTest.text);
  const notAList = await patch(`${cms}/p`, 'json-patch+json', { op: 'add' });
  assert.equal(notAList.status, 400, notAList.text);
  const merge = await patch(`${cms}/p`, 'merge-patch+json', { data: { a: null, c: '3' } });
  assert.deepEqual(merge.body.data, { b: '2', c: '3' });
  const noop = await patch(`${cms}/p`, 'merge-patch+json', { data: { c: '3' } });
  assert.equal(noop.status, 200);
  assert.equal(noop.body.metadata.resourceVersion, merge.body.metadata.resourceVersion);

  const p = await call(server().client, 'POST', podTemplates, podTemplate('smp', [{ name: 'a', image: 'x', env: [{ name: 'E1', value: '1' }, { name: 'E2', value: '2' }] }, { name: 'b', image: 'y' }]));
  assert.equal(p.status, 201, p.text);
  const smp = await patch(`${podTemplates}/smp`, 'strategic-merge-patch+json', {
    metadata: { finalizers: ['x.io/f'] },
    template: {
      spec: {
        containers: [{ name: 'a', image: 'x2', env: [{ name: 'E1', $patch: 'delete' }] }],
        '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
      },
    },
  });
  assert.equal(smp.status, 200, smp.text);
  const cs = smp.body.template.spec.containers as { name: string; image: string; env?: { name: string }[] }[];
  assert.deepEqual(cs.map((c) => c.name), ['b', 'a']);
  assert.equal(cs[1]!.image, 'x2');
  assert.deepEqual(cs[1]!.env!.map((e) => e.name), ['E2']);
  const prim = await patch(`${podTemplates}/smp`, 'strategic-merge-patch+json', { metadata: { '$deleteFromPrimitiveList/finalizers': ['x.io/f'] } });
  assert.equal(prim.status, 200, prim.text);
  assert.deepEqual(prim.body.metadata.finalizers ?? [], []);
  const replace = await patch(`${podTemplates}/smp`, 'strategic-merge-patch+json', { template: { spec: { containers: [{ name: 'only', image: 'z' }, { $patch: 'replace' }] } } });
  assert.equal(replace.status, 200, replace.text);
  assert.deepEqual(replace.body.template.spec.containers.map((c: { name: string }) => c.name), ['only'], '$patch: replace makes the other items the list');
  const bogus = await patch(`${podTemplates}/smp`, 'strategic-merge-patch+json', { metadata: { $patch: 'bogus' } });
  assert.equal(bogus.status, 400, bogus.text);
  const immutable = await call(server().client, 'POST', pods, pod('smp', [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }]));
  assert.equal(immutable.status, 201, immutable.text);
  const reorder = await patch(`${pods}/smp`, 'strategic-merge-patch+json', { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'a' }] } });
  assert.equal(reorder.status, 422, 'a pod spec is immutable beyond the few fields kube lets change');
  // The strategic patch wrote an Update entry for its manager.
  assert.ok(smp.body.metadata.managedFields.some((e: { operation: string }) => e.operation === 'Update'));
});

test('field validation: Ignore, Warn and Strict for nested unknown and duplicate fields', async () => {
  const body = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"NAME","labels":{"a":"1","a":"2"}},'
    + '"spec":{"containers":[{"name":"c","image":"i","bogus":1,"image":"j"}],"nope":true}}';
  const send = (name: string, level: string) => call(server().client, 'POST', `${pods}${level ? `?fieldValidation=${level}` : ''}`, body.replace('NAME', name));
  const warned = await send('fv-warn', '');
  assert.equal(warned.status, 201, warned.text);
  assert.equal(warned.headers.warning, [
    '299 - "duplicate field \\"metadata.labels.a\\""',
    '299 - "duplicate field \\"spec.containers[0].image\\""',
    '299 - "unknown field \\"spec.containers[0].bogus\\""',
    '299 - "unknown field \\"spec.nope\\""',
  ].join(', '));
  assert.equal(warned.body.spec.containers[0].image, 'j', 'the last duplicate wins');
  assert.equal(warned.body.spec.nope, undefined, 'unknown fields are dropped');
  const strict = await send('fv-strict', 'Strict');
  assert.equal(strict.status, 400, strict.text);
  assert.equal(strict.body.message, 'strict decoding error: duplicate field "metadata.labels.a", duplicate field "spec.containers[0].image", '
    + 'unknown field "spec.containers[0].bogus", unknown field "spec.nope"');
  const ignored = await send('fv-ignore', 'Ignore');
  assert.equal(ignored.status, 201);
  assert.equal(ignored.headers.warning, undefined);
  // With another fatal error, only that error is reported, with no unknown-field information, at every level.
  for (const level of ['', 'Strict']) {
    const fatal = await call(server().client, 'POST', `${pods}${level ? `?fieldValidation=${level}` : ''}`,
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fatal' }, spec: { containers: 'nope', bogus: 1 } });
    assert.equal(fatal.status, 400, fatal.text);
    assert.doesNotMatch(fatal.body.message, /unknown field/);
    assert.equal(fatal.headers.warning, undefined);
  }
  const invalid = await call(server().client, 'POST', `${cms}?fieldValidation=Sometimes`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  assert.equal(invalid.status, 422);
  assert.equal(invalid.body.message, 'CreateOptions.meta.svc.io "" is invalid: fieldValidation: Unsupported value: "Sometimes": supported values: "", "Ignore", "Strict", "Warn"');
});

test('dryRun=All on create, update, patch, delete and deletecollection stores nothing', async () => {
  const made = await call(server().client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry', labels: { dry: 'yes' } }, data: { a: '1' } });
  assert.equal(made.status, 201);
  const before = await revision();
  const create = await call(server().client, 'POST', `${cms}?dryRun=All`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry2' } });
  assert.equal(create.status, 201, create.text);
  const update = await call(server().client, 'PUT', `${cms}/dry?dryRun=All`, { ...made.body, data: { a: '2' } });
  assert.equal(update.status, 200, update.text);
  assert.equal(update.body.data.a, '2');
  const merge = await patch(`${cms}/dry`, 'merge-patch+json', { data: { a: '3' } }, '?dryRun=All');
  assert.equal(merge.status, 200);
  assert.equal(merge.body.data.a, '3');
  const del = await call(server().client, 'DELETE', `${cms}/dry?dryRun=All`);
  assert.equal(del.status, 200, del.text);
  const coll = await call(server().client, 'DELETE', `${cms}?dryRun=All&labelSelector=dry%3Dyes`);
  assert.equal(coll.status, 200, coll.text);
  assert.deepEqual(coll.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['dry']);
  const bad = await call(server().client, 'POST', `${cms}?dryRun=Yes`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry3' } });
  assert.equal(bad.status, 422);
  assert.equal(bad.body.message, 'CreateOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"Yes"}: supported values: "All"');
  assert.equal(await revision(), before);
  const still = await call(server().client, 'GET', `${cms}/dry`);
  assert.equal(still.body.data.a, '1');
  assert.equal((await call(server().client, 'GET', `${cms}/dry2`)).status, 404);
});

test('PUT: create or update by existing state, unconditional without resourceVersion, uid mismatch 409', async () => {
  const leases = `/apis/coordination.svc.io/v1/namespaces/${ns}/leases`;
  const lease = { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a' } };
  const first = await call(server().client, 'PUT', `${leases}/l`, lease);
  assert.equal(first.status, 201, first.text);
  const second = await call(server().client, 'PUT', `${leases}/l`, { ...lease, spec: { holderIdentity: 'b' } });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.body.spec.holderIdentity, 'b');
  const wrongUid = await call(server().client, 'PUT', `${leases}/l`, { ...lease, metadata: { name: 'l', uid: '6f1c2a4e-0000-4000-8000-000000000000' } });
  assert.equal(wrongUid.status, 409, wrongUid.text);
  assert.equal(wrongUid.body.message,
    `Operation cannot be fulfilled on leases.coordination.svc.io "l": Precondition failed: UID in precondition: 6f1c2a4e-0000-4000-8000-000000000000, UID in object meta: ${first.body.metadata.uid}`);
  const stale = await call(server().client, 'PUT', `${leases}/l`, { ...lease, metadata: { name: 'l', resourceVersion: first.body.metadata.resourceVersion } });
  assert.equal(stale.status, 409);
  const missingCm = await call(server().client, 'PUT', `${cms}/nothere`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nothere' } });
  assert.equal(missingCm.status, 404, 'configmaps do not create on update');
});

test('DELETE options: preconditions 409, body or query options, deletecollection with limit and continue', async () => {
  const made = await call(server().client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pre' } });
  const uidMismatch = await call(server().client, 'DELETE', `${cms}/pre`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'other' } });
  assert.equal(uidMismatch.status, 409, uidMismatch.text);
  const rvMismatch = await call(server().client, 'DELETE', `${cms}/pre`, { preconditions: { resourceVersion: '1' } });
  assert.equal(rvMismatch.status, 409);
  const ok = await call(server().client, 'DELETE', `${cms}/pre`, { preconditions: { uid: made.body.metadata.uid }, propagationPolicy: 'Background' });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.kind, 'Status');
  assert.equal(ok.body.status, 'Success');
  assert.deepEqual(ok.body.details, { name: 'pre', kind: 'configmaps', uid: made.body.metadata.uid });

  for (const n of ['page-1', 'page-2', 'page-3']) {
    await call(server().client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: { page: 'yes' } } });
  }
  const firstPage = await call(server().client, 'DELETE', `${cms}?labelSelector=page%3Dyes&limit=2`);
  assert.equal(firstPage.status, 200, firstPage.text);
  assert.equal(firstPage.body.kind, 'ConfigMapList');
  assert.deepEqual(firstPage.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['page-1', 'page-2']);
  assert.ok(firstPage.body.metadata.continue);
  const rest = await call(server().client, 'DELETE', `${cms}?labelSelector=page%3Dyes&limit=2&continue=${encodeURIComponent(firstPage.body.metadata.continue)}`);
  assert.deepEqual(rest.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['page-3']);
  const left = await call(server().client, 'GET', `${cms}?labelSelector=page%3Dyes`);
  assert.deepEqual(left.body.items, []);
});

test('graceful pod deletion: a bound pod stays Terminating until --grace-period=0 --force; unbound pods go at once', async () => {
  const bound = await call(server().client, 'POST', pods, { ...pod('graceful', [{ name: 'c', image: 'nginx' }]), spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } });
  assert.equal(bound.status, 201, bound.text);
  // kubectl delete sends DeleteOptions in the body.
  const first = await call(server().client, 'DELETE', `${pods}/graceful`, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.kind, 'Pod');
  assert.equal(first.body.metadata.deletionGracePeriodSeconds, 30);
  assert.ok(Date.parse(first.body.metadata.deletionTimestamp) > Date.now() + 20_000, first.body.metadata.deletionTimestamp);
  const longer = await call(server().client, 'DELETE', `${pods}/graceful?gracePeriodSeconds=120`);
  assert.equal(longer.status, 200);
  assert.equal(longer.body.metadata.deletionGracePeriodSeconds, 30, 'a grace period may only shorten');
  assert.equal((await call(server().client, 'GET', `${pods}/graceful`)).status, 200, 'Terminating: no node agent finishes it');
  const forced = await call(server().client, 'DELETE', `${pods}/graceful`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
  assert.equal(forced.status, 200, forced.text);
  assert.equal((await call(server().client, 'GET', `${pods}/graceful`)).status, 404);

  const unbound = await call(server().client, 'POST', pods, pod('unbound', [{ name: 'c', image: 'nginx' }]));
  assert.equal(unbound.status, 201);
  assert.equal((await call(server().client, 'DELETE', `${pods}/unbound`)).status, 200);
  assert.equal((await call(server().client, 'GET', `${pods}/unbound`)).status, 404);
});

test('a member named __proto__ is a member like any other: kept by every write, merged by every patch type', async () => {
  // Bodies built from JSON text: a JavaScript literal would set the prototype instead.
  const body = (text: string): unknown => JSON.parse(text);
  const data = async (): Promise<unknown> => (await call(server().client, 'GET', `${cms}/proto`)).body.data;
  const expectData = async (text: string, what: string): Promise<void> => assert.equal(JSON.stringify(await data()), JSON.stringify(JSON.parse(text)), what);
  const created = await call(server().client, 'POST', cms, body('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto"},"data":{"a":"1"}}'));
  assert.equal(created.status, 201, created.text);
  assert.equal((await patch(`${cms}/proto`, 'merge-patch+json', body('{"data":{"__proto__":"m"}}'))).status, 200);
  await expectData('{"a":"1","__proto__":"m"}', 'merge patch adds it');
  assert.equal((await patch(`${cms}/proto`, 'strategic-merge-patch+json', body('{"data":{"b":"2"}}'))).status, 200);
  await expectData('{"a":"1","__proto__":"m","b":"2"}', 'a strategic merge patch of other members keeps it');
  assert.equal((await patch(`${cms}/proto`, 'strategic-merge-patch+json', body('{"data":{"__proto__":"s"}}'))).status, 200);
  await expectData('{"a":"1","__proto__":"s","b":"2"}', 'a strategic merge patch changes it');
  const applied = await patch(`${cms}/proto`, 'apply-patch+yaml', body('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto"},"data":{"__proto__":"y","c":"3"}}'), '?fieldManager=applier&force=true');
  assert.equal(applied.status, 200, applied.text);
  await expectData('{"a":"1","__proto__":"y","b":"2","c":"3"}', 'apply merges it');
  assert.equal((await patch(`${cms}/proto`, 'merge-patch+json', body('{"data":{"__proto__":null}}'))).status, 200);
  await expectData('{"a":"1","b":"2","c":"3"}', 'merge patch removes it');
  const json = await patch(`${cms}/proto`, 'json-patch+json', [{ op: 'add', path: '/data/__proto__/x', value: 'p' }]);
  assert.equal(json.status, 422);
  assert.match(json.text, /operation 0 \(add \/data\/__proto__\/x\): this server does not patch members named \\"__proto__\\"/);
  assert.equal(({} as Record<string, unknown>)['x'], undefined, 'nothing reached Object.prototype');
});
