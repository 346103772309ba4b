/**
 * A server for the flow control tests: twenty seats in all (`--max-requests-inflight=10`,
 * `--max-mutating-requests-inflight=10`) so that floods are small, memory storage, an admin client, and users
 * bound to cluster-admin so their requests pass authorization and hold the seats the test gives them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { startServer, type RunningServer, type StartServerOptions } from '../server.js';
import { call, eventually } from '../e2e/http.js';

/** The running server. */
export interface ApfTestServer {
  readonly server: RunningServer;
  /** The admin's client (exempt from flow control). */
  readonly client: RestClient;
  /** A directory for further servers of the test; removed on close. */
  readonly dir: string;
  /** Binds `user` to cluster-admin and waits until the binding authorizes it. */
  bindClusterAdmin(user: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server with `options` over the defaults above. */
export async function startApfTestServer(options: StartServerOptions = {}): Promise<ApfTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'apf-server-'));
  const server = await startServer({
    dataDir: join(dir, 'server'), securePort: 0, storage: 'memory', log: () => {}, maxRequestsInFlight: 10, maxMutatingRequestsInFlight: 10, ...options,
  });
  await server.ready();
  const client = createClient({ server: server.url, ca: Buffer.from(server.ca), cert: Buffer.from(server.adminCert), key: Buffer.from(server.adminKey), namespace: 'default' });
  const rbac = 'rbac.authorization.svc.io';
  return {
    server, client, dir,
    async bindClusterAdmin(user) {
      const bound = await call(client, 'POST', `/apis/${rbac}/v1/clusterrolebindings`, {
        apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: { name: user.replaceAll(':', '-') },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ apiGroup: rbac, kind: 'User', name: user }],
      });
      assert.equal(bound.status, 201, bound.text);
      assert.ok(await eventually(async () => (await call(client, 'GET', '/api/v1/namespaces/default/configmaps', undefined, { 'Impersonate-User': user })).status === 200));
    },
    async close() {
      client.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
