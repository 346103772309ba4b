/**
 * The auditor: the policy and the backends together, and the making of one request's events at each stage as
 * k8s.io/apiserver's audit filter and request helpers make them. What an event holds follows its level:
 * Metadata (who, what, when, the response status and annotations), Request (and the request object),
 * RequestResponse (and the response object); annotations recorded at Request level appear from Request up.
 */
import type { AuditBackend } from './backend.js';
import { auditMetrics } from './audit-metrics.js';
import { levelAtLeast, microTime, type AuditEvent, type AuditLevel, type AuditObjectRef, type AuditResponseStatus, type AuditStage, type AuditUser } from './event.js';
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';
import { evaluatePolicy, type AuditPolicy, type RuleEvaluation } from './policy.js';

/** The policy and where events go. */
export interface Auditor {
  /** The Event apiVersion (`audit.svc.io/v1`). */
  readonly apiVersion: string;
  evaluate(user: UserInfo, info: RequestInfo): RuleEvaluation;
  readonly backend: AuditBackend;
}

/** Builds an auditor. */
export function createAuditor(policy: AuditPolicy, backend: AuditBackend, apiVersion: string): Auditor {
  return { apiVersion, backend, evaluate: (user, info) => evaluatePolicy(policy, user, info) };
}

/** An annotation with the lowest level it shows at (admission's `Request` annotations show from Request up). */
export interface LeveledAnnotation {
  readonly value: string;
  readonly level: 'Metadata' | 'Request';
}

/** What every event of one request shares. */
export interface AuditedRequest {
  readonly auditID: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUser;
  readonly sourceIPs: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: AuditObjectRef;
  /** When the request came, in epoch milliseconds with a fraction. */
  readonly receivedAt: number;
}

/** What a stage adds to the shared part. */
export interface StageDetails {
  readonly impersonatedUser?: AuditUser;
  readonly responseStatus?: AuditResponseStatus;
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  readonly annotations?: ReadonlyMap<string, LeveledAnnotation>;
}

/** The current time in epoch milliseconds with microseconds. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

/** An object without `metadata.managedFields` (and its items' too, for lists): `omitManagedFields`. */
export function withoutManagedFields(object: unknown): unknown {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return object;
  const o = object as Record<string, unknown>;
  const out: Record<string, unknown> = { ...o };
  const meta = o['metadata'];
  if (typeof meta === 'object' && meta !== null && 'managedFields' in meta) {
    const { managedFields: _dropped, ...rest } = meta as Record<string, unknown>;
    out['metadata'] = rest;
  }
  if (Array.isArray(o['items'])) out['items'] = (o['items'] as unknown[]).map(withoutManagedFields);
  return out;
}

/** The ObjectRef completed from the request object's metadata (kube's LogRequestObject). */
export function completeObjectRef(ref: AuditObjectRef | undefined, requestObject: unknown): AuditObjectRef | undefined {
  if (ref === undefined) return undefined;
  const meta = (requestObject as { metadata?: Record<string, unknown> } | undefined)?.metadata;
  if (typeof meta !== 'object' || meta === null) return ref;
  const str = (k: string): string | undefined => (typeof meta[k] === 'string' && meta[k] !== '' ? (meta[k] as string) : undefined);
  const fill = (key: keyof AuditObjectRef, value: string | undefined): Partial<AuditObjectRef> => (ref[key] === undefined && value !== undefined ? { [key]: value } : {});
  return { ...ref, ...fill('namespace', str('namespace')), ...fill('name', str('name')), ...fill('uid', str('uid')), ...fill('resourceVersion', str('resourceVersion')) };
}

/** One event of a request at `stage`, holding what `level` records. */
export function auditEvent(
  apiVersion: string, request: AuditedRequest, stage: AuditStage, evaluation: RuleEvaluation & { level: Exclude<AuditLevel, 'None'> },
  details: StageDetails,
): AuditEvent {
  const level = evaluation.level;
  const clean = (o: unknown): unknown => (evaluation.omitManagedFields ? withoutManagedFields(o) : o);
  const annotations: Record<string, string> = {};
  for (const [key, a] of details.annotations ?? []) if (levelAtLeast(level, a.level)) annotations[key] = a.value;
  const objectRef = details.requestObject === undefined ? request.objectRef : completeObjectRef(request.objectRef, details.requestObject);
  return {
    kind: 'Event',
    apiVersion,
    level,
    auditID: request.auditID,
    stage,
    requestURI: request.requestURI,
    verb: request.verb,
    user: request.user,
    ...(details.impersonatedUser === undefined ? {} : { impersonatedUser: details.impersonatedUser }),
    sourceIPs: request.sourceIPs,
    ...(request.userAgent === undefined ? {} : { userAgent: request.userAgent }),
    ...(objectRef === undefined ? {} : { objectRef }),
    ...(details.responseStatus === undefined ? {} : { responseStatus: details.responseStatus }),
    ...(levelAtLeast(level, 'Request') && details.requestObject !== undefined ? { requestObject: clean(details.requestObject) } : {}),
    ...(levelAtLeast(level, 'RequestResponse') && details.responseObject !== undefined ? { responseObject: clean(details.responseObject) } : {}),
    requestReceivedTimestamp: microTime(request.receivedAt),
    stageTimestamp: microTime(preciseNow()),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
}

/** Hands an event to the auditor's backend, counted in `apiserver_audit_event_total`. */
export function emitEvent(auditor: Auditor, event: AuditEvent): void {
  auditMetrics().events.inc({});
  auditor.backend.processEvents([event]);
}
