/**
 * The server the stock-client suites run against: the real server as a child process in the k8s flavour, on SQLite
 * over TLS, with the admin kubeconfig it writes and a token user bound by RBAC in a namespace of its own (given a
 * kubeconfig file of its own, as a user would be). History is kept briefly (`--etcd-compaction-interval`) so a
 * watch from an early resourceVersion meets 410 Expired within the suite, and watches end after a few seconds
 * (`--min-request-timeout`) so the clients' reconnects run too.
 */
import { after, before } from 'node:test';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { call, createNamespace } from '../http.js';
import { startServerProcess, type ServerProcess } from '../server-process.js';

/** The group and plural of the custom resource the suites define and the user may use. */
export const widgetGroup = 'example.com';
export const widgetPlural = 'widgets';

/**
 * How long the server keeps history, in seconds: long enough for a suite's own resumed watches, short enough for
 * its 410 tests to meet a compacted resourceVersion soon.
 */
export const historySeconds = 15;

/** The server and the facts a suite needs about it. */
export interface ClientCluster {
  readonly server: ServerProcess;
  /** The admin kubeconfig the server wrote (client certificate, `system:masters`). */
  readonly adminKubeconfig: string;
  /** A kubeconfig of the token user, its context's namespace being `namespace`. */
  readonly userKubeconfig: string;
  /** The token user's name. */
  readonly user: string;
  /** The namespace the user may edit (ClusterRole `edit`, deployment status and the widgets). */
  readonly namespace: string;
  /** A namespace the user may not touch. */
  readonly otherNamespace: string;
  /** The resourceVersion of the namespace's configmaps when the suite started: compacted within the suite. */
  readonly startResourceVersion: string;
}

/** An admin write that must succeed. */
async function must(server: ServerProcess, path: string, body: unknown): Promise<void> {
  const r = await call(server.client, 'POST', path, body);
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
}

/** Grants `user` the namespace's `edit` role plus deployment status and the widgets, as an administrator would. */
async function bindUser(server: ServerProcess, namespace: string, user: string): Promise<void> {
  const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;
  const subjects = [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }];
  await must(server, `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: `${user}-edit` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects,
  });
  await must(server, `${rbac}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: `${user}-extras` },
    rules: [
      { apiGroups: ['apps'], resources: ['deployments/status'], verbs: ['get', 'update', 'patch'] },
      { apiGroups: [widgetGroup], resources: [widgetPlural, `${widgetPlural}/status`], verbs: ['*'] },
    ],
  });
  await must(server, `${rbac}/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: `${user}-extras` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${user}-extras` }, subjects,
  });
}

/** A kubeconfig for a bearer token, with the admin kubeconfig's cluster (server and CA). */
function tokenKubeconfig(adminKubeconfig: string, user: string, token: string, namespace: string): string {
  const admin = parse(readFileSync(adminKubeconfig, 'utf8')) as { clusters: { name: string; cluster: Record<string, unknown> }[] };
  const cluster = admin.clusters[0];
  if (cluster === undefined) throw new Error('the admin kubeconfig names no cluster');
  return stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: cluster.name, cluster: cluster.cluster }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: cluster.name, user, namespace } }],
    'current-context': user,
  });
}

/**
 * One server for a whole test file (started before its tests, stopped after them), prepared for the suite called
 * `label` (the namespaces are named after it). Returns a getter, since the server exists only once `before` ran.
 */
export function clientClusterForFile(label: string): () => ClientCluster {
  let cluster: ClientCluster | undefined;
  // Registered first, so the server stops before its token file goes.
  after(async () => {
    await cluster?.server.stop();
  });
  const dir = tempDir({ after }, `clients-${label}-`);
  before(async () => {
    const user = 'dev';
    const token = randomBytes(16).toString('hex');
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, `${token},${user},uid-${user},developers\n`);
    const server = await startServerProcess({
      flavour: 'k8s', storage: 'sqlite',
      extraArgs: [`--token-auth-file=${tokens}`, `--etcd-compaction-interval=${historySeconds}s`, '--min-request-timeout=5'],
    });
    try {
      const namespace = label;
      const otherNamespace = `${label}-other`;
      await createNamespace(server.client, namespace);
      await createNamespace(server.client, otherNamespace);
      await bindUser(server, namespace, user);
      const userKubeconfig = join(dir, 'user.kubeconfig');
      writeFileSync(userKubeconfig, tokenKubeconfig(server.kubeconfigPath, user, token, namespace));
      const list = await call(server.client, 'GET', `/api/v1/namespaces/${namespace}/configmaps`);
      if (list.status !== 200) throw new Error(`list configmaps: ${list.status} ${list.text}`);
      cluster = {
        server, adminKubeconfig: server.kubeconfigPath, userKubeconfig, user, namespace, otherNamespace,
        startResourceVersion: String(list.body.metadata.resourceVersion),
      };
    } catch (e) {
      await server.stop();
      throw e;
    }
  });
  return () => {
    if (cluster === undefined) throw new Error('the test file\'s server has not started');
    return cluster;
  };
}
