/**
 * The audit event (audit.k8s.io/v1 Event, renamed `audit.svc.io` in the svc flavour) and its levels and stages,
 * as k8s.io/apiserver/pkg/apis/audit defines them.
 */

/** How much of a request an event records (audit.Level), lowest first. */
export const auditLevels = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;

/** An audit level. */
export type AuditLevel = (typeof auditLevels)[number];

/** The stages an event is written at (audit.Stage). */
export const auditStages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;

/** An audit stage. */
export type AuditStage = (typeof auditStages)[number];

/** Whether `level` records at least what `atLeast` does (audit.Level.GreaterOrEqual). */
export function levelAtLeast(level: AuditLevel, atLeast: AuditLevel): boolean {
  return auditLevels.indexOf(level) >= auditLevels.indexOf(atLeast);
}

/** The identity of an event's user (authentication/v1 UserInfo). */
export interface AuditUser {
  /** Absent for a request whose authentication failed. */
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** What a resource request was about (audit ObjectReference). */
export interface AuditObjectRef {
  readonly resource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly apiGroup?: string;
  readonly apiVersion?: string;
  readonly resourceVersion?: string;
  readonly subresource?: string;
}

/** The response's status as an event keeps it (the bounded fields of metav1.Status). */
export interface AuditResponseStatus {
  readonly metadata: Record<string, never>;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: unknown;
  readonly code: number;
}

/** One audit event, as written to the log and sent to webhooks. */
export interface AuditEvent {
  readonly kind: 'Event';
  readonly apiVersion: string;
  readonly level: AuditLevel;
  readonly auditID: string;
  readonly stage: AuditStage;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUser;
  readonly impersonatedUser?: AuditUser;
  readonly sourceIPs?: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: AuditObjectRef;
  readonly responseStatus?: AuditResponseStatus;
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  /** MicroTime, `2006-01-02T15:04:05.000000Z`. */
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** A time as metav1.MicroTime writes it: RFC 3339 with six fraction digits, UTC. */
export function microTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  const micros = String(Math.floor((ms % 1) * 1000)).padStart(3, '0');
  return `${iso.slice(0, -1)}${micros}Z`;
}
