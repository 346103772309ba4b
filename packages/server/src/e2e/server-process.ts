/**
 * The real server as a child process for the end-to-end tests: the shared launcher's process with admin and
 * anonymous clients over the kubeconfig it writes, and one server for a whole test file.
 */
import { after, before } from 'node:test';
import { createClient, loadKubeconfig, type ConnectionConfig, type RestClient } from '@svc-apiserver/client';
import { launchServer, type LaunchedServer, type LaunchOptions } from '@svc-apiserver/testing/launch-server';
import { createNamespace } from './http.js';

/** How to start a server. */
export type ServerProcessOptions = LaunchOptions;

/** A running server and clients of it. */
export interface ServerProcess extends LaunchedServer {
  /** The admin connection from the written kubeconfig. */
  readonly admin: ConnectionConfig;
  /** A client with the admin certificate. */
  readonly client: RestClient;
  /** A client that verifies the server but presents no credentials. */
  readonly anonymous: RestClient;
}

/** Starts a server (see {@link launchServer}) and connects to it; stopping it closes the clients. */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const server = await launchServer(options);
  const conn = loadKubeconfig({ path: server.kubeconfigPath });
  if (!conn.ok) {
    await server.kill();
    throw new Error(`admin kubeconfig unusable: ${conn.error}`);
  }
  const client = createClient(conn.value);
  const anonConfig: ConnectionConfig = { server: conn.value.server, namespace: 'default', ...(conn.value.ca ? { ca: conn.value.ca } : {}) };
  const anonymous = createClient(anonConfig);
  const closeClients = (): void => {
    client.close();
    anonymous.close();
  };
  return {
    ...server,
    admin: conn.value,
    client,
    anonymous,
    async stop(graceMs) {
      const e = await server.stop(graceMs);
      closeClients();
      return e;
    },
    async kill() {
      const e = await server.kill();
      closeClients();
      return e;
    },
  };
}

/**
 * One server for a whole test file: started, with `namespace` created in it, before the file's tests and stopped
 * after them. Returns a getter, since the server exists only once the file's `before` hook has run.
 */
export function serverForFile(options: ServerProcessOptions = {}, namespace?: string): () => ServerProcess {
  let server: ServerProcess | undefined;
  before(async () => {
    server = await startServerProcess(options);
    if (namespace !== undefined) await createNamespace(server.client, namespace);
  });
  after(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error('the test file\'s server has not started');
    return server;
  };
}
