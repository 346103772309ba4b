/**
 * A webhook's connection file as `--authentication-token-webhook-config-file`,
 * `--authorization-webhook-config-file` and `--audit-webhook-config-file` take it: the current context's cluster is
 * the remote service, its user the API server's credentials (k8s.io/apiserver's webhook.NewGenericWebhook).
 */
import { fail, ok, type Result } from '@svc-apiserver/api';
import { clusterTrust, loadKubeconfig, userCredentials } from './kubeconfig-file.js';
import type { HttpsTarget } from './https-request.js';

/** Where the webhook is and how to talk to it. */
export interface WebhookConnection {
  readonly server: string;
  readonly target: HttpsTarget;
}

/** Loads and checks a webhook connection file. */
export function loadWebhookConnection(path: string): Result<WebhookConnection, string> {
  const file = loadKubeconfig(path);
  if (!file.ok) return file;
  const { currentContext, contexts, clusters, users } = file.value;
  if (currentContext === '') return fail(`${path}: a current context is required`);
  const context = contexts.get(currentContext);
  if (context === undefined) return fail(`${path}: context ${JSON.stringify(currentContext)} not found`);
  const cluster = clusters.get(context.cluster);
  if (cluster === undefined || !cluster.server) {
    return fail(`${path}: cluster of context ${JSON.stringify(currentContext)} has no server`);
  }
  const user = users.get(context.user);
  return ok({ server: cluster.server, target: { ...clusterTrust(cluster), ...(user ? userCredentials(user) : {}) } });
}
