/**
 * CustomResourceDefinitions end to end against the real server process over HTTPS: a CRD becomes Established and
 * its resource appears in discovery and OpenAPI; custom objects get the generic verbs (CRUD, selectors, pages,
 * watch, JSON and merge patch, server-side apply by the schema's list types), pruning by field validation level,
 * schema defaults and kube's validation messages, status and scale subresources, printer columns, dry run,
 * deletecollection, generation, garbage collection by owner references; strategic merge patch is 415 and protobuf
 * 406; invalid CRDs are 422 with kube's field paths, conflicting names are not accepted, and deleting a CRD deletes
 * its objects before it goes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call, createNamespace, eventually, type Reply } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { cronTabCrd, establish } from './crd-fixtures.js';

const names = namesFor('svc');
const ext = names.group('apiextensions');
const crdPath = `/apis/${ext}/v1/customresourcedefinitions`;
const ns = 'crd-e2e';
const group = 'stable.example.com';
const base = `/apis/${group}/v1/namespaces/${ns}/crontabs`;
let server: ServerProcess;

const cronTab = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
  ({ apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name, ...metadata }, spec: { cronSpec: '*/5 * * * *', ...spec } });

function created(r: Reply): void {
  assert.equal(r.status, 201, r.text);
}

before(async () => {
  server = await startServerProcess({ storage: 'memory' });
  await createNamespace(server.client, ns);
  const ms = await establish(server, cronTabCrd());
  assert.ok(ms < 2000, `Established within a second or so (${ms} ms)`);
});
after(async () => {
  await server?.stop();
});

test('a CRD gets accepted names, conditions and stored versions; its resource is discovered', async () => {
  const crd = (await call(server.client, 'GET', `${crdPath}/crontabs.${group}`)).body;
  assert.deepEqual(crd.status.storedVersions, ['v1']);
  assert.equal(crd.status.acceptedNames.kind, 'CronTab');
  assert.equal(crd.status.acceptedNames.listKind, 'CronTabList');
  const byType = Object.fromEntries(crd.status.conditions.map((c: { type: string }) => [c.type, c]));
  assert.equal(byType.NamesAccepted.status, 'True');
  assert.equal(byType.NamesAccepted.reason, 'NoConflicts');
  assert.equal(byType.Established.reason, 'InitialNamesAccepted');

  const list = await call(server.client, 'GET', `/apis/${group}/v1`);
  assert.equal(list.status, 200);
  const resourceNames = list.body.resources.map((r: { name: string }) => r.name);
  assert.deepEqual(resourceNames, ['crontabs', 'crontabs/status', 'crontabs/scale']);
  const main = list.body.resources[0];
  assert.deepEqual(main.shortNames, ['ct']);
  assert.deepEqual(main.categories, ['all']);
  assert.equal(main.kind, 'CronTab');
  const groups = await call(server.client, 'GET', '/apis');
  assert.ok(groups.body.groups.some((g: { name: string }) => g.name === group));
  const aggregated = await call(server.client, 'GET', '/apis', undefined, {
    accept: `application/json;g=${names.group('apidiscovery')};v=v2beta1;as=APIGroupDiscoveryList`,
  });
  const item = aggregated.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === group);
  assert.ok(item, 'aggregated discovery lists the group');
  assert.equal(item.versions[0].resources[0].resource, 'crontabs');

  const v3 = await call(server.client, 'GET', `/openapi/v3/apis/${group}/v1`);
  assert.equal(v3.status, 200);
  const schema = v3.body.components.schemas['com.example.stable.v1.CronTab'];
  assert.equal(schema.properties.spec.properties.cronSpec.description, 'The cron schedule.');
  assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group, kind: 'CronTab', version: 'v1' }]);
  assert.ok(v3.body.paths[`/apis/${group}/v1/namespaces/{namespace}/crontabs/{name}`]);
  const index = await call(server.client, 'GET', '/openapi/v3');
  assert.ok(index.body.paths[`apis/${group}/v1`]);
  const v2 = await call(server.client, 'GET', '/openapi/v2');
  assert.ok(v2.body.definitions['com.example.stable.v1.CronTab']);
});

test('create, get, update, merge and JSON patch, delete; defaults applied; generation on spec changes', async () => {
  const c = await call(server.client, 'POST', base, cronTab('one', {}, { labels: { tier: 'a' } }));
  created(c);
  assert.equal(c.body.spec.image, 'busybox', 'default applied');
  assert.equal(c.body.spec.replicas, 1);
  assert.equal(c.body.metadata.generation, 1);
  const got = await call(server.client, 'GET', `${base}/one`);
  assert.equal(got.body.metadata.uid, c.body.metadata.uid);
  const put = await call(server.client, 'PUT', `${base}/one`, { ...got.body, spec: { ...got.body.spec, replicas: 3 } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.metadata.generation, 2);
  const merge = await call(server.client, 'PATCH', `${base}/one`, { metadata: { labels: { tier: 'b' } } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(merge.status, 200, merge.text);
  assert.equal(merge.body.metadata.generation, 2, 'metadata changes keep the generation');
  const json = await call(server.client, 'PATCH', `${base}/one`, [{ op: 'replace', path: '/spec/image', value: 'nginx' }], { 'content-type': 'application/json-patch+json' });
  assert.equal(json.status, 200, json.text);
  assert.equal(json.body.spec.image, 'nginx');
  const stale = await call(server.client, 'PUT', `${base}/one`, { ...got.body });
  assert.equal(stale.status, 409);
  const smp = await call(server.client, 'PATCH', `${base}/one`, { spec: { image: 'x' } }, { 'content-type': 'application/strategic-merge-patch+json' });
  assert.equal(smp.status, 415);
  assert.equal(smp.body.reason, 'UnsupportedMediaType');
  const proto = await call(server.client, 'GET', `${base}/one`, undefined, { accept: 'application/vnd.svc.protobuf' });
  assert.equal(proto.status, 406);
  const nulls = await call(server.client, 'PATCH', `${base}/one`, { spec: { mode: null, image: null } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(nulls.status, 200, nulls.text);
  assert.equal(nulls.body.spec.image, 'busybox', 'a removed field with a default gets it again');
  const del = await call(server.client, 'DELETE', `${base}/one`);
  assert.equal(del.status, 200);
  assert.equal((await call(server.client, 'GET', `${base}/one`)).status, 404);
});

test('unknown fields: pruned silently (Ignore), one warning each (Warn), 400 (Strict); preserved subtrees kept', async () => {
  const body = (name: string) => cronTab(name, { bogus: 1, extra: { anything: { goes: true } } });
  const ignore = await call(server.client, 'POST', `${base}?fieldValidation=Ignore`, body('ignored'));
  created(ignore);
  assert.equal(ignore.body.spec.bogus, undefined);
  assert.deepEqual(ignore.body.spec.extra, { anything: { goes: true } });
  assert.equal(ignore.headers.warning, undefined);
  const warn = await call(server.client, 'POST', base, body('warned'));
  created(warn);
  assert.match(String(warn.headers.warning), /unknown field \\?"spec\.bogus\\?"/);
  const strict = await call(server.client, 'POST', `${base}?fieldValidation=Strict`, body('strict'));
  assert.equal(strict.status, 400);
  assert.equal(strict.body.message, 'strict decoding error: unknown field "spec.bogus"');
});

test('schema errors are 422 with kube-openapi messages and field paths', async () => {
  const bad = await call(server.client, 'POST', base, cronTab('bad', { cronSpec: 'nope', replicas: 'many', image: 'x'.repeat(41), mode: 'medium', ports: [{ name: 'a' }, { name: 'a' }] }));
  assert.equal(bad.status, 422, bad.text);
  assert.equal(bad.body.reason, 'Invalid');
  const causes = bad.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  assert.ok(causes.includes('spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'), causes.join('\n'));
  assert.ok(causes.some((c: string) => c.startsWith("spec.cronSpec: Invalid value: \"nope\": spec.cronSpec in body should match '")), causes.join('\n'));
  assert.ok(causes.includes('spec.image: Too long: may not be longer than 40'), causes.join('\n'));
  assert.ok(causes.includes('spec.mode: Unsupported value: "medium": supported values: "fast", "slow"'), causes.join('\n'));
  assert.ok(causes.includes('spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}'), causes.join('\n'));
  assert.match(bad.body.message, /^CronTab\.stable\.example\.com "bad" is invalid: \[/);
  const missing = await call(server.client, 'POST', base, { apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'missing' }, spec: {} });
  assert.equal(missing.status, 422);
  assert.match(missing.body.message, /spec\.cronSpec: Required value/);
  const over = await call(server.client, 'POST', base, cronTab('over', { replicas: 11 }));
  assert.match(over.body.message, /spec\.replicas: Invalid value: 11: spec\.replicas in body should be less than or equal to 10/);
});

test('lists with selectors and pages, watch, deletecollection, dry run', async () => {
  for (const [name, tier] of [['l1', 'x'], ['l2', 'x'], ['l3', 'y']] as const) created(await call(server.client, 'POST', base, cronTab(name, {}, { labels: { set: 'list', tier } })));
  const byLabel = await call(server.client, 'GET', `${base}?labelSelector=set%3Dlist,tier%3Dx`);
  assert.deepEqual(byLabel.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['l1', 'l2']);
  assert.equal(byLabel.body.kind, 'CronTabList');
  const byField = await call(server.client, 'GET', `${base}?fieldSelector=metadata.name%3Dl3`);
  assert.deepEqual(byField.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['l3']);
  const badField = await call(server.client, 'GET', `${base}?fieldSelector=spec.image%3Dx`);
  assert.equal(badField.status, 400);
  const page1 = await call(server.client, 'GET', `${base}?labelSelector=set%3Dlist&limit=2`);
  assert.equal(page1.body.items.length, 2);
  const page2 = await call(server.client, 'GET', `${base}?labelSelector=set%3Dlist&limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`);
  assert.deepEqual(page2.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['l3']);
  assert.equal(page2.body.metadata.resourceVersion, page1.body.metadata.resourceVersion);

  const events: string[] = [];
  const watch = server.client.watch({ group, version: 'v1', resource: 'crontabs', namespace: ns }, { resourceVersion: page1.body.metadata.resourceVersion, labelSelector: 'set=list' });
  const seen = (async () => {
    for await (const e of watch) {
      events.push(`${e.type} ${e.object.metadata?.name}`);
      if (events.length === 2) break;
    }
  })();
  await call(server.client, 'PATCH', `${base}/l1`, { spec: { replicas: 2 } }, { 'content-type': 'application/merge-patch+json' });
  await call(server.client, 'DELETE', `${base}/l3`);
  await seen;
  watch.close();
  assert.deepEqual(events, ['MODIFIED l1', 'DELETED l3']);

  const dry = await call(server.client, 'POST', `${base}?dryRun=All`, cronTab('dry'));
  created(dry);
  assert.equal((await call(server.client, 'GET', `${base}/dry`)).status, 404);
  const dc = await call(server.client, 'DELETE', `${base}?labelSelector=set%3Dlist`);
  assert.equal(dc.status, 200, dc.text);
  assert.equal((await call(server.client, 'GET', `${base}?labelSelector=set%3Dlist`)).body.items.length, 0);
});

test('server-side apply merges a map list by its keys; conflicts between managers', async () => {
  const apply = (manager: string, body: unknown, force = false) => call(server.client, 'PATCH',
    `${base}/applied?fieldManager=${manager}${force ? '&force=true' : ''}`, JSON.stringify(body), { 'content-type': 'application/apply-patch+yaml' });
  const a = await apply('alice', cronTab('applied', { ports: [{ name: 'http', port: 80 }] }));
  assert.equal(a.status, 201, a.text);
  const b = await apply('bob', { apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'applied' }, spec: { ports: [{ name: 'metrics', port: 9090 }] } });
  assert.equal(b.status, 200, b.text);
  assert.deepEqual(b.body.spec.ports, [{ name: 'http', port: 80 }, { name: 'metrics', port: 9090 }], 'items kept apart by their name key');
  const clash = await apply('bob', { apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'applied' }, spec: { ports: [{ name: 'http', port: 8080 }, { name: 'metrics', port: 9090 }] } });
  assert.equal(clash.status, 409);
  const unknown = await apply('carol', { apiVersion: `${group}/v1`, kind: 'CronTab', metadata: { name: 'applied' }, spec: { nope: 1 } });
  assert.match(unknown.body.message, /\.spec\.nope: field not declared in schema/, 'an apply names only declared fields, as for built-in kinds');
});

test('status and scale subresources; printer columns in tables', async () => {
  created(await call(server.client, 'POST', base, cronTab('sub', { replicas: 2 }, { labels: { app: 'sub' } })));
  const withStatus = await call(server.client, 'PUT', `${base}/sub`, { ...(await call(server.client, 'GET', `${base}/sub`)).body, status: { replicas: 9 } });
  assert.equal(withStatus.body.status, undefined, 'the main resource ignores status');
  const current = (await call(server.client, 'GET', `${base}/sub`)).body;
  const status = await call(server.client, 'PUT', `${base}/sub/status`, { ...current, spec: { ...current.spec, replicas: 5 }, status: { replicas: 2, labelSelector: 'app=sub' } });
  assert.equal(status.status, 200, status.text);
  assert.equal(status.body.status.replicas, 2);
  assert.equal(status.body.spec.replicas, 2, '/status ignores the spec');
  assert.equal(status.body.metadata.generation, current.metadata.generation, 'status keeps the generation');
  const scale = await call(server.client, 'GET', `${base}/sub/scale`);
  assert.equal(scale.body.kind, 'Scale');
  assert.deepEqual(scale.body.spec, { replicas: 2 });
  assert.deepEqual(scale.body.status, { replicas: 2, selector: 'app=sub' });
  const scaled = await call(server.client, 'PATCH', `${base}/sub/scale`, { spec: { replicas: 4 } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(scaled.status, 200, scaled.text);
  assert.equal((await call(server.client, 'GET', `${base}/sub`)).body.spec.replicas, 4);
  const tooMany = await call(server.client, 'PATCH', `${base}/sub/scale`, { spec: { replicas: 12 } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(tooMany.status, 422, 'the schema still validates the object');

  const table = await call(server.client, 'GET', `${base}?labelSelector=app%3Dsub`, undefined, { accept: `application/json;as=Table;g=${names.group('meta')};v=v1` });
  assert.equal(table.body.kind, 'Table');
  assert.deepEqual(table.body.columnDefinitions.map((c: { name: string; type: string }) => `${c.name}:${c.type}`), ['Name:string', 'Spec:string', 'Replicas:integer', 'Age:date']);
  assert.deepEqual(table.body.rows[0].cells.slice(0, 3), ['sub', '*/5 * * * *', 4]);
});

test('owner references: a custom object owned by a ConfigMap goes with it', async () => {
  const owner = await call(server.client, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
  created(owner);
  created(await call(server.client, 'POST', base, cronTab('owned', {}, {
    ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid }],
  })));
  assert.equal((await call(server.client, 'DELETE', `/api/v1/namespaces/${ns}/configmaps/owner`)).status, 200);
  assert.ok(await eventually(async () => (await call(server.client, 'GET', `${base}/owned`)).status === 404), 'collected');
});

test('invalid CRDs: 422 with kube messages and paths', async () => {
  const bogus = await call(server.client, 'POST', crdPath, {
    apiVersion: `${ext}/v1`, kind: 'CustomResourceDefinition', metadata: { name: 'wrongname' },
    spec: { group: 'nodots', scope: 'Bogus', names: { plural: 'things', kind: 'Thing' }, versions: [{ name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } } } }] },
  });
  assert.equal(bogus.status, 422);
  const causes = bogus.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  for (const want of [
    'metadata.name: Invalid value: "wrongname": must be spec.names.plural+"."+spec.group',
    'spec.group: Invalid value: "nodots": should be a domain with at least one dot',
    'spec.scope: Unsupported value: "Bogus": supported values: "Cluster", "Namespaced"',
    'spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
  ]) assert.ok(causes.includes(want), `${want}\n in:\n${causes.join('\n')}`);
  assert.ok(causes.some((c: string) => c.startsWith('spec.versions: Invalid value:') && c.endsWith('must have exactly one version marked as storage version')), causes.join('\n'));
  const badDefault = cronTabCrd('defaults.example.com');
  (badDefault['spec'] as any).versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.default = 'three';
  const d = await call(server.client, 'POST', crdPath, badDefault);
  assert.equal(d.status, 422);
  assert.match(d.body.message, /properties\[spec\]\.properties\[replicas\]\.default: Invalid value: "string": must be of type integer: "string"/);
  const scope = await call(server.client, 'PATCH', `${crdPath}/crontabs.${group}`, { spec: { scope: 'Cluster' } }, { 'content-type': 'application/merge-patch+json' });
  assert.equal(scope.status, 422);
  assert.match(scope.body.message, /spec\.scope: Invalid value: "Cluster": field is immutable/);
});

test('names in use by another CRD of the group are not accepted', async () => {
  const other = cronTabCrd(group);
  (other['metadata'] as { name: string }).name = `othertabs.${group}`;
  (other['spec'] as { names: Record<string, unknown> }).names = { plural: 'othertabs', singular: 'othertab', kind: 'CronTab', listKind: 'OtherTabList', shortNames: ['ot'] };
  assert.equal((await call(server.client, 'POST', crdPath, other)).status, 201);
  let cond: { status: string; reason: string; message: string } | undefined;
  assert.ok(await eventually(async () => {
    const got = await call(server.client, 'GET', `${crdPath}/othertabs.${group}`);
    cond = (got.body.status?.conditions ?? []).find((c: { type: string }) => c.type === 'NamesAccepted');
    return cond !== undefined;
  }));
  assert.equal(cond!.status, 'False');
  assert.equal(cond!.reason, 'KindConflict');
  assert.equal(cond!.message, '"CronTab" is already in use');
  assert.equal((await call(server.client, 'GET', `/apis/${group}/v1/namespaces/${ns}/othertabs`)).status, 404, 'not served');
  const builtin = cronTabCrd(names.group('coordination'));
  (builtin['spec'] as { names: Record<string, unknown> }).names = { plural: 'crontabs', kind: 'Lease', listKind: 'CronLeaseList' };
  assert.equal((await call(server.client, 'POST', crdPath, builtin)).status, 201);
  assert.ok(await eventually(async () => {
    const got = await call(server.client, 'GET', `${crdPath}/crontabs.${names.group('coordination')}`);
    return (got.body.status?.conditions ?? []).some((c: { type: string; reason: string }) => c.type === 'NamesAccepted' && c.reason === 'KindConflict');
  }), 'a built-in kind of the group is in use');
});

test('deleting a CRD: Terminating, every object deleted, then the CRD and its resource go', async () => {
  const g = 'doomed.example.com';
  await establish(server, cronTabCrd(g));
  const path = `/apis/${g}/v1/namespaces/${ns}/crontabs`;
  for (const n of ['a', 'b']) created(await call(server.client, 'POST', path, { ...cronTab(n), apiVersion: `${g}/v1` }));
  created(await call(server.client, 'POST', path, { ...cronTab('held', {}, { finalizers: ['example.com/hold'] }), apiVersion: `${g}/v1` }));
  const del = await call(server.client, 'DELETE', `${crdPath}/crontabs.${g}`);
  assert.equal(del.status, 200);
  assert.deepEqual(del.body.metadata.finalizers, [`customresourcecleanup.${ext}`]);
  assert.ok(await eventually(async () => (await call(server.client, 'GET', path)).body.items?.length === 1), 'unheld objects deleted');
  const refused = await call(server.client, 'POST', path, { ...cronTab('late'), apiVersion: `${g}/v1` });
  assert.equal(refused.status, 405);
  assert.equal(refused.body.message, 'create not allowed while custom resource definition is terminating');
  const terminating = (await call(server.client, 'GET', `${crdPath}/crontabs.${g}`)).body;
  assert.ok(terminating.status.conditions.some((c: { type: string; status: string }) => c.type === 'Terminating' && c.status === 'True'));
  const held = (await call(server.client, 'GET', `${path}/held`)).body;
  assert.equal((await call(server.client, 'PUT', `${path}/held`, { ...held, metadata: { ...held.metadata, finalizers: [] } })).status, 200);
  assert.ok(await eventually(async () => (await call(server.client, 'GET', `${crdPath}/crontabs.${g}`)).status === 404), 'the CRD goes');
  assert.ok(await eventually(async () => (await call(server.client, 'GET', `/apis/${g}/v1`)).status === 404), 'out of discovery');
});

test('RBAC: custom resources are authorized like built-ins; aggregate-to-view extends the view role', async () => {
  const rbac = names.group('rbac.authorization');
  const asJane = { 'Impersonate-User': 'jane' };
  created(await call(server.client, 'POST', base, cronTab('rbac-one')));
  assert.equal((await call(server.client, 'GET', base, undefined, asJane)).status, 403);
  created(await call(server.client, 'POST', `/apis/${rbac}/v1/namespaces/${ns}/rolebindings`, {
    apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: 'jane-view' },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: rbac }],
  }));
  const denied = await call(server.client, 'GET', base, undefined, asJane);
  assert.equal(denied.status, 403, 'view does not cover crontabs yet');
  assert.match(denied.body.message, /User "jane" cannot list resource "crontabs" in API group "stable\.example\.com" in the namespace "crd-e2e"/);
  created(await call(server.client, 'POST', `/apis/${rbac}/v1/clusterroles`, {
    apiVersion: `${rbac}/v1`, kind: 'ClusterRole',
    metadata: { name: 'crontab-viewer', labels: { [`${rbac}/aggregate-to-view`]: 'true' } },
    rules: [{ apiGroups: [group], resources: ['crontabs'], verbs: ['get', 'list', 'watch'] }],
  }));
  assert.ok(await eventually(async () => (await call(server.client, 'GET', base, undefined, asJane)).status === 200), 'view now lists crontabs');
  const create = await call(server.client, 'POST', base, cronTab('by-jane'), asJane);
  assert.equal(create.status, 403);
});

test('defaults apply on read from storage: a default added to the schema shows on objects written before it', async () => {
  const g = 'later.example.com';
  const crd = cronTabCrd(g) as any;
  delete crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.image.default;
  await establish(server, crd);
  const path = `/apis/${g}/v1/namespaces/${ns}/crontabs`;
  created(await call(server.client, 'POST', path, { ...cronTab('old'), apiVersion: `${g}/v1` }));
  assert.equal((await call(server.client, 'GET', `${path}/old`)).body.spec.image, undefined);
  const current = (await call(server.client, 'GET', `${crdPath}/crontabs.${g}`)).body;
  current.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.image.default = 'alpine';
  assert.equal((await call(server.client, 'PUT', `${crdPath}/crontabs.${g}`, current)).status, 200);
  assert.ok(await eventually(async () => (await call(server.client, 'GET', `${path}/old`)).body.spec.image === 'alpine'), 'read with the new default');
  const listed = await call(server.client, 'GET', path);
  assert.equal(listed.body.items[0].spec.image, 'alpine');
});
