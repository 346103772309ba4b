/**
 * The audit filter (k8s.io/apiserver's WithAudit), after authentication: the policy decides the request's level;
 * unless it is None, events go to the backends at RequestReceived, at ResponseStarted for long-running requests
 * (watches, exec, attach, port-forward, proxy) when their headers go out, at ResponseComplete with the status,
 * request and response objects the level allows, and the annotations recorded on the way (authorization's
 * decision, admission's, the deprecation notice), or at Panic when serving threw. Stages the policy omits are
 * not written. The user is the authenticated one; an impersonated user appears as impersonatedUser.
 */
import type { Status } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';
import { auditMetrics } from '../../audit/audit-metrics.js';
import { auditEvent, emitEvent, type AuditedRequest, type Auditor, type StageDetails } from '../../audit/auditor.js';
import type { AuditObjectRef, AuditResponseStatus, AuditStage, AuditUser } from '../../audit/event.js';
import type { Filter, RequestContext } from '../context.js';
import type { RequestInfo } from '../../request/request-info.js';
import { isLongRunning } from '../long-running.js';

/** The user as an event names it. */
function auditUser(user: UserInfo): AuditUser {
  return {
    username: user.username,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: user.groups } : {}),
    ...(user.extra !== undefined && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {}),
  };
}

function objectRefOf(info: RequestInfo): AuditObjectRef | undefined {
  if (!info.isResourceRequest) return undefined;
  const ref: Record<string, string> = {};
  if (info.resource) ref['resource'] = info.resource;
  if (info.namespace) ref['namespace'] = info.namespace;
  if (info.name) ref['name'] = info.name;
  ref['apiGroup'] = info.apiGroup;
  if (info.apiVersion) ref['apiVersion'] = info.apiVersion;
  if (info.subresource) ref['subresource'] = info.subresource;
  return ref;
}

/** The client's addresses, X-Forwarded-For first, then X-Real-Ip, then the connection's (kube's SourceIPs). */
export function sourceIPs(ctx: RequestContext): string[] {
  const out: string[] = [];
  const forwarded = ctx.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') for (const ip of forwarded.split(',')) if (ip.trim() !== '') out.push(ip.trim());
  const real = ctx.headers['x-real-ip'];
  if (typeof real === 'string' && real.trim() !== '' && !out.includes(real.trim())) out.push(real.trim());
  const remote = ctx.record.remoteAddress.replace(/^::ffff:/, '');
  if (remote !== '' && !out.includes(remote)) out.push(remote);
  return out;
}

/** The response status as an event keeps it: a Status's bounded fields, or the code. */
function responseStatusOf(code: number, object: unknown): AuditResponseStatus {
  const s = object as Partial<Status> | undefined;
  if (s !== undefined && s !== null && typeof s === 'object' && s.kind === 'Status') {
    return {
      metadata: {},
      ...(s.status ? { status: s.status } : {}),
      ...(s.message ? { message: s.message } : {}),
      ...(s.reason ? { reason: s.reason } : {}),
      ...(s.details !== undefined ? { details: s.details } : {}),
      code: s.code ?? code,
    };
  }
  return { metadata: {}, code };
}

/** The user a request refused by authentication is evaluated as. */
const noUser: UserInfo = { username: '', groups: [] };

/** The shared part of a request's events. */
function auditedRequest(ctx: RequestContext, user: AuditUser, receivedAt: number): AuditedRequest {
  const query = ctx.query.toString();
  const objectRef = objectRefOf(ctx.info);
  const userAgent = ctx.headers['user-agent'];
  return {
    auditID: ctx.record.auditID,
    requestURI: query === '' ? ctx.path : `${ctx.path}?${query}`,
    verb: ctx.info.verb,
    user,
    sourceIPs: sourceIPs(ctx),
    ...(userAgent === undefined ? {} : { userAgent }),
    ...(objectRef === undefined ? {} : { objectRef }),
    receivedAt,
  };
}

/**
 * The audit of failed authentication (k8s.io/apiserver's WithFailedAuthenticationAudit), before authentication: a
 * request refused with 401 before the audit filter saw it is audited as the policy says for a request without a
 * user, in one ResponseStarted event.
 */
export function failedAuthenticationAudit(auditor: Auditor | undefined): Filter {
  if (auditor === undefined) return (_ctx, next) => next();
  return async (ctx, next) => {
    const receivedAt = receivedAtOf(ctx);
    await next();
    if (ctx.record.audited || ctx.record.responseCode !== 401) return;
    const evaluation = auditor.evaluate(noUser, ctx.info);
    auditMetrics().levels.inc({ level: evaluation.level });
    if (evaluation.level === 'None' || evaluation.omitStages.includes('ResponseStarted')) return;
    emitEvent(auditor, auditEvent(auditor.apiVersion, auditedRequest(ctx, {}, receivedAt), 'ResponseStarted', { ...evaluation, level: evaluation.level }, {
      responseStatus: { metadata: {}, status: 'Failure', message: 'Authentication failed', reason: 'Unauthorized', code: 401 },
    }));
  };
}

/** When the request arrived, in epoch ms (kube's RequestReceivedTimestamp, taken before any queue). */
function receivedAtOf(ctx: RequestContext): number {
  return performance.timeOrigin + ctx.record.receivedAt;
}

/** The audit filter; without an auditor (no policy file) it only passes the request on. */
export function audit(auditor: Auditor | undefined): Filter {
  if (auditor === undefined) return (_ctx, next) => next();
  return async (ctx, next) => {
    const receivedAt = receivedAtOf(ctx);
    const { info, user } = ctx;
    const evaluation = auditor.evaluate(user, info);
    auditMetrics().levels.inc({ level: evaluation.level });
    ctx.record.audited = true;
    if (evaluation.level === 'None') return next();
    const level = evaluation.level;
    const request = auditedRequest(ctx, auditUser(user), receivedAt);
    const emit = (stage: AuditStage, details: StageDetails): void => {
      if (evaluation.omitStages.includes(stage)) return;
      emitEvent(auditor, auditEvent(auditor.apiVersion, request, stage, { ...evaluation, level }, details));
    };
    const impersonated = (): Pick<StageDetails, 'impersonatedUser'> => (ctx.user !== user ? { impersonatedUser: auditUser(ctx.user) } : {});
    emit('RequestReceived', {});
    if (isLongRunning(info)) {
      const before = ctx.record.onResponseStart;
      ctx.record.onResponseStart = (code) => {
        before?.(code);
        emit('ResponseStarted', { ...impersonated(), responseStatus: { metadata: {}, code }, annotations: ctx.record.annotations });
      };
    }
    try {
      await next();
    } catch (error) {
      emit('Panic', {
        ...impersonated(),
        responseStatus: { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${error instanceof Error ? error.message : String(error)}`, reason: 'InternalError', code: 500 },
        requestObject: ctx.record.requestObject,
        annotations: ctx.record.annotations,
      });
      throw error;
    }
    const code = ctx.record.responseCode ?? 200;
    emit('ResponseComplete', {
      ...impersonated(),
      responseStatus: responseStatusOf(code, ctx.record.responseObject),
      requestObject: ctx.record.requestObject,
      responseObject: ctx.record.responseObject,
      annotations: ctx.record.annotations,
    });
  };
}
