/**
 * `describe` against a real server: kubectl's layouts on the svc flavour, and line for line beside kubectl 1.27 on
 * the k8s flavour for every kind with a layout (one key a ConfigMap: kubectl prints keys in Go's random map order), the generic layout (CRDs, Leases), name prefixes and lists.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { startTestServer, type TestServer } from '@svc-apiserver/test-server';
import { run } from '../cli.js';

const kubectl = findKubectls(['1.27']).find((k) => k.label === 'kubectl.1.27');
const dir = tempDir({ after }, 'svcctl-describe-');
let svc: TestServer;
let k8s: TestServer;

async function svcctl(server: TestServer, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(['--kubeconfig', server.kubeconfigPath, ...argv], { stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, readStdin: async () => '', env: {} });
  return { code, out, err };
}

/** The same objects on a server: a namespace `dd` with a ConfigMap, Secret, ServiceAccount, Roles, bindings, a Service. */
async function seed(server: TestServer): Promise<void> {
  const rbac = server.names.group('rbac.authorization');
  const manifest = join(dir, `${server.flavour}.yaml`);
  writeFileSync(manifest, [
    'apiVersion: v1\nkind: Namespace\nmetadata: {name: dd}',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1, namespace: dd, labels: {x: y}, annotations: {note: hello}}\ndata: {a: "1"}',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2, namespace: dd}\nbinaryData: {blob: AAEC}',
    'apiVersion: v1\nkind: Secret\nmetadata: {name: s1, namespace: dd}\ndata: {password: eHl6}',
    'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: robot, namespace: dd}\nsecrets: [{name: missing}]',
    `apiVersion: ${rbac}/v1\nkind: Role\nmetadata: {name: r1, namespace: dd}\nrules: [{apiGroups: [""], resources: [pods, configmaps], verbs: [get, list]}, {apiGroups: [""], resources: [pods], verbs: [watch]}, {apiGroups: [""], resources: [secrets], resourceNames: [a, b], verbs: [get]}]`,
    `apiVersion: ${rbac}/v1\nkind: RoleBinding\nmetadata: {name: rb1, namespace: dd}\nroleRef: {apiGroup: ${rbac}, kind: Role, name: r1}\nsubjects: [{kind: User, apiGroup: ${rbac}, name: alice}, {kind: ServiceAccount, name: robot, namespace: dd}]`,
    `apiVersion: ${rbac}/v1\nkind: ClusterRoleBinding\nmetadata: {name: crb1}\nroleRef: {apiGroup: ${rbac}, kind: ClusterRole, name: view}\nsubjects: [{kind: Group, apiGroup: ${rbac}, name: team}]`,
    'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: dd}\nspec: {selector: {app: web}, ports: [{name: http, port: 80, targetPort: 8080}]}',
    'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: dd}\nspec: {hard: {pods: "10"}}',
  ].join('\n---\n'));
  const created = await svcctl(server, ['create', '-f', manifest]);
  assert.equal(created.code, 0, created.err);
}

before(async () => {
  [svc, k8s] = await Promise.all([startTestServer(), startTestServer({ flavour: 'k8s' })]);
  await Promise.all([seed(svc), seed(k8s)]);
});
after(async () => {
  await Promise.all([svc?.stop(), k8s?.stop()]);
});

test('describe prints kubectl\'s layouts on the svc flavour', async () => {
  const cm = await svcctl(svc, ['-n', 'dd', 'describe', 'cm', 'c1']);
  assert.equal(cm.out, 'Name:         c1\nNamespace:    dd\nLabels:       x=y\nAnnotations:  note: hello\n\nData\n====\na:\n----\n1\n\nBinaryData\n====\n\nEvents:  <none>\n');
  const secret = await svcctl(svc, ['-n', 'dd', 'describe', 'secret', 's1']);
  assert.match(secret.out, /\nType:  Opaque\n\nData\n====\npassword:  3 bytes\n$/);
  assert.doesNotMatch(secret.out, /xyz/, 'values are never shown');
  const role = await svcctl(svc, ['-n', 'dd', 'describe', 'role', 'r1']);
  assert.match(role.out, /PolicyRule:\n  Resources   Non-Resource URLs  Resource Names  Verbs\n  ---------   -----------------  --------------  -----\n  pods        \[\]                 \[\]              \[get list watch\]\n  configmaps  \[\]                 \[\]              \[get list\]\n  secrets     \[\]                 \[a\]             \[get\]\n  secrets     \[\]                 \[b\]             \[get\]\n$/);
  const sa = await svcctl(svc, ['-n', 'dd', 'describe', 'sa', 'robot']);
  assert.match(sa.out, /Mountable secrets:   missing \(not found\)\n/);
  const lease = await svcctl(svc, ['-n', 'svc-node-lease', 'describe', 'lease']);
  assert.equal(lease.code, 0);
  const ns = await svcctl(svc, ['describe', 'ns', 'dd']);
  assert.match(ns.out, /Status:       Active\n\nResource Quotas\n  Name:     q\n  Resource  Used  Hard\n  --------  ---   ---\n  pods      0     10\n\nNo LimitRange resource\.\n$/);
});

test('describe prints what kubectl 1.27 prints', { skip: kubectl === undefined ? 'kubectl 1.27 is not installed' : false }, async () => {
  const cases = [
    ['-n', 'dd', 'describe', 'cm', 'c1'], ['-n', 'dd', 'describe', 'cm', 'c2'], ['-n', 'dd', 'describe', 'cm'], ['-n', 'dd', 'describe', 'cm', 'c'],
    ['-n', 'dd', 'describe', 'cm', 'c1', 'c2'], ['-n', 'dd', 'describe', 'secret', 's1'], ['describe', 'ns', 'dd'], ['-n', 'dd', 'describe', 'sa', 'robot'],
    ['-n', 'dd', 'describe', 'role', 'r1'], ['describe', 'clusterrole', 'view'], ['describe', 'clusterrole', 'system:aggregate-to-edit'],
    ['-n', 'dd', 'describe', 'rolebinding', 'rb1'], ['describe', 'clusterrolebinding', 'crb1'], ['-n', 'dd', 'describe', 'svc', 'web'],
    ['-n', 'kube-node-lease', 'describe', 'lease'], ['describe', 'crd'], ['-n', 'dd', 'describe', 'cm', 'nope'],
  ];
  for (const argv of cases) {
    const theirs = await runKubectl(kubectl!, k8s.kubeconfigPath, dir, argv);
    const ours = await svcctl(k8s, argv);
    assert.deepEqual([ours.code, ours.out, ours.err], [theirs.code, theirs.stdout, theirs.stderr], argv.join(' '));
  }
});
