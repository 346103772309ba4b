/**
 * When a request is sent again, after the delay of `Retry-After` when the server sent one, else an exponential
 * back-off with jitter:
 * - reads (GET, HEAD) on a 429, a 5xx (not 501) or a connection that failed before any answer, as client-go does;
 * - writes only on a 429, which kube-apiserver sends before doing any work (max-in-flight, priority and fairness).
 *   client-go also re-sends writes on a 5xx with `Retry-After`, but a 500 or 504 may come after the write was
 *   stored, and sending it again would apply it twice; a caller that knows its write is idempotent retries itself.
 */

/** How often and how patiently to retry. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 5; 0 turns retries off. */
  readonly maxRetries?: number;
  /** First back-off delay in ms, doubled per retry. Default 200. */
  readonly baseDelayMs?: number;
  /** Longest delay in ms, for back-off and for `Retry-After` alike. Default 10 000. */
  readonly maxDelayMs?: number;
}

/** What came back from one attempt: an HTTP status and headers, or no answer (`status` 0). */
export interface AttemptOutcome {
  readonly method: string;
  readonly status: number;
  readonly retryAfter?: string | undefined;
}

/** Parses `Retry-After` (delta-seconds or an HTTP date) into ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The delay before retry number `attempt` (1-based), or undefined when the outcome is final. */
export function retryDelay(outcome: AttemptOutcome, attempt: number, options: RetryOptions = {}): number | undefined {
  const maxRetries = options.maxRetries ?? 5;
  if (attempt > maxRetries) return undefined;
  const { status } = outcome;
  const retryable = status === 0 || status === 429 || (status >= 500 && status !== 501);
  if (!retryable) return undefined;
  const maxDelay = options.maxDelayMs ?? 10_000;
  const read = outcome.method === 'GET' || outcome.method === 'HEAD';
  if (!read && status !== 429) return undefined;
  const asked = status === 0 ? undefined : retryAfterMs(outcome.retryAfter);
  if (asked !== undefined) return Math.min(asked, maxDelay);
  const base = (options.baseDelayMs ?? 200) * 2 ** (attempt - 1);
  return Math.min(base * (1 + Math.random() * 0.1), maxDelay);
}
