/**
 * The server's own writes record their field managers as kube's do: what kube-apiserver writes through its loopback
 * client (system namespaces, the `kubernetes` Service, bootstrap RBAC) shows `svc-apiserver`, what the controllers
 * kube runs in kube-controller-manager write shows `svc-controller-manager`, and the clusterrole aggregation
 * controller applies the aggregated rules as `clusterrole-aggregation-controller`; each entry holds the fields kube
 * records, defaulted fields included (the loopback client's bodies are defaulted on decode).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually } from './http.js';
import { serverForFile } from './server-process.js';
import { leaves, type Entry } from './managed-fields.js';

const ns = 'e2e-field-managers';
const server = serverForFile({}, ns);

/** The managedFields entries of the object at `path`, as [manager, operation, leaves]. */
async function entries(path: string): Promise<[string, string, string[]][]> {
  const r = await call(server().client, 'GET', path);
  assert.equal(r.status, 200, `${path}: ${r.text}`);
  return ((r.body.metadata.managedFields ?? []) as Entry[]).map((e) => [e.manager, e.operation, leaves(e.fieldsV1)]);
}

test('system objects kube-apiserver writes show svc-apiserver, with their defaulted fields', async () => {
  assert.deepEqual(await entries('/api/v1/namespaces/default'), [['svc-apiserver', 'Update', ['f:metadata f:labels f:svc.io/metadata.name']]]);
  const service = await entries('/api/v1/namespaces/default/services/kubernetes');
  assert.equal(service.length, 1);
  assert.deepEqual(service[0]!.slice(0, 2), ['svc-apiserver', 'Update']);
  for (const field of ['f:metadata f:labels f:component', 'f:spec f:clusterIP', 'f:spec f:internalTrafficPolicy', 'f:spec f:sessionAffinity', 'f:spec f:type',
    'f:spec f:ports k:{"port":443,"protocol":"TCP"} f:targetPort']) {
    assert.ok(service[0]![2].includes(field), `${field} in ${service[0]![2].join(', ')}`);
  }
});

test('clusterrole aggregation applies the rules as its own manager; bootstrap RBAC is svc-apiserver\'s', async () => {
  assert.ok(await eventually(async () => (await entries('/apis/rbac.authorization.svc.io/v1/clusterroles/admin')).length === 2));
  const admin = await entries('/apis/rbac.authorization.svc.io/v1/clusterroles/admin');
  const byManager = new Map(admin.map(([manager, operation, fields]) => [manager, { operation, fields }]));
  assert.deepEqual(byManager.get('clusterrole-aggregation-controller'), { operation: 'Apply', fields: ['f:rules'] });
  const bootstrap = byManager.get('svc-apiserver');
  assert.equal(bootstrap?.operation, 'Update');
  assert.ok(bootstrap.fields.includes('f:aggregationRule f:clusterRoleSelectors'), bootstrap.fields.join(', '));
  assert.ok(!bootstrap.fields.includes('f:rules'), 'the aggregated rules are the controller\'s alone');
});

test('controller-manager controllers\' writes show svc-controller-manager', async () => {
  const rootCa = `/api/v1/namespaces/${ns}/configmaps/svc-root-ca.crt`;
  assert.ok(await eventually(async () => (await call(server().client, 'GET', rootCa)).status === 200));
  assert.deepEqual(await entries(rootCa), [['svc-controller-manager', 'Update', ['f:data f:ca.crt', 'f:metadata f:annotations f:svc.io/description']]]);
});
