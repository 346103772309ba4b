/**
 * Authorization with 10,000 bindings, beside the same request under AlwaysAllow measured in the same run:
 *
 * - in-process decisions/s: the RBAC authorizer over a policy of 10,000 bindings (5,000 RoleBindings over 100
 *   namespaces, 5,000 ClusterRoleBindings, each to its own user) deciding for a user whose grant comes through a
 *   RoleBinding, against AlwaysAllow deciding the same request;
 * - over HTTPS: gets/s of a configmap by a token user bound to `view`, on a server in RBAC mode holding the 10,000
 *   bindings, against the same gets on a server in AlwaysAllow mode (64 keep-alive connections of the load generator each).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import type { Authorizer, AuthorizationAttributes } from 'svc-apiserver/request/authorizer';
import { alwaysAllow } from 'svc-apiserver/auth/authz/always-allow';
import { rbacAuthorizer } from 'svc-apiserver/auth/authz/rbac/rbac-authorizer';
import { staticPolicySource } from 'svc-apiserver/auth/authz/rbac/policy-source';
import type { BindingObject, RoleObject } from 'svc-apiserver/registry/resources/rbac-types';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { fmt, runStandalone } from './support.js';
import { pinServer } from './load/cpu-pinning.js';
import { startLoadGenerator, targetOf, type LoadGenerator, type LoadResult } from './load/load-generator.js';
import { latencies } from './load/phases.js';

const bindings = 10_000;
const namespaces = 100;
const names = namesFor('svc');
const rbacGroup = names.group('rbac.authorization');
const json = { 'content-type': 'application/json', accept: 'application/json' };

function bindingObject(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, user: string, roleKind: string, role: string, namespace?: string): BindingObject {
  return {
    apiVersion: `${rbacGroup}/v1`, kind,
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    roleRef: { apiGroup: rbacGroup, kind: roleKind, name: role },
    subjects: [{ kind: 'User', apiGroup: rbacGroup, name: user }],
  };
}

/** The policy: half RoleBindings to `reader` roles spread over namespaces, half ClusterRoleBindings to `viewer`. */
function policy(): { roles: RoleObject[]; clusterRoles: RoleObject[]; roleBindings: BindingObject[]; clusterRoleBindings: BindingObject[] } {
  const rules = [{ apiGroups: [''], resources: ['configmaps', 'pods'], verbs: ['get', 'list', 'watch'] }];
  const roles = Array.from({ length: namespaces }, (_, n) => ({ metadata: { name: 'reader', namespace: `ns-${n}` }, rules }));
  const clusterRoles = [{ metadata: { name: 'viewer' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }] }];
  const roleBindings = Array.from({ length: bindings / 2 }, (_, i) => bindingObject('RoleBinding', `rb-${i}`, `user-${i}`, 'Role', 'reader', `ns-${i % namespaces}`));
  const clusterRoleBindings = Array.from({ length: bindings / 2 }, (_, i) => bindingObject('ClusterRoleBinding', `crb-${i}`, `cluster-user-${i}`, 'ClusterRole', 'viewer'));
  return { roles, clusterRoles, roleBindings, clusterRoleBindings };
}

function attributesFor(i: number): AuthorizationAttributes {
  const n = i % (bindings / 2);
  return {
    user: { username: `user-${n}`, groups: ['system:authenticated'] },
    info: {
      isResourceRequest: true, path: `/api/v1/namespaces/ns-${n % namespaces}/configmaps/x`, verb: 'get', apiPrefix: 'api',
      apiGroup: '', apiVersion: 'v1', namespace: `ns-${n % namespaces}`, resource: 'configmaps', subresource: '', name: 'x', parts: [],
    },
  };
}

/** Decisions per second of `authorizer` for `ms`, every one checked to be an allow. */
async function decisionsPerSecond(authorizer: Authorizer, ms: number): Promise<number> {
  let n = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    for (let k = 0; k < 1000; k++, n++) {
      const d = await authorizer.authorize(attributesFor(n));
      if (d.decision !== 'allow') throw new Error(`decision ${n} was ${d.decision}: ${d.reason ?? ''}`);
    }
  }
  return n / ((performance.now() - start) / 1000);
}

type GetsFigures = Pick<LoadResult, 'perSecond' | 'p50' | 'p99' | 'errors'>;

/** Starts a server in `mode` with the token user `vera`, `ready` namespace objects, and (for RBAC) the bindings. */
async function startTarget(mode: 'RBAC' | 'AlwaysAllow', dir: string): Promise<{ child: LaunchedServer; admin: RestClient; conn: ReturnType<typeof loadKubeconfig> }> {
  writeFileSync(join(dir, 'tokens.csv'), 'bench-token,vera,uid-vera\n');
  const child = await launchServer({
    dataDir: join(dir, 'data'), extraArgs: [`--authorization-mode=${mode}`, `--token-auth-file=${join(dir, 'tokens.csv')}`],
  });
  pinServer(child.child.pid);
  const conn = loadKubeconfig({ path: child.kubeconfigPath });
  if (!conn.ok) throw new Error(conn.error);
  return { child, admin: createClient(conn.value), conn };
}

async function post(client: RestClient, path: string, body: unknown): Promise<void> {
  const r = await client.raw({ method: 'POST', path, headers: json, body: JSON.stringify(body) });
  if (!r.ok || r.value.status !== 201) throw new Error(`POST ${path}: ${r.ok ? `${r.value.status} ${r.value.body.toString()}` : r.error.message}`);
}

/** Gets/s of one configmap as `vera` with `clients` keep-alive connections for `ms` (after a warm-up), on a server in `mode`. */
async function httpGets(mode: 'RBAC' | 'AlwaysAllow', clients: number, ms: number): Promise<GetsFigures> {
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-authz-${mode}-`));
  let target: Awaited<ReturnType<typeof startTarget>> | undefined;
  const open: RestClient[] = [];
  let load: LoadGenerator | undefined;
  try {
    target = await startTarget(mode, dir);
    open.push(target.admin);
    await post(target.admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
    await post(target.admin, '/api/v1/namespaces/bench/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { k: 'v' } });
    if (mode === 'RBAC') {
      // 9,999 bindings of other users spread over the policy, then vera's: 10,000 in all.
      const p = policy();
      const objects: { path: string; body: unknown }[] = [];
      for (let n = 0; n < namespaces; n++) {
        objects.push({ path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${n}` } } });
      }
      for (const r of p.roles) objects.push({ path: `/apis/${rbacGroup}/v1/namespaces/${r.metadata!.namespace}/roles`, body: { apiVersion: `${rbacGroup}/v1`, kind: 'Role', ...r } });
      for (const r of p.clusterRoles) objects.push({ path: `/apis/${rbacGroup}/v1/clusterroles`, body: { apiVersion: `${rbacGroup}/v1`, kind: 'ClusterRole', ...r } });
      for (const b of p.roleBindings.slice(1)) objects.push({ path: `/apis/${rbacGroup}/v1/namespaces/${b.metadata!.namespace}/rolebindings`, body: b });
      for (const b of p.clusterRoleBindings) objects.push({ path: `/apis/${rbacGroup}/v1/clusterrolebindings`, body: b });
      objects.push({ path: `/apis/${rbacGroup}/v1/namespaces/bench/rolebindings`, body: bindingObject('RoleBinding', 'vera-view', 'vera', 'ClusterRole', 'view', 'bench') });
      const writers = Array.from({ length: 16 }, () => createClient(target!.conn.ok ? target!.conn.value : (undefined as never), { maxSockets: 1 }));
      open.push(...writers);
      let next = 0;
      // Namespaces and roles first (bindings need their namespaces), then bindings in parallel.
      for (const o of objects.slice(0, namespaces + p.roles.length + p.clusterRoles.length)) await post(target.admin, o.path, o.body);
      next = namespaces + p.roles.length + p.clusterRoles.length;
      await Promise.all(writers.map(async (w) => {
        while (next < objects.length) {
          const o = objects[next++]!;
          await post(w, o.path, o.body);
        }
      }));
    }
    if (!target.conn.ok) throw new Error(target.conn.error);
    const { cert: _cert, key: _key, ...withoutCert } = target.conn.value;
    const vera = createClient({ ...withoutCert, token: 'bench-token' });
    open.push(vera);
    const path = '/api/v1/namespaces/bench/configmaps/shared';
    // The policy reaches the authorizer through the watch cache: wait until vera is allowed.
    for (let tries = 0; ; tries++) {
      const r = await vera.raw({ method: 'GET', path, headers: { accept: 'application/json' } });
      if (r.ok && r.value.status === 200) break;
      if (tries > 200) throw new Error(`vera is not allowed: ${r.ok ? r.value.status : r.error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    load = await startLoadGenerator(targetOf({ ...withoutCert, token: 'bench-token' }), { connections: clients });
    const plan = { method: 'GET', path, headers: { accept: 'application/json' }, expect: 200 };
    await load.run(plan, Math.min(ms / 1000, 2));
    return await load.run(plan, ms / 1000);
  } finally {
    await load?.close();
    for (const c of open) c.close();
    await target?.child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs both comparisons and returns the report lines. */
export async function authzBench(seconds = 3, clients = 64): Promise<string[]> {
  const source = staticPolicySource(policy());
  const rbac = rbacAuthorizer(source, names);
  const allow = alwaysAllow();
  // Warm both paths up before timing.
  await decisionsPerSecond(rbac, 200);
  await decisionsPerSecond(allow, 200);
  const rbacRate = await decisionsPerSecond(rbac, seconds * 1000);
  const allowRate = await decisionsPerSecond(allow, seconds * 1000);
  const rbacGets = await httpGets('RBAC', clients, seconds * 1000);
  const allowGets = await httpGets('AlwaysAllow', clients, seconds * 1000);
  const lat = (g: GetsFigures) => `${latencies(g)} ms`;
  return [
    `authorization (${bindings} bindings): in-process, then ${clients} HTTPS connections, ${seconds}s per phase`,
    `RBAC decisions/s       ${fmt(rbacRate).padStart(9)}   AlwaysAllow decisions/s ${fmt(allowRate).padStart(10)}   ratio ${fmt(rbacRate / allowRate, 3)}`,
    `RBAC gets/s            ${fmt(rbacGets.perSecond).padStart(9)} (${lat(rbacGets)})   AlwaysAllow gets/s ${fmt(allowGets.perSecond).padStart(8)} (${lat(allowGets)})   ratio ${fmt(rbacGets.perSecond / allowGets.perSecond, 3)}`,
    `errors: RBAC gets ${rbacGets.errors}, AlwaysAllow gets ${allowGets.errors}`,
  ];
}

await runStandalone(import.meta.url, authzBench);
