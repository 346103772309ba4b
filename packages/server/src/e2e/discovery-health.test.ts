/**
 * Discovery (legacy and aggregated), /version, OpenAPI entry points and the health endpoints.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { call } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const names = namesFor('svc');
const coordination = names.group('coordination');
const aggregatedAccept = `application/json;g=${names.group('apidiscovery')};v=v2beta1;as=APIGroupDiscoveryList`;
let server: ServerProcess;

before(async () => {
  server = await startServerProcess();
});

after(async () => {
  await server?.stop();
});

test('/api lists the core version', async () => {
  const r = await call(server.client, 'GET', '/api');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.kind, 'APIVersions');
  assert.deepEqual(r.body.versions, ['v1']);
});

test('/api/v1 lists the core resources with kind, scope, verbs, short names and subresources', async () => {
  const r = await call(server.client, 'GET', '/api/v1');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.kind, 'APIResourceList');
  assert.equal(r.body.groupVersion, 'v1');
  const byName = new Map<string, any>(r.body.resources.map((x: any) => [x.name, x]));
  for (const n of ['namespaces', 'configmaps', 'secrets', 'serviceaccounts', 'pods', 'services', 'nodes', 'events', 'endpoints',
    'limitranges', 'resourcequotas', 'podtemplates', 'replicationcontrollers', 'persistentvolumes', 'persistentvolumeclaims']) {
    assert.ok(byName.has(n), `${n} served`);
  }
  const cm = byName.get('configmaps');
  assert.equal(cm.kind, 'ConfigMap');
  assert.equal(cm.namespaced, true);
  assert.equal(cm.singularName, 'configmap');
  assert.deepEqual(cm.shortNames, ['cm']);
  assert.deepEqual([...cm.verbs].sort(), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  assert.equal(byName.get('nodes').namespaced, false);
  assert.deepEqual(byName.get('pods').categories, ['all']);
  for (const sub of ['pods/status', 'services/status', 'nodes/status', 'namespaces/status', 'namespaces/finalize', 'resourcequotas/status', 'replicationcontrollers/status']) {
    assert.ok(byName.has(sub), `${sub} listed`);
  }
  assert.equal(byName.get('pods/status').kind, 'Pod');
  assert.ok(!byName.get('namespaces/finalize').verbs.includes('get'));
});

test('/apis and the group documents list the named groups', async () => {
  const r = await call(server.client, 'GET', '/apis');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.kind, 'APIGroupList');
  const groups = new Map<string, any>(r.body.groups.map((g: any) => [g.name, g]));
  for (const g of [coordination, names.group('events')]) {
    assert.ok(groups.has(g), `${g} in /apis`);
    assert.deepEqual(groups.get(g).preferredVersion, { groupVersion: `${g}/v1`, version: 'v1' });
  }
  assert.ok(![...groups.keys()].some((g) => g.endsWith('.k8s.io')), 'no Kubernetes group names in the svc flavour');
  const group = await call(server.client, 'GET', `/apis/${coordination}`);
  assert.equal(group.status, 200, group.text);
  assert.equal(group.body.kind, 'APIGroup');
  assert.equal(group.body.name, coordination);
  const gv = await call(server.client, 'GET', `/apis/${coordination}/v1`);
  assert.equal(gv.status, 200, gv.text);
  assert.equal(gv.body.groupVersion, `${coordination}/v1`);
  const leases = gv.body.resources.find((x: any) => x.name === 'leases');
  assert.equal(leases.kind, 'Lease');
  assert.equal(leases.namespaced, true);
  assert.equal(leases.singularName, 'lease');
  const missing = await call(server.client, 'GET', '/apis/nothing.example.com/v1');
  assert.equal(missing.status, 404);
});

test('aggregated discovery answers APIGroupDiscoveryList for /api and /apis', async () => {
  const apis = await call(server.client, 'GET', '/apis', undefined, { accept: aggregatedAccept });
  assert.equal(apis.status, 200, apis.text);
  assert.match(String(apis.headers['content-type']), new RegExp(`^application/json;g=${names.group('apidiscovery').replace(/\./g, '\\.')};v=v2beta1;as=APIGroupDiscoveryList`));
  assert.equal(apis.body.kind, 'APIGroupDiscoveryList');
  assert.equal(apis.body.apiVersion, `${names.group('apidiscovery')}/v2beta1`);
  const group = apis.body.items.find((g: any) => g.metadata?.name === coordination);
  assert.ok(group, 'coordination group listed');
  const v1 = group.versions.find((v: any) => v.version === 'v1');
  const lease = v1.resources.find((x: any) => x.resource === 'leases');
  assert.equal(lease.scope, 'Namespaced');
  assert.deepEqual(lease.responseKind, { group: coordination, version: 'v1', kind: 'Lease' });
  const core = await call(server.client, 'GET', '/api', undefined, { accept: aggregatedAccept });
  assert.equal(core.status, 200, core.text);
  assert.equal(core.body.kind, 'APIGroupDiscoveryList');
  const coreV1 = core.body.items[0].versions.find((v: any) => v.version === 'v1');
  const cm = coreV1.resources.find((x: any) => x.resource === 'configmaps');
  assert.deepEqual(cm.responseKind, { group: '', version: 'v1', kind: 'ConfigMap' });
  assert.equal(cm.scope, 'Namespaced');
  const nodes = coreV1.resources.find((x: any) => x.resource === 'nodes');
  assert.equal(nodes.scope, 'Cluster');
  // a client that does not ask for it gets the legacy document
  const legacy = await call(server.client, 'GET', '/apis');
  assert.equal(legacy.body.kind, 'APIGroupList');
});

test('/version reports 1.27', async () => {
  const r = await call(server.anonymous, 'GET', '/version');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.major, '1');
  assert.match(r.body.minor, /^27/);
  assert.match(r.body.gitVersion, /^v1\.27\./);
});

test('OpenAPI v2 and v3 documents are served', async () => {
  const v2 = await call(server.client, 'GET', '/openapi/v2');
  assert.equal(v2.status, 200);
  assert.equal(v2.body.swagger, '2.0');
  assert.ok(Object.keys(v2.body.paths).some((p) => p.startsWith('/api/v1/namespaces/{namespace}/configmaps')));
  const v3 = await call(server.client, 'GET', '/openapi/v3');
  assert.equal(v3.status, 200);
  const core = v3.body.paths['api/v1'];
  assert.ok(core?.serverRelativeURL, v3.text.slice(0, 300));
  const doc = await call(server.client, 'GET', core.serverRelativeURL);
  assert.equal(doc.status, 200);
  assert.match(doc.body.openapi, /^3\./);
});

test('health endpoints answer without credentials, verbose and with exclude; single checks need system:monitoring', async () => {
  for (const endpoint of ['livez', 'readyz', 'healthz']) {
    const plain = await call(server.anonymous, 'GET', `/${endpoint}`);
    assert.equal(plain.status, 200, plain.text);
    assert.equal(plain.text, 'ok');
    const verbose = await call(server.anonymous, 'GET', `/${endpoint}?verbose`);
    assert.equal(verbose.status, 200);
    const lines = verbose.text.trimEnd().split('\n');
    assert.equal(lines[lines.length - 1], `${endpoint} check passed`);
    const checks = lines.slice(0, -1).filter((l) => l !== '');
    assert.ok(checks.length >= 2, verbose.text);
    for (const l of checks) assert.match(l, /^\[\+\][^ ]+ ok$/);
    assert.ok(checks.includes('[+]ping ok'), verbose.text);
  }
  // system:public-info-viewer grants the three paths themselves; the per-check paths are system:monitoring's.
  const denied = await call(server.anonymous, 'GET', '/readyz/ping');
  assert.equal(denied.status, 403);
  assert.equal(denied.body.message, 'forbidden: User "system:anonymous" cannot get path "/readyz/ping"');
  const one = await call(server.client, 'GET', '/readyz/ping');
  assert.equal(one.status, 200);
  assert.equal(one.text, 'ok');
  const livezChecks = (await call(server.anonymous, 'GET', '/livez?verbose')).text.split('\n').filter((l) => l.startsWith('[+]'));
  const name = livezChecks[livezChecks.length - 1]!.slice(3, -3);
  const single = await call(server.client, 'GET', `/livez/${name}`);
  assert.equal(single.status, 200, `/livez/${name}: ${single.text}`);
  const excluded = await call(server.anonymous, 'GET', '/livez?verbose&exclude=ping');
  assert.equal(excluded.status, 200);
  assert.ok(excluded.text.split('\n').includes('[+]ping excluded: ok'), excluded.text);
  const unknown = await call(server.client, 'GET', '/livez/no-such-check');
  assert.equal(unknown.status, 404);
});
