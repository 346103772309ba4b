/**
 * Webhook token authentication (`--authentication-token-webhook-config-file`, kube's webhook token
 * authenticator, document 2 §Webhook token authentication): the token is POSTed to a remote service as a
 * TokenReview (`v1beta1` or `v1` of the authentication group) with the wanted audiences; its answer is cached
 * for the TTL (successes and denials; transport failures and answers with `status.error` are not cached).
 */
import { createHash } from 'node:crypto';
import type { Names } from '@svc-apiserver/api';
import type { AuthenticationResult, TokenAuthenticator } from './authenticator.js';
import { intersectAudiences } from './authenticator.js';
import { httpsRequest } from '../../outbound/https-request.js';
import type { WebhookConnection } from '../../outbound/webhook-connection.js';

/** Options of {@link webhookTokenAuthenticator}. */
export interface WebhookTokenOptions {
  readonly names: Names;
  readonly connection: WebhookConnection;
  /** `v1beta1` (default) or `v1`. */
  readonly version: 'v1' | 'v1beta1';
  /** Cache time of answers in ms (default 2 minutes); 0 disables the cache. */
  readonly cacheTtlMs: number;
  /** The API server's audiences, sent when the caller asks for none. */
  readonly apiAudiences: readonly string[];
  readonly timeoutMs?: number;
  readonly log?: (message: string) => void;
}

interface TokenReviewStatus {
  authenticated?: unknown;
  user?: { username?: unknown; uid?: unknown; groups?: unknown; extra?: unknown };
  audiences?: unknown;
  error?: unknown;
}

/** Parses `--authentication-token-webhook-version` (also accepting the group-qualified form). */
export function parseWebhookVersion(value: string): 'v1' | 'v1beta1' | undefined {
  const v = value.replace(/^authentication\.[a-z0-9.]+\//, '');
  return v === 'v1' || v === 'v1beta1' ? v : undefined;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The webhook token authenticator. */
export function webhookTokenAuthenticator(o: WebhookTokenOptions): TokenAuthenticator {
  const apiVersion = `${o.names.group('authentication')}/${o.version}`;
  const cache = new Map<string, { until: number; result: AuthenticationResult }>();
  const sweep = (now: number): void => {
    if (cache.size < 4096) return;
    for (const [k, v] of cache) if (v.until <= now) cache.delete(k);
  };

  const ask = async (token: string, wanted: readonly string[]): Promise<{ result: AuthenticationResult; cacheable: boolean }> => {
    const review = {
      apiVersion,
      kind: 'TokenReview',
      spec: { token, ...(wanted.length > 0 ? { audiences: [...wanted] } : {}) },
    };
    const res = await httpsRequest(o.connection.server, 'POST', {
      ...o.connection.target,
      timeoutMs: o.timeoutMs ?? 10_000,
      headers: { ...(o.connection.target.headers ?? {}), 'content-type': 'application/json', accept: 'application/json' },
    }, JSON.stringify(review));
    if (!res.ok) {
      o.log?.(`token webhook failed: ${res.error}`);
      return { result: { kind: 'error', message: 'token webhook could not be reached' }, cacheable: false };
    }
    if (res.value.status < 200 || res.value.status >= 300) {
      o.log?.(`token webhook answered with status ${res.value.status}`);
      return { result: { kind: 'error', message: `token webhook answered with status ${res.value.status}` }, cacheable: false };
    }
    let answer: { apiVersion?: unknown; kind?: unknown; status?: TokenReviewStatus };
    try {
      answer = JSON.parse(res.value.body.toString('utf8')) as typeof answer;
    } catch {
      return { result: { kind: 'error', message: 'token webhook answer is not a TokenReview' }, cacheable: false };
    }
    const status = answer?.status ?? {};
    if (status.authenticated !== true) {
      // status.error is the webhook's reason: shown in a TokenReview's status.error, never in a 401.
      if (typeof status.error === 'string' && status.error !== '') return { result: { kind: 'error', message: status.error }, cacheable: false };
      return { result: { kind: 'none' }, cacheable: true };
    }
    const username = status.user?.username;
    if (typeof username !== 'string' || username === '') {
      return { result: { kind: 'error', message: 'token webhook authenticated a token without a username' }, cacheable: false };
    }
    let audiences: string[] = [];
    if (wanted.length > 0) {
      // No audiences in the answer means valid for the API server itself.
      const got = strings(status.audiences);
      audiences = intersectAudiences(wanted, got.length > 0 ? got : o.apiAudiences);
      if (audiences.length === 0) return { result: { kind: 'none' }, cacheable: true };
    }
    const extra: Record<string, string[]> = {};
    const rawExtra = status.user?.extra;
    if (rawExtra !== null && typeof rawExtra === 'object') {
      for (const [k, v] of Object.entries(rawExtra as Record<string, unknown>)) extra[k] = strings(v);
    }
    const uid = status.user?.uid;
    return {
      cacheable: true,
      result: {
        kind: 'user',
        method: 'webhook',
        audiences,
        user: {
          username,
          ...(typeof uid === 'string' && uid !== '' ? { uid } : {}),
          groups: strings(status.user?.groups),
          ...(Object.keys(extra).length > 0 ? { extra } : {}),
        },
      },
    };
  };

  return {
    name: 'webhook',
    async authenticateToken(token, audiences) {
      const wanted = audiences ?? o.apiAudiences;
      // Keyed by a hash: the cache never holds a token itself.
      const key = createHash('sha256').update(JSON.stringify([token, wanted])).digest('base64');
      const now = Date.now();
      const hit = cache.get(key);
      if (hit !== undefined && hit.until > now) return hit.result;
      const { result, cacheable } = await ask(token, wanted);
      if (cacheable && o.cacheTtlMs > 0) {
        sweep(now);
        cache.set(key, { until: now + o.cacheTtlMs, result });
      }
      return result;
    },
  };
}
