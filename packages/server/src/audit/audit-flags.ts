/**
 * The audit flags of kube-apiserver (k8s.io/apiserver's AuditOptions): the policy file, the log backend with its
 * rotation, the webhook backend, and the batching of each.
 */

/** What the `--audit-*` flags set. */
export interface AuditFlags {
  /** `--audit-policy-file`: without it nothing is audited. */
  readonly auditPolicyFile: string;
  /** `--audit-log-path`: a file, or `-` for stdout; '' turns the log backend off. */
  readonly auditLogPath: string;
  /** `--audit-log-maxage`: days a rotated file is kept (0: no age limit). */
  readonly auditLogMaxAge: number;
  /** `--audit-log-maxbackup`: rotated files kept (0: no count limit). */
  readonly auditLogMaxBackup: number;
  /** `--audit-log-maxsize`: megabytes before the file is rotated (0: 100). */
  readonly auditLogMaxSize: number;
  /** `--audit-log-format`: `json` or `legacy`. */
  readonly auditLogFormat: string;
  readonly auditLogBatchBufferSize: number;
  readonly auditLogBatchMaxSize: number;
  readonly auditLogBatchMaxWaitMs: number;
  /** `--audit-webhook-config-file`: a kubeconfig-format file naming the webhook; '' turns it off. */
  readonly auditWebhookConfigFile: string;
  readonly auditWebhookBatchBufferSize: number;
  readonly auditWebhookBatchMaxSize: number;
  readonly auditWebhookBatchMaxWaitMs: number;
  readonly auditWebhookBatchThrottleQps: number;
  readonly auditWebhookBatchThrottleBurst: number;
  readonly auditWebhookInitialBackoffMs: number;
}

/** kube-apiserver's defaults, but for the log's batch size: this server always writes the log in batches. */
export const defaultAuditFlags: AuditFlags = {
  auditPolicyFile: '',
  auditLogPath: '',
  auditLogMaxAge: 0,
  auditLogMaxBackup: 0,
  auditLogMaxSize: 0,
  auditLogFormat: 'json',
  auditLogBatchBufferSize: 10_000,
  auditLogBatchMaxSize: 400,
  auditLogBatchMaxWaitMs: 0,
  auditWebhookConfigFile: '',
  auditWebhookBatchBufferSize: 10_000,
  auditWebhookBatchMaxSize: 400,
  auditWebhookBatchMaxWaitMs: 30_000,
  auditWebhookBatchThrottleQps: 10,
  auditWebhookBatchThrottleBurst: 15,
  auditWebhookInitialBackoffMs: 10_000,
};
