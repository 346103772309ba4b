/**
 * The audit webhook backend (`--audit-webhook-config-file`, k8s.io/apiserver/plugin/pkg/audit/webhook): batches of
 * events POSTed as one EventList to the service of a kubeconfig-format connection file, through the server's one
 * outbound client. A failed send (no connection, 429 or 5xx) is tried again after `initialBackoffMs`, growing 1.5×,
 * five tries in all; a batch that still fails is dropped, counted and logged (batching-backend.ts).
 */
import { httpsRequest } from '../outbound/https-request.js';
import type { WebhookConnection } from '../outbound/webhook-connection.js';
import type { AuditBackend } from './backend.js';
import { batchingBackend, type BatchOptions } from './batching-backend.js';

/** Settings of the webhook backend. */
export interface WebhookBackendOptions {
  readonly connection: WebhookConnection;
  /** The EventList apiVersion (`audit.svc.io/v1`). */
  readonly apiVersion: string;
  readonly batch: BatchOptions;
  readonly initialBackoffMs: number;
  readonly log: (message: string) => void;
}

const attempts = 5;

/** Starts the webhook backend. */
export function startWebhookBackend(options: WebhookBackendOptions): AuditBackend {
  const { connection } = options;
  const target = { ...connection.target, headers: { 'content-type': 'application/json', accept: 'application/json', ...(connection.target.headers ?? {}) } };
  return batchingBackend('webhook', async (events) => {
    const body = JSON.stringify({ kind: 'EventList', apiVersion: options.apiVersion, metadata: {}, items: events });
    let backoff = options.initialBackoffMs;
    let last = '';
    for (let i = 0; i < attempts; i++) {
      if (i > 0) {
        await new Promise((r) => setTimeout(r, backoff));
        backoff *= 1.5;
      }
      const res = await httpsRequest(connection.server, 'POST', target, body);
      if (!res.ok) {
        last = res.error;
        continue;
      }
      const status = res.value.status;
      if (status >= 200 && status < 300) return undefined;
      last = `the audit webhook answered ${status}`;
      if (status !== 429 && status < 500) return last;
    }
    return last;
  }, options.batch, options.log);
}
