/**
 * The `Status` object and the table of reasons: every client-visible failure is one of these.
 * Mirrors k8s.io/apimachinery/pkg/api/errors (messages in kube-apiserver's wording).
 */

/** Every StatusReason the server uses, with its HTTP code. A new reason without a code does not compile. */
export const statusReasonCodes = {
  Unknown: 500,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Invalid: 422,
  ServerTimeout: 500,
  Timeout: 504,
  TooManyRequests: 429,
  BadRequest: 400,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  InternalError: 500,
  Expired: 410,
  ServiceUnavailable: 503,
} as const satisfies Record<string, number>;

/** A StatusReason. `Unknown` is sent as an empty reason, as kube-apiserver does. */
export type StatusReason = keyof typeof statusReasonCodes;

/** One cause of a failure, usually one invalid field. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** Details of a failure. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The `Status` object (meta/v1). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  /** `continue` is set on a 410 for an expired continue token: it continues at the newest revision. */
  metadata: Record<string, never> | { resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** Identifies a resource in messages: `configmaps` or `deployments.apps`. */
export interface QualifiedResource {
  group: string;
  resource: string;
}

/** `resource.group`, or `resource` in the core group, as kube-apiserver prints it. */
export function qualifiedResourceString(qr: QualifiedResource): string {
  return qr.group ? `${qr.resource}.${qr.group}` : qr.resource;
}

/** A failure Status. */
export function failure(reason: StatusReason, message: string, details?: StatusDetails, code?: number): Status {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: reason === 'Unknown' ? '' : reason,
    code: code ?? statusReasonCodes[reason],
  };
  if (details !== undefined) status.details = details;
  return status;
}

/** The Status of a successful delete without a returned object. */
export function success(details?: StatusDetails): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details !== undefined) status.details = details;
  return status;
}

/** Details naming one object; empty fields are left out, as Go's omitempty does. */
function named(qr: QualifiedResource, name: string): StatusDetails {
  const details: StatusDetails = {};
  if (name) details.name = name;
  if (qr.group) details.group = qr.group;
  details.kind = qr.resource;
  return details;
}

/** 404 `configmaps "x" not found`. */
export function notFound(qr: QualifiedResource, name: string): Status {
  return failure('NotFound', `${qualifiedResourceString(qr)} "${name}" not found`, named(qr, name));
}

/** 409 `configmaps "x" already exists`. */
export function alreadyExists(qr: QualifiedResource, name: string): Status {
  return failure('AlreadyExists', `${qualifiedResourceString(qr)} "${name}" already exists`, named(qr, name));
}

/** 409 Conflict: `Operation cannot be fulfilled on configmaps "x": <why>`. */
export function conflict(qr: QualifiedResource, name: string, why: string): Status {
  return failure(
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResourceString(qr)} "${name}": ${why}`,
    named(qr, name),
  );
}

/** The reason kube-apiserver gives when a write carries a stale resourceVersion. */
export const optimisticLockMessage =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 400 BadRequest. */
export function badRequest(message: string): Status {
  return failure('BadRequest', message);
}

/** 500 InternalError: `Internal error occurred: <why>`. Only for server faults, never for client mistakes. */
export function internalError(why: string): Status {
  return failure('InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] });
}

/** 405 `the server does not allow this method on the requested resource`. */
export function methodNotAllowed(): Status {
  return failure('MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

/** 415 `the body of the request was in an unknown format - accepted media types include: ...`. */
export function unsupportedMediaType(accepted: readonly string[]): Status {
  return failure(
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** 406 when no requested media type can be produced. */
export function notAcceptable(accepted: readonly string[]): Status {
  return failure('NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 413 for a request body over the limit. */
export function requestEntityTooLarge(limitBytes: number): Status {
  return failure('RequestEntityTooLarge', `Request entity too large: limit is ${limitBytes}`);
}

/** 410 Expired/Gone. */
export function gone(message: string, reason: 'Gone' | 'Expired' = 'Expired'): Status {
  return failure(reason, message);
}

/** 504 for a resourceVersion the store has not reached after a brief wait. */
export function tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds = 1): Status {
  return failure(
    'Timeout',
    `Timeout: Too large resource version: ${requested}, current: ${current}`,
    { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds },
  );
}

/** 503 ServiceUnavailable. */
export function serviceUnavailable(message: string): Status {
  return failure('ServiceUnavailable', message);
}

/** 403 Forbidden: `configmaps "x" is forbidden: <why>`. */
export function forbidden(qr: QualifiedResource, name: string, why: string): Status {
  const target = name ? `${qualifiedResourceString(qr)} "${name}"` : qualifiedResourceString(qr);
  return failure('Forbidden', `${target} is forbidden: ${why}`, named(qr, name));
}

/** True when a value has the shape of a Status. */
export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}
