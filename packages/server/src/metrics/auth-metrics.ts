/**
 * Authentication and authorization metrics with kube-apiserver's names, help, labels and buckets:
 * `authentication_attempts`, `authentication_duration_seconds` and `authenticated_user_requests`
 * (k8s.io/apiserver/pkg/endpoints/filters/metrics.go, 1.27), and `apiserver_authorization_decisions_total`, the
 * counter of each authorizer's allow and deny decisions that kube-apiserver serves from 1.29 on (1.27 counts no
 * authorization decisions; this server counts them under the later name rather than under one of its own).
 */
import { exponentialBuckets } from './endpoint-metrics.js';
import { metricSet, type Counter, type Histogram } from './metrics-registry.js';

/** How an authentication attempt ended, as kube labels it. */
export type AuthenticationResult = 'success' | 'failure' | 'error';

/** The authentication and authorization metrics of one registry. */
export interface AuthMetrics {
  readonly attempts: Counter;
  readonly duration: Histogram;
  readonly userRequests: Counter;
  readonly decisions: Counter;
  /** One authentication (recordAuthMetrics): its result, its time, and for a success the user's category. */
  observeAuthentication(result: AuthenticationResult, seconds: number, username?: string): void;
  /** One allow or deny of an authorizer (a no-opinion is not counted). */
  observeDecision(type: string, name: string, allowed: boolean): void;
}

/**
 * The user label of `authenticated_user_requests` (compressUsername): a few well-known identities by name, and
 * every other user as `email_id` or `other`, so the metric neither grows with the users nor names them.
 */
export function compressUsername(username: string): string {
  if (['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default'].includes(username)) return username;
  return username.includes('@') ? 'email_id' : 'other';
}

/** The metrics of a registry (the server's by default), declared on first use. */
export const authMetrics = metricSet((registry): AuthMetrics => {
  const attempts = registry.counter('authentication_attempts', 'Counter of authenticated attempts.', ['result'], 'ALPHA');
  const duration = registry.histogram('authentication_duration_seconds', 'Authentication duration in seconds broken out by result.',
    ['result'], exponentialBuckets(0.001, 2, 15), 'ALPHA');
  const userRequests = registry.counter('authenticated_user_requests', 'Counter of authenticated requests broken out by username.', ['username'], 'ALPHA');
  const decisions = registry.counter('apiserver_authorization_decisions_total',
    'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.', ['type', 'name', 'decision'], 'ALPHA');
  // Every request is counted here, refused ones too: the series of each result and user label are found once.
  const resultSeries = new Map<AuthenticationResult, {
    readonly attempts: ReturnType<typeof attempts.with>; readonly duration: ReturnType<typeof duration.with>;
  }>();
  const userSeries = new Map<string, ReturnType<typeof userRequests.with>>();
  return {
    attempts, duration, userRequests, decisions,
    observeAuthentication(result, seconds, username) {
      if (result === 'success' && username !== undefined) {
        const name = compressUsername(username);
        let users = userSeries.get(name);
        if (users === undefined) userSeries.set(name, (users = userRequests.with({ username: name })));
        users.inc();
      }
      let series = resultSeries.get(result);
      if (series === undefined) resultSeries.set(result, (series = { attempts: attempts.with({ result }), duration: duration.with({ result }) }));
      series.attempts.inc();
      series.duration.observe(seconds);
    },
    observeDecision: (type, name, allowed) => decisions.inc({ type, name, decision: allowed ? 'allowed' : 'denied' }),
  };
});
