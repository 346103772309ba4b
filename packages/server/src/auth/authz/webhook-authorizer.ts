/**
 * The Webhook authorization mode (`--authorization-mode=Webhook`, k8s.io/apiserver's webhook authorizer): each
 * request is POSTed to a remote service as a SubjectAccessReview (`v1beta1` or `v1` of the authorization group);
 * `status.allowed` allows, `status.denied` denies, neither is no opinion. Answers are cached by the whole review
 * spec: allowed ones for the authorized TTL, the others for the unauthorized TTL. A call that fails (transport,
 * non-2xx status, unreadable answer) is retried a few times with backoff, then is no opinion with an evaluation
 * error, and is not cached. The remote service cannot list rules: the authorizer has no `rulesFor`, so rules
 * reviews are incomplete with kube's "webhook authorizer does not support user rule resolution".
 */
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import { httpsRequest } from '../../outbound/https-request.js';
import type { WebhookConnection } from '../../outbound/webhook-connection.js';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer } from '../../request/authorizer.js';

/** Retries of a failed call: `attempts` in all, waiting `initialDelayMs`, then twice as long each time. */
export interface WebhookRetry {
  readonly attempts: number;
  readonly initialDelayMs: number;
}

/** Options of {@link webhookAuthorizer}. */
export interface WebhookAuthorizerOptions {
  readonly names: Names;
  readonly connection: WebhookConnection;
  /** SubjectAccessReview version sent and expected: `v1beta1` or `v1`. */
  readonly version: 'v1' | 'v1beta1';
  /** How long allowed answers are cached, in ms (0: not cached). */
  readonly authorizedTtlMs: number;
  /** How long other answers (denied, no opinion) are cached, in ms (0: not cached). */
  readonly unauthorizedTtlMs: number;
  /** Per-call timeout (default 30 s, kube's webhook client timeout). */
  readonly timeoutMs?: number;
  /** Default: 3 attempts from 100 ms (kube retries 5 times from 500 ms; a shorter bound keeps requests snappy). */
  readonly retry?: WebhookRetry;
  readonly log?: (message: string) => void;
}

/** The review spec: `groups` is spelled `group` in v1beta1. */
type ReviewSpec = Record<string, unknown>;

interface ReviewStatus {
  allowed?: unknown;
  denied?: unknown;
  reason?: unknown;
  evaluationError?: unknown;
}

/** A webhook authorizer (no `close` needed: it holds no timers or connections). */
export interface WebhookAuthorizer extends Authorizer {
  /** Entries in the answer cache (for tests and metrics). */
  cacheSize(): number;
}

/** kube-apiserver's cache size for webhook decisions. */
const maxCacheEntries = 8192;

/** Statuses kube's webhook client retries (internal error, gateway timeout, too many requests). */
const retriedStatuses = new Set([429, 500, 504]);

/** The SubjectAccessReview spec of a request, with empty fields left out as Go's omitempty does. */
export function subjectAccessReviewSpec(attributes: AuthorizationAttributes, version: 'v1' | 'v1beta1'): ReviewSpec {
  const { user, info } = attributes;
  const nonEmpty = (entries: [string, string][]): Record<string, string> =>
    Object.fromEntries(entries.filter(([, v]) => v !== ''));
  const extra = user.extra === undefined ? {} : Object.fromEntries(Object.keys(user.extra).sort().map((k) => [k, [...user.extra![k]!]]));
  return {
    ...(user.username !== '' ? { user: user.username } : {}),
    ...(user.groups.length > 0 ? { [version === 'v1beta1' ? 'group' : 'groups']: [...user.groups] } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
    ...(user.uid !== undefined && user.uid !== '' ? { uid: user.uid } : {}),
    ...(info.isResourceRequest
      ? {
        resourceAttributes: nonEmpty([
          ['namespace', info.namespace], ['verb', info.verb], ['group', info.apiGroup], ['version', info.apiVersion],
          ['resource', info.resource], ['subresource', info.subresource], ['name', info.name],
        ]),
      }
      : { nonResourceAttributes: nonEmpty([['path', info.path], ['verb', info.verb]]) }),
  };
}

/** A review answer as a decision. */
function decisionOf(status: ReviewStatus): AuthorizationDecision {
  const reason = typeof status.reason === 'string' && status.reason !== '' ? { reason: status.reason } : {};
  const evaluationError = typeof status.evaluationError === 'string' && status.evaluationError !== ''
    ? status.evaluationError
    : undefined;
  if (status.allowed === true && status.denied === true) {
    return { decision: 'deny', ...reason, evaluationError: 'webhook subject access review returned both allow and deny response' };
  }
  const decision = status.denied === true ? 'deny' : status.allowed === true ? 'allow' : 'no-opinion';
  return { decision, ...reason, ...(evaluationError !== undefined ? { evaluationError } : {}) };
}

/** Why a webhook call failed, and whether trying again may help. */
interface CallFailure {
  readonly message: string;
  readonly retry: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The webhook authorizer. */
export function webhookAuthorizer(o: WebhookAuthorizerOptions): WebhookAuthorizer {
  const apiVersion = `${o.names.group('authorization')}/${o.version}`;
  const retry = o.retry ?? { attempts: 3, initialDelayMs: 100 };
  // Insertion order is recency order: a hit is moved to the end, the oldest entry is evicted first.
  const cache = new Map<string, { until: number; decision: AuthorizationDecision }>();

  /** One call: the review status, or why it failed and whether trying again may help. */
  const call = async (body: string): Promise<Result<ReviewStatus, CallFailure>> => {
    const res = await httpsRequest(o.connection.server, 'POST', {
      ...o.connection.target,
      timeoutMs: o.timeoutMs ?? 30_000,
      headers: { ...(o.connection.target.headers ?? {}), 'content-type': 'application/json', accept: 'application/json' },
    }, body);
    if (!res.ok) return fail({ message: res.error, retry: true });
    const { status } = res.value;
    if (status < 200 || status >= 300) return fail({ message: `webhook answered with status ${status}`, retry: retriedStatuses.has(status) });
    let answer: { status?: unknown };
    try {
      answer = JSON.parse(res.value.body.toString('utf8')) as typeof answer;
    } catch {
      return fail({ message: 'webhook answer is not a SubjectAccessReview', retry: false });
    }
    if (answer === null || typeof answer !== 'object') return fail({ message: 'webhook answer is not a SubjectAccessReview', retry: false });
    const s = answer.status;
    return ok(s !== null && typeof s === 'object' ? (s as ReviewStatus) : {});
  };

  const ask = async (spec: ReviewSpec): Promise<Result<ReviewStatus, CallFailure>> => {
    const body = JSON.stringify({ apiVersion, kind: 'SubjectAccessReview', spec });
    let delay = retry.initialDelayMs;
    for (let attempt = 1; ; attempt++) {
      const r = await call(body);
      if (r.ok || !r.error.retry || attempt >= retry.attempts) return r;
      await sleep(delay);
      delay *= 2;
    }
  };

  return {
    name: 'Webhook',
    async authorize(attributes) {
      const spec = subjectAccessReviewSpec(attributes, o.version);
      const key = JSON.stringify(spec);
      const now = Date.now();
      const hit = cache.get(key);
      if (hit !== undefined) {
        cache.delete(key);
        if (hit.until > now) {
          cache.set(key, hit);
          return hit.decision;
        }
      }
      const answer = await ask(spec);
      if (!answer.ok) {
        o.log?.(`authorization webhook failed: ${answer.error.message}`);
        return { decision: 'no-opinion', evaluationError: `authorization webhook failed: ${answer.error.message}` };
      }
      const decision = decisionOf(answer.value);
      const ttl = answer.value.allowed === true ? o.authorizedTtlMs : o.unauthorizedTtlMs;
      if (ttl > 0) {
        cache.set(key, { until: now + ttl, decision });
        if (cache.size > maxCacheEntries) cache.delete(cache.keys().next().value!);
      }
      return decision;
    },
    cacheSize: () => cache.size,
  };
}
