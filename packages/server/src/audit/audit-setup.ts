/**
 * The auditor the flags describe (kube-apiserver's AuditOptions.ApplyTo): the policy file, and the log and
 * webhook backends it names. No policy file means no auditing, as in kube-apiserver; a policy without a backend
 * audits into nothing, also as there. Failures are messages that stop the start.
 */
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import { loadWebhookConnection } from '../outbound/webhook-connection.js';
import type { AuditFlags } from './audit-flags.js';
import { createAuditor, type Auditor } from './auditor.js';
import { unionBackend, type AuditBackend } from './backend.js';
import { startLogBackend } from './log-backend.js';
import { loadPolicyFile } from './policy.js';
import { startWebhookBackend } from './webhook-backend.js';

/** Builds the auditor, or undefined when no policy file is given. */
export async function buildAuditor(
  flags: AuditFlags, names: Names, log: (message: string) => void,
): Promise<Result<Auditor | undefined, string>> {
  if (flags.auditLogFormat !== 'json' && flags.auditLogFormat !== 'legacy') {
    return fail(`invalid audit log format ${JSON.stringify(flags.auditLogFormat)}, allowed formats are "json,legacy"`);
  }
  if (flags.auditPolicyFile === '') return ok(undefined);
  const policy = loadPolicyFile(flags.auditPolicyFile, names);
  if (!policy.ok) return policy;
  const apiVersion = `${names.group('audit')}/v1`;
  const backends: AuditBackend[] = [];
  if (flags.auditWebhookConfigFile !== '') {
    const connection = loadWebhookConnection(flags.auditWebhookConfigFile);
    if (!connection.ok) return fail(`audit webhook: ${connection.error}`);
    backends.push(startWebhookBackend({
      connection: connection.value, apiVersion, initialBackoffMs: flags.auditWebhookInitialBackoffMs, log,
      batch: {
        bufferSize: flags.auditWebhookBatchBufferSize, maxBatchSize: Math.max(1, flags.auditWebhookBatchMaxSize),
        maxBatchWaitMs: flags.auditWebhookBatchMaxWaitMs, throttleQps: flags.auditWebhookBatchThrottleQps,
        throttleBurst: flags.auditWebhookBatchThrottleBurst,
      },
    }));
  }
  if (flags.auditLogPath !== '') {
    try {
      backends.push(await startLogBackend({
        path: flags.auditLogPath, format: flags.auditLogFormat, log,
        maxSizeBytes: flags.auditLogMaxSize * 1024 * 1024, maxBackups: flags.auditLogMaxBackup, maxAgeDays: flags.auditLogMaxAge,
        batch: { bufferSize: flags.auditLogBatchBufferSize, maxBatchSize: Math.max(1, flags.auditLogBatchMaxSize), maxBatchWaitMs: flags.auditLogBatchMaxWaitMs },
      }));
    } catch (e) {
      await Promise.all(backends.map((b) => b.shutdown()));
      return fail(`unable to open the audit log "${flags.auditLogPath}": ${(e as Error).message}`);
    }
  }
  return ok(createAuditor(policy.value, unionBackend(backends), apiVersion));
}
