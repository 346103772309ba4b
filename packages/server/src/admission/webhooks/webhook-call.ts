/**
 * Calling one webhook (k8s.io/apiserver/pkg/admission/plugin/webhook: the client manager and callHook): the
 * clientConfig resolved through the one outbound client (a URL, or a Service's endpoints, with `caBundle` and the
 * credentials of the `kubeConfigFile` by host), the review POSTed with `?timeout=<n>s`, and the whole exchange
 * bounded by the webhook's `timeoutSeconds`. A failure to call (unreachable, timed out, a non-200 status, an
 * answer that is not a valid review) is a calling error, which the failure policy decides; a denial becomes the
 * Status `admission webhook "<name>" denied the request: <message>` with the webhook's code.
 */
import { fail, failure, type Fail, type Names, ok, type Result, type Status } from '@svc-apiserver/api';
import { resolveClientConfig, type ClientConfigResolvers } from '../../outbound/client-config.js';
import { httpsPostJson } from '../../outbound/https-request.js';
import { buildReviewRequest, verifyReviewResponse, type ReviewResponse } from './admission-review.js';
import type { AdmissionAttributes } from '../plugin.js';
import type { KubeObject } from '@svc-apiserver/api';
import type { Invocation } from './webhook-matcher.js';

/** A call that gave no usable answer (the failure policy decides): why, and the status code it counts as. */
export interface CallFailure {
  readonly message: string;
  readonly code: number;
}

/** The largest status code a rejection may carry to the client (Go's net/http refuses larger ones). */
const maxStatusCode = 999;

/** webhookerrors.ToStatusErr: the client-visible Status of a denial. */
export function rejectionStatus(webhookName: string, result: Partial<Status> | undefined): Status {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  let code = typeof result?.code === 'number' ? result.code : 0;
  if (code < 400) code = 400;
  if (code > maxStatusCode) code = 500;
  const message = result?.message ? `${deniedBy}: ${result.message}` : result?.reason ? `${deniedBy}: ${result.reason}` : `${deniedBy} without explanation`;
  const status = failure('BadRequest', message, result?.details, code);
  status.reason = typeof result?.reason === 'string' ? result.reason : '';
  return status;
}

/** The URL the review goes to, with kube's timeout parameter. */
function withTimeout(url: string, seconds: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}timeout=${seconds}s`;
}

/**
 * Calls the webhook of `invocation` with a review of `a` (objects in the invocation's version): its checked answer
 * (allowing or not), or the failure to get one.
 */
export async function callWebhook(
  a: AdmissionAttributes, invocation: Invocation, reviewVersion: string, names: Names, resolvers: ClientConfigResolvers,
  object: KubeObject | undefined, oldObject: KubeObject | undefined,
): Promise<Result<ReviewResponse, CallFailure>> {
  const w = invocation.webhook;
  const timeoutMs = w.timeoutSeconds * 1000;
  // kube counts a call that got no status from the webhook as 503 Service Unavailable.
  const callingError = (why: string, code = 503): Fail<CallFailure> =>
    fail({ message: `failed calling webhook "${w.name}": ${why}`, code });
  const resolved = await resolveClientConfig(w.clientConfig, resolvers, timeoutMs);
  if (!resolved.ok) return callingError(resolved.error);
  const url = withTimeout(resolved.value.url, w.timeoutSeconds);
  const request = buildReviewRequest(a, invocation, reviewVersion, names, object, oldObject);
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve('timeout');
    }, timeoutMs);
  });
  try {
    const answer = await Promise.race([httpsPostJson(url, resolved.value.target, request.document, abort.signal), deadline]);
    if (answer === 'timeout') return callingError(`failed to call webhook: Post "${url}": context deadline exceeded`);
    if (!answer.ok) return callingError(`failed to call webhook: Post "${url}": ${answer.error}`);
    if (answer.value.status !== 200) {
      return callingError(`failed to call webhook: the server responded with the status code ${answer.value.status} but did not return more information`,
        answer.value.status >= 400 && answer.value.status <= maxStatusCode ? answer.value.status : 500);
    }
    const verified = verifyReviewResponse(answer.value.body, request, w.type === 'mutating', names);
    if (!verified.ok) return callingError(`received invalid webhook response: ${verified.error}`);
    return ok(verified.value);
  } finally {
    clearTimeout(timer);
  }
}
