/**
 * The audit log backend (`--audit-log-path`, k8s.io/apiserver/plugin/pkg/audit/log): one line per event, as JSON
 * (`--audit-log-format=json`, the default) or in the legacy one-line text form, to a rotating file or to stdout
 * (`-`). Events are batched (batching-backend.ts): requests never wait on the disk.
 */
import type { AuditBackend } from './backend.js';
import { batchingBackend, type BatchOptions } from './batching-backend.js';
import type { AuditEvent } from './event.js';
import { openRotatingFile, type RotationLimits } from './rotating-file.js';

/** `--audit-log-format` values. */
export type AuditLogFormat = 'json' | 'legacy';

/** Settings of the log backend. */
export interface LogBackendOptions extends RotationLimits {
  /** A file path, or `-` for stdout. */
  readonly path: string;
  readonly format: AuditLogFormat;
  readonly batch: BatchOptions;
  /** Where stdout lines go (default: process.stdout). */
  readonly stdout?: (text: string) => void;
  readonly log: (message: string) => void;
}

const quoted = (s: string): string => JSON.stringify(s);

/** The legacy text form of an event (k8s.io/apiserver's audit.EventString). */
export function legacyEventLine(ev: AuditEvent): string {
  const username = ev.user.username ? ev.user.username : '<none>';
  const groups = ev.user.username && (ev.user.groups?.length ?? 0) > 0 ? (ev.user.groups ?? []).map(quoted).join(',') : '<none>';
  const as = ev.impersonatedUser?.username ?? '<self>';
  const asGroups = ev.impersonatedUser?.groups !== undefined ? ev.impersonatedUser.groups.map(quoted).join(',') : '<lookup>';
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus === undefined ? '<deferred>' : String(ev.responseStatus.code);
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return `${ev.requestReceivedTimestamp} AUDIT: id=${quoted(ev.auditID)} stage=${quoted(ev.stage)} ip=${quoted(ip)} method=${quoted(ev.verb)} user=${quoted(username)} groups=${quoted(groups)} as=${quoted(as)} asgroups=${quoted(asGroups)} user-agent=${quoted(ev.userAgent ?? '')} namespace=${namespace} uri=${quoted(ev.requestURI)} response="${response}"`;
}

/** Starts the log backend; the file is opened (created) before the server serves. */
export async function startLogBackend(options: LogBackendOptions): Promise<AuditBackend> {
  const line = options.format === 'legacy' ? legacyEventLine : (ev: AuditEvent) => JSON.stringify(ev);
  const render = (events: readonly AuditEvent[]): string => events.map((e) => `${line(e)}\n`).join('');
  if (options.path === '-') {
    const out = options.stdout ?? ((text: string) => void process.stdout.write(text));
    return batchingBackend('log', async (events) => {
      out(render(events));
      return undefined;
    }, options.batch, options.log);
  }
  const file = await openRotatingFile(options.path, options);
  const backend = batchingBackend('log', async (events) => {
    try {
      await file.write(render(events));
      return undefined;
    } catch (e) {
      return `writing ${options.path}: ${(e as Error).message}`;
    }
  }, options.batch, options.log);
  return {
    name: backend.name,
    processEvents: (events) => backend.processEvents(events),
    async shutdown() {
      await backend.shutdown();
      await file.close();
    },
  };
}
