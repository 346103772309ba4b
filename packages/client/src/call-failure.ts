/**
 * The `Status` of a client call that failed: a call's result is a `Result` whose error is always a `Status`, as
 * client-go's StatusError is, whether the server sent it or the transport made it.
 */
import { failure, isStatus, type Status } from '@svc-apiserver/api';
import { decodeBody } from './codec.js';

/**
 * A failure that never reached the server or got no answer (connection refused, TLS, aborted). Its code is 0 so
 * callers can tell it from every HTTP status; the reason is empty like client-go's non-API errors.
 */
export function transportFailure(message: string): Status {
  return failure('Unknown', message, undefined, 0);
}

/**
 * The Status for a non-2xx response: the body when it is a Status (kube-apiserver always sends one), otherwise one
 * made from the HTTP code, as client-go's `newUnstructuredResponseError` does for bodies that are not a Status.
 */
export function statusFromResponse(code: number, body: Buffer, contentType?: string): Status {
  const text = body.toString('utf8');
  const parsed = decodeBody(body, contentType);
  if (parsed.ok && isStatus(parsed.value)) return parsed.value;
  const reason = reasonForCode(code);
  const message = text.trim() || `the server responded with the status code ${code} but did not return more information`;
  return failure(reason, message, undefined, code);
}

function reasonForCode(code: number): Parameters<typeof failure>[0] {
  switch (code) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 406: return 'NotAcceptable';
    case 409: return 'Conflict';
    case 410: return 'Gone';
    case 413: return 'RequestEntityTooLarge';
    case 415: return 'UnsupportedMediaType';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    case 503: return 'ServiceUnavailable';
    case 504: return 'Timeout';
    default: return code >= 500 ? 'InternalError' : 'Unknown';
  }
}
