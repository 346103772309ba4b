/**
 * Authorization end to end: a real server process in its default mode (RBAC after the privileged groups), users
 * from a static token file, the default policy. A RoleBinding to `view` lets a user read but not write; a matrix of
 * users × verbs × resources checks that SubjectAccessReview answers agree with what real requests get; escalation
 * is refused over HTTP; anonymous requests reach only the public-info paths. `kubectl auth can-i` in the k8s flavour.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';

const tokens = [
  'viewer-token,vera,uid-vera',
  'editor-token,eddie,uid-eddie,editors',
  'nobody-token,nora,uid-nora',
  'rolewriter-token,rob,uid-rob',
].join('\n');

/** A server with the token users, `team` namespace, and the bindings the tests rely on. */
async function startAuthzServer(flavour: 'svc' | 'k8s', dir: string): Promise<ServerProcess> {
  writeFileSync(join(dir, `tokens-${flavour}.csv`), `${tokens}\n`);
  const server = await startServerProcess({ flavour, extraArgs: [`--token-auth-file=${join(dir, `tokens-${flavour}.csv`)}`] });
  await createNamespace(server.client, 'team');
  const rbac = `/apis/rbac.authorization.${flavour === 'k8s' ? 'k8s.io' : 'svc.io'}/v1`;
  const rbacGroup = `rbac.authorization.${flavour === 'k8s' ? 'k8s.io' : 'svc.io'}`;
  const bind = async (name: string, role: string, subject: Record<string, string>) => {
    const r = await call(server.client, 'POST', `${rbac}/namespaces/team/rolebindings`, {
      apiVersion: `${rbacGroup}/v1`, kind: 'RoleBinding', metadata: { name },
      roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role }, subjects: [subject],
    });
    assert.equal(r.status, 201, r.text);
  };
  await bind('vera-view', 'view', { kind: 'User', name: 'vera', apiGroup: rbacGroup });
  await bind('editors-edit', 'edit', { kind: 'Group', name: 'editors', apiGroup: rbacGroup });
  // rob may write Roles and RoleBindings in team, and holds only `view` himself.
  const role = await call(server.client, 'POST', `${rbac}/namespaces/team/roles`, {
    apiVersion: `${rbacGroup}/v1`, kind: 'Role', metadata: { name: 'rbac-writer' },
    rules: [{ apiGroups: [rbacGroup], resources: ['roles', 'rolebindings'], verbs: ['create', 'get', 'list', 'update'] }],
  });
  assert.equal(role.status, 201, role.text);
  const robRole = await call(server.client, 'POST', `${rbac}/namespaces/team/rolebindings`, {
    apiVersion: `${rbacGroup}/v1`, kind: 'RoleBinding', metadata: { name: 'rob-rbac-writer' },
    roleRef: { apiGroup: rbacGroup, kind: 'Role', name: 'rbac-writer' }, subjects: [{ kind: 'User', name: 'rob', apiGroup: rbacGroup }],
  });
  assert.equal(robRole.status, 201, robRole.text);
  await bind('rob-view', 'view', { kind: 'User', name: 'rob', apiGroup: rbacGroup });
  return server;
}

const dir = tempDir({ after }, 'svc-authz-');
let server: ServerProcess;
const clients: RestClient[] = [];

function asUser(token: string): RestClient {
  const c = createClient({ server: server.admin.server, namespace: 'team', ...(server.admin.ca ? { ca: server.admin.ca } : {}), token });
  clients.push(c);
  return c;
}

before(async () => {
  server = await startAuthzServer('svc', dir);
});

after(async () => {
  for (const c of clients) c.close();
  await server?.stop();
});

test('a user bound to view can read but not write; the 403 is in kube-apiserver form', async () => {
  const vera = asUser('viewer-token');
  const cm = await call(server.client, 'POST', '/api/v1/namespaces/team/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { a: '1' } });
  assert.equal(cm.status, 201, cm.text);
  // The binding was made a moment ago; the authorizer follows the watch cache.
  assert.ok(await eventually(async () => (await call(vera, 'GET', '/api/v1/namespaces/team/configmaps')).status === 200, 10_000, 50));
  assert.equal((await call(vera, 'GET', '/api/v1/namespaces/team/configmaps/shared')).status, 200);
  const create = await call(vera, 'POST', '/api/v1/namespaces/team/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mine' } });
  assert.equal(create.status, 403);
  assert.equal(create.body.reason, 'Forbidden');
  assert.equal(create.body.message, 'configmaps is forbidden: User "vera" cannot create resource "configmaps" in API group "" in the namespace "team"');
  assert.deepEqual(create.body.details, { kind: 'configmaps' });
  const secrets = await call(vera, 'GET', '/api/v1/namespaces/team/secrets');
  assert.equal(secrets.status, 403, 'view does not read secrets');
  const elsewhere = await call(vera, 'GET', '/api/v1/namespaces/default/configmaps');
  assert.equal(elsewhere.status, 403, 'a RoleBinding grants only in its namespace');
  assert.equal(elsewhere.body.message, 'configmaps is forbidden: User "vera" cannot list resource "configmaps" in API group "" in the namespace "default"');
  const nodes = await call(vera, 'GET', '/api/v1/nodes');
  assert.equal(nodes.body.message, 'nodes is forbidden: User "vera" cannot list resource "nodes" in API group "" at the cluster scope');
});

test('every authenticated user may discover the API and review itself; anonymous reaches only public info', async () => {
  const nora = asUser('nobody-token');
  assert.equal((await call(nora, 'GET', '/api')).status, 200);
  assert.equal((await call(nora, 'GET', '/apis')).status, 200);
  assert.equal((await call(nora, 'GET', '/version')).status, 200);
  const ssar = await call(nora, 'POST', '/apis/authorization.svc.io/v1/selfsubjectaccessreviews', {
    apiVersion: 'authorization.svc.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'team' } },
  });
  assert.equal(ssar.status, 201, ssar.text);
  assert.equal(ssar.body.status.allowed, false);
  assert.equal((await call(nora, 'GET', '/api/v1/namespaces/team/pods')).status, 403);

  assert.equal((await call(server.anonymous, 'GET', '/healthz')).status, 200);
  assert.equal((await call(server.anonymous, 'GET', '/readyz')).status, 200);
  assert.equal((await call(server.anonymous, 'GET', '/version')).status, 200);
  const discovery = await call(server.anonymous, 'GET', '/apis');
  assert.equal(discovery.status, 403);
  assert.equal(discovery.body.message, 'forbidden: User "system:anonymous" cannot get path "/apis"');
  assert.equal((await call(server.anonymous, 'GET', '/api/v1/namespaces')).status, 403);
});

test('SubjectAccessReview answers agree with real requests for users × verbs × resources', async () => {
  const users = [
    { token: 'viewer-token', user: 'vera', groups: [] as string[] },
    { token: 'editor-token', user: 'eddie', groups: ['editors'] },
    { token: 'nobody-token', user: 'nora', groups: [] as string[] },
  ];
  const resources = [
    { group: '', resource: 'configmaps', path: '/api/v1/namespaces/team/configmaps', body: { apiVersion: 'v1', kind: 'ConfigMap' } },
    { group: '', resource: 'secrets', path: '/api/v1/namespaces/team/secrets', body: { apiVersion: 'v1', kind: 'Secret' } },
    { group: 'apps', resource: 'deployments', path: '/apis/apps/v1/namespaces/team/deployments', body: undefined },
    { group: 'rbac.authorization.svc.io', resource: 'roles', path: '/apis/rbac.authorization.svc.io/v1/namespaces/team/roles', body: undefined },
  ];
  const verbs = ['list', 'create'];
  let checked = 0;
  for (const u of users) {
    const c = asUser(u.token);
    for (const r of resources) {
      for (const verb of verbs) {
        const review = await call(server.client, 'POST', '/apis/authorization.svc.io/v1/subjectaccessreviews', {
          apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview',
          spec: { user: u.user, groups: [...u.groups, 'system:authenticated'], resourceAttributes: { namespace: 'team', verb, group: r.group, resource: r.resource } },
        });
        assert.equal(review.status, 201, review.text);
        const allowed = review.body.status.allowed as boolean;
        const name = `m-${u.user}-${r.resource}-${checked}`;
        // A create with an invalid (empty) body still passes authorization first: 403 or not is what counts.
        const real = verb === 'list'
          ? await call(c, 'GET', r.path)
          : await call(c, 'POST', `${r.path}?dryRun=All`, r.body === undefined ? { metadata: { name } } : { ...r.body, metadata: { name } });
        assert.equal(real.status !== 403, allowed, `${u.user} ${verb} ${r.resource}: review says ${allowed}, request got ${real.status} ${real.text}`);
        if (allowed) assert.match(review.body.status.reason, /^RBAC: allowed by RoleBinding "[^"]+\/team" of ClusterRole "(view|edit)" to (User|Group) "/);
        checked++;
      }
    }
  }
  assert.equal(checked, users.length * resources.length * verbs.length);
});

test('escalation: a role writer may grant what it holds, not more; bind and escalate lift the limits', async () => {
  const rob = asUser('rolewriter-token');
  const rbac = '/apis/rbac.authorization.svc.io/v1/namespaces/team';
  const role = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name }, rules });
  assert.ok(await eventually(async () => (await call(rob, 'GET', `${rbac}/roles`)).status === 200, 10_000, 50));
  const held = await call(rob, 'POST', `${rbac}/roles`, role('read-cm', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]));
  assert.equal(held.status, 201, held.text);
  const more = await call(rob, 'POST', `${rbac}/roles`, role('write-cm', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create'] }]));
  assert.equal(more.status, 403, more.text);
  assert.equal(more.body.reason, 'Forbidden');
  assert.match(more.body.message, /^roles\.rbac\.authorization\.svc\.io "write-cm" is forbidden: user "rob" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["configmaps"\], Verbs:\["create"\]\}/);
  // Binding the cluster role `edit` needs its permissions, which rob lacks.
  const bindEdit = await call(rob, 'POST', `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', metadata: { name: 'nora-edit' },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', name: 'nora', apiGroup: 'rbac.authorization.svc.io' }],
  });
  assert.equal(bindEdit.status, 403, bindEdit.text);
  const bindHeld = await call(rob, 'POST', `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', metadata: { name: 'nora-read-cm' },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'read-cm' }, subjects: [{ kind: 'User', name: 'nora', apiGroup: 'rbac.authorization.svc.io' }],
  });
  assert.equal(bindHeld.status, 201, bindHeld.text);
  // Granted `bind` on edit and `escalate` on roles, both succeed.
  const lift = await call(server.client, 'POST', `${rbac}/roles`, role('lift', [
    { apiGroups: ['rbac.authorization.svc.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['edit'] },
    { apiGroups: ['rbac.authorization.svc.io'], resources: ['roles'], verbs: ['escalate'] },
  ]));
  assert.equal(lift.status, 201, lift.text);
  const liftBinding = await call(server.client, 'POST', `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', metadata: { name: 'rob-lift' },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'lift' }, subjects: [{ kind: 'User', name: 'rob', apiGroup: 'rbac.authorization.svc.io' }],
  });
  assert.equal(liftBinding.status, 201, liftBinding.text);
  assert.ok(await eventually(async () => (await call(rob, 'POST', `${rbac}/roles?dryRun=All`, role('write-cm', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }]))).status === 201, 10_000, 50));
  const nowBinds = await call(rob, 'POST', `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', metadata: { name: 'nora-edit' },
    roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', name: 'nora', apiGroup: 'rbac.authorization.svc.io' }],
  });
  assert.equal(nowBinds.status, 201, nowBinds.text);
});

test('the default policy is in place: cluster-admin bound to system:masters, aggregated roles filled', async () => {
  const crb = await call(server.client, 'GET', '/apis/rbac.authorization.svc.io/v1/clusterrolebindings/cluster-admin');
  assert.equal(crb.status, 200, crb.text);
  assert.deepEqual(crb.body.subjects, [{ apiGroup: 'rbac.authorization.svc.io', kind: 'Group', name: 'system:masters' }]);
  assert.equal(crb.body.metadata.annotations['rbac.authorization.svc.io/autoupdate'], 'true');
  const view = await call(server.client, 'GET', '/apis/rbac.authorization.svc.io/v1/clusterroles/view');
  assert.ok(view.body.aggregationRule, 'view is aggregated');
  assert.ok((view.body.rules as { resources?: string[] }[]).some((r) => r.resources?.includes('configmaps')), 'view holds the aggregated rules');
});

describe('kubectl auth can-i (k8s flavour)', () => {
  const kubectl = findKubectls([])[0];
  let k8s: ServerProcess | undefined;
  const home = tempDir({ after }, 'svc-authz-kubectl-');
  before(async () => {
    if (kubectl === undefined) return;
    k8s = await startAuthzServer('k8s', dir);
  });
  after(async () => {
    await k8s?.stop();
  });

  test('can-i create pods --as a viewer and an editor', { skip: kubectl === undefined ? 'kubectl is not installed' : false }, async () => {
    const run = (args: string[]) => runKubectl(kubectl!, k8s!.kubeconfigPath, home, args);
    assert.ok(await eventually(async () => (await run(['auth', 'can-i', 'list', 'pods', '-n', 'team', '--as=vera'])).stdout.trim() === 'yes', 10_000, 100));
    const vera = await run(['auth', 'can-i', 'create', 'pods', '-n', 'team', '--as=vera']);
    assert.equal(vera.stdout.trim(), 'no');
    assert.equal(vera.code, 1);
    const eddie = await run(['auth', 'can-i', 'create', 'pods', '-n', 'team', '--as=eddie', '--as-group=editors']);
    assert.equal(eddie.stdout.trim(), 'yes', eddie.stderr);
    const admin = await run(['auth', 'can-i', '*', '*']);
    assert.equal(admin.stdout.trim(), 'yes');
  });

  test('can-i --list shows the rules of a namespace', { skip: kubectl === undefined ? 'kubectl is not installed' : false }, async () => {
    const run = (args: string[]) => runKubectl(kubectl!, k8s!.kubeconfigPath, home, args);
    const listed = await run(['auth', 'can-i', '--list', '-n', 'team', '--as=vera']);
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.split('\n');
    assert.match(lines[0] ?? '', /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    assert.ok(lines.some((l) => /^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/.test(l)), listed.stdout);
    assert.ok(lines.some((l) => /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/.test(l)), listed.stdout);
    assert.ok(!lines.some((l) => /^secrets\s/.test(l)), 'view lists no secrets');
  });
});
