/**
 * Calling one webhook (k8s.io/apiserver/pkg/admission/plugin/webhook: the client manager and callHook): the
 * clientConfig, prepared once per configuration version (its URL split, its credentials from the `kubeConfigFile`
 * by host, its `caBundle` the trust of a kept-alive connection pool), reached through the one outbound client (a
 * Service's endpoint chosen per call), the review POSTed with `?timeout=<n>s`, and the whole exchange bounded by
 * the webhook's `timeoutSeconds`. A failure to call (unreachable, timed out, a non-200 status, an answer that is not
 * a valid review) is a calling error, which the failure policy decides; a denial becomes the Status
 * `admission webhook "<name>" denied the request: <message>` with the webhook's code.
 */
import { fail, failure, type Fail, type Names, ok, type Result, type Status } from '@svc-apiserver/api';
import {
  compileClientConfig, resolveCompiledClientConfig, type ClientConfigResolvers, type CompiledClientConfig,
} from '../../outbound/client-config.js';
import { httpsPostJsonText } from '../../outbound/https-request.js';
import { verifyReviewResponse, type ReviewRequest, type ReviewResponse } from './admission-review.js';
import type { WebhookAccessor } from './webhook-accessor.js';

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

/** A webhook's clientConfig as its calls use it: prepared, or why it cannot be. */
export type WebhookClient = Result<CompiledClientConfig, string>;

/** Prepares the client of a webhook (once per configuration version: the caller keeps it). */
export function webhookClient(w: WebhookAccessor, resolvers: ClientConfigResolvers): WebhookClient {
  return compileClientConfig(w.clientConfig, resolvers.authInfo, w.timeoutSeconds * 1000);
}

/** The URL the review goes to, with kube's timeout parameter. */
function withTimeout(path: string, seconds: number): string {
  return `${path}${path.includes('?') ? '&' : '?'}timeout=${seconds}s`;
}

/** Sends `review` to webhook `w` through `client`: its checked answer (allowing or not), or the failure to get one. */
export async function callWebhook(
  w: WebhookAccessor, review: ReviewRequest, client: WebhookClient, resolvers: ClientConfigResolvers, names: Names,
): Promise<Result<ReviewResponse, CallFailure>> {
  // kube counts a call that got no status from the webhook as 503 Service Unavailable.
  const callingError = (why: string, code = 503): Fail<CallFailure> =>
    fail({ message: `failed calling webhook "${w.name}": ${why}`, code });
  if (!client.ok) return callingError(client.error);
  const resolved = await resolveCompiledClientConfig(client.value, resolvers.services);
  if (!resolved.ok) return callingError(resolved.error);
  const url = withTimeout(resolved.value.url, w.timeoutSeconds);
  const target = { ...resolved.value.requestUrl, path: withTimeout(resolved.value.requestUrl.path, w.timeoutSeconds) };
  const answer = await httpsPostJsonText(target, resolved.value.target, review.body, { deadlineMs: w.timeoutSeconds * 1000 });
  if (!answer.ok) return callingError(`failed to call webhook: Post "${url}": ${answer.error}`);
  if (answer.value.status !== 200) {
    return callingError(`failed to call webhook: the server responded with the status code ${answer.value.status} but did not return more information`,
      answer.value.status >= 400 && answer.value.status <= maxStatusCode ? answer.value.status : 500);
  }
  const verified = verifyReviewResponse(answer.value.body, review, w.type === 'mutating', names);
  if (!verified.ok) return callingError(`received invalid webhook response: ${verified.error}`);
  return ok(verified.value);
}
