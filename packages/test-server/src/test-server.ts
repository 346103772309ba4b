/**
 * `startTestServer`: a real svc-apiserver in this process for a test, as envtest gives Go tests a real
 * kube-apiserver, without binaries to download: port 0 on loopback, memory storage (or SQLite in its temp data
 * directory), resolved once /readyz passes (the default RBAC policy and every cache in place), with the admin
 * kubeconfig, a ready admin client, and users with exactly the RBAC rights a test gives them. Many servers run in
 * one process without sharing state; `stop()` closes the server and its clients and removes the data directory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor, type Flavour, type KubeObject, type Names, type ObjectMeta } from '@svc-apiserver/api';
import { createClient, parseKubeconfig, resolveContext, type ConnectionConfig, type RestClient } from '@svc-apiserver/client';
import { startServer, type RunningServer, type StartServerOptions } from 'svc-apiserver';
import { issueLeaf } from 'svc-apiserver/pki/certificates';
import { stringify } from 'yaml';
import { rememberPki, seedPki } from './pki-template.js';

/** Options of {@link startTestServer}. */
export interface TestServerOptions {
  /** `svc` (default) or `k8s`: the names the server serves. */
  readonly flavour?: Flavour;
  /** `memory` (default, fastest) or `sqlite` in the server's temp data directory. */
  readonly storage?: 'memory' | 'sqlite';
  /** Any further server option (flags as `startServer` takes them). */
  readonly server?: Omit<StartServerOptions, 'flavour' | 'storage' | 'dataDir' | 'securePort' | 'bindAddress'>;
  /** Server log lines; silent by default. */
  readonly log?: (message: string, error?: unknown) => void;
}

/** One RBAC rule, as in a Role or ClusterRole. */
export interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** What a test user may do: rules in one namespace (Role + RoleBinding) or cluster-wide, or a named ClusterRole. */
export interface UserOptions {
  /** The user name (the certificate's common name). */
  readonly name: string;
  /** Groups (the certificate's organizations). */
  readonly groups?: readonly string[];
  /** Rules granted to the user; none grants nothing beyond what every authenticated user has. */
  readonly rules?: readonly PolicyRule[];
  /** Binds an existing ClusterRole (`view`, `edit`, `admin`, `cluster-admin`) instead of, or besides, `rules`. */
  readonly clusterRole?: string;
  /** Grant in this namespace only (RoleBinding); cluster-wide (ClusterRoleBinding) when absent. */
  readonly namespace?: string;
}

/** A user of a test server: its own certificate, kubeconfig and client. */
export interface TestUser {
  readonly name: string;
  readonly groups: readonly string[];
  /** A kubeconfig (YAML) whose current context is this user's; also written to `kubeconfigPath`. */
  readonly kubeconfig: string;
  readonly kubeconfigPath: string;
  readonly connection: ConnectionConfig;
  readonly client: RestClient;
}

/** A running test server. */
export interface TestServer {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  readonly flavour: Flavour;
  /** The flavour's names (groups, namespaces, label domains). */
  readonly names: Names;
  /** The admin kubeconfig (YAML; user in `system:masters`) and the file it is in. */
  readonly kubeconfig: string;
  readonly kubeconfigPath: string;
  /** The admin connection and a client over it. */
  readonly connection: ConnectionConfig;
  readonly client: RestClient;
  /** The server itself (CA, admin certificate, service account token issuer). */
  readonly server: RunningServer;
  /** Milliseconds from the call to ready. */
  readonly startupMs: number;
  /** Creates a user with the given rights; its client is closed by `stop`. */
  createUser(options: UserOptions): Promise<TestUser>;
  /** Creates a namespace (the admin's client). */
  createNamespace(name: string): Promise<void>;
  /** Stops the server, closes every client made here and removes the data directory. */
  stop(): Promise<void>;
}

function connectionOf(kubeconfig: string, baseDir: string): ConnectionConfig {
  const parsed = parseKubeconfig(kubeconfig, baseDir);
  const conn = parsed.ok ? resolveContext(parsed.value) : parsed;
  if (!conn.ok) throw new Error(`the server's kubeconfig is unusable: ${conn.error}`);
  return conn.value;
}

/** Fails with the server's Status text: a failed setup call is a broken test, not a result to handle. */
function mustSucceed<T>(what: string, r: { ok: true; value: T } | { ok: false; error: { message?: string } }): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.message ?? 'failed'}`);
  return r.value;
}

/** Starts a server for a test; see the module comment. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const started = performance.now();
  const flavour = options.flavour ?? 'svc';
  const names = namesFor(flavour);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-server-'));
  seedPki(dataDir);
  let server: RunningServer;
  try {
    server = await startServer({
      shutdownDelayMs: 0,
      ...options.server,
      flavour,
      storage: options.storage ?? 'memory',
      dataDir,
      securePort: 0,
      bindAddress: '127.0.0.1',
      log: options.log ?? (() => {}),
    });
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  const clients: RestClient[] = [];
  const stop = async (): Promise<void> => {
    for (const c of clients) c.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await server.ready();
    rememberPki(dataDir);
    const kubeconfig = await readFile(server.kubeconfigPath, 'utf8');
    const connection = connectionOf(kubeconfig, dataDir);
    const client = createClient(connection);
    clients.push(client);
    const rbac = names.group('rbac.authorization');
    const rbacVersion = `${rbac}/v1`;

    const createUser = async (u: UserOptions): Promise<TestUser> => {
      const groups = u.groups ?? [];
      const cert = await issueLeaf({ certPem: server.ca, keyPem: await readFile(join(dataDir, 'ca.key'), 'utf8') }, { commonName: u.name, organizations: groups, usage: 'client' });
      const subject = { kind: 'User', apiGroup: rbac, name: u.name };
      const ns = u.namespace;
      const bindingKind = ns === undefined ? 'ClusterRoleBinding' : 'RoleBinding';
      const bindingRef = { group: rbac, version: 'v1', resource: ns === undefined ? 'clusterrolebindings' : 'rolebindings', ...(ns === undefined ? {} : { namespace: ns }) };
      const meta = (name: string): ObjectMeta => (ns === undefined ? { name } : { name, namespace: ns });
      if (u.rules !== undefined) {
        const roleKind = ns === undefined ? 'ClusterRole' : 'Role';
        const roleName = `test-user-${u.name}`;
        const role: KubeObject = { apiVersion: rbacVersion, kind: roleKind, metadata: meta(roleName), rules: u.rules };
        mustSucceed(`creating ${roleKind} ${roleName}`, await client.create({ group: rbac, version: 'v1', resource: ns === undefined ? 'clusterroles' : 'roles', ...(ns === undefined ? {} : { namespace: ns }) }, role));
        const binding: KubeObject = { apiVersion: rbacVersion, kind: bindingKind, metadata: meta(roleName), roleRef: { apiGroup: rbac, kind: roleKind, name: roleName }, subjects: [subject] };
        mustSucceed(`creating ${bindingKind} ${roleName}`, await client.create(bindingRef, binding));
      }
      if (u.clusterRole !== undefined) {
        const bindingName = `test-user-${u.name}-${u.clusterRole}`;
        const binding: KubeObject = { apiVersion: rbacVersion, kind: bindingKind, metadata: meta(bindingName), roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: u.clusterRole }, subjects: [subject] };
        mustSucceed(`creating ${bindingKind} ${bindingName}`, await client.create(bindingRef, binding));
      }
      const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');
      const text = stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'test', cluster: { server: server.url, 'certificate-authority-data': b64(server.ca) } }],
        users: [{ name: u.name, user: { 'client-certificate-data': b64(cert.certPem), 'client-key-data': b64(cert.keyPem) } }],
        contexts: [{ name: u.name, context: { cluster: 'test', user: u.name, ...(ns === undefined ? {} : { namespace: ns }) } }],
        'current-context': u.name,
      }, { lineWidth: 0 });
      const path = join(dataDir, `user-${u.name}.kubeconfig`);
      writeFileSync(path, text, { mode: 0o600 });
      const conn = connectionOf(text, dataDir);
      const userClient = createClient(conn);
      clients.push(userClient);
      return { name: u.name, groups, kubeconfig: text, kubeconfigPath: path, connection: conn, client: userClient };
    };

    return {
      url: server.url,
      flavour,
      names,
      kubeconfig,
      kubeconfigPath: server.kubeconfigPath,
      connection,
      client,
      server,
      startupMs: Math.round(performance.now() - started),
      createUser,
      async createNamespace(name) {
        mustSucceed(`creating namespace ${name}`, await client.create({ group: '', version: 'v1', resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
