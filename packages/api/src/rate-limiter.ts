/**
 * Rate limiters of the work queue (client-go's workqueue.RateLimiter): how long a key waits before it is queued again
 * after a failed sync. Hand-written: the npm retry libraries (cockatiel, p-retry) retry one call, they keep no
 * per-key failure count for a queue to consult and reset.
 */

/** client-go's RateLimiter: `when` answers the delay of the key's next retry and counts it; `forget` resets the key. */
export interface RateLimiter {
  when(key: string): number;
  forget(key: string): void;
  /** How many times the key has failed since it was last forgotten. */
  numRequeues(key: string): number;
}

/**
 * client-go's ItemExponentialFailureRateLimiter: `baseMs × 2^failures`, never more than `maxMs`, counted per key.
 */
export function itemExponentialFailureRateLimiter(baseMs: number, maxMs: number): RateLimiter {
  const failures = new Map<string, number>();
  return {
    when(key) {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      // 2^n overflows to Infinity long before the cap matters; min() keeps the answer finite.
      return Math.min(baseMs * 2 ** n, maxMs);
    },
    forget: (key) => void failures.delete(key),
    numRequeues: (key) => failures.get(key) ?? 0,
  };
}

/**
 * client-go's BucketRateLimiter over golang.org/x/time/rate: a token bucket of `burst` tokens refilled at `qps` per
 * second, shared by every key; each retry reserves a token and waits until it is there. It bounds the retries of
 * the whole queue when many keys fail at once; it counts no failures.
 */
export function bucketRateLimiter(qps: number, burst: number, now: () => number = Date.now): RateLimiter {
  let tokens = burst;
  let last = now();
  return {
    when() {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - last) / 1000) * qps);
      last = t;
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens / qps) * 1000;
    },
    forget() {},
    numRequeues: () => 0,
  };
}

/** client-go's MaxOfRateLimiter: the longest delay any of `limiters` answers; the requeue count is their largest. */
export function maxOfRateLimiter(...limiters: readonly RateLimiter[]): RateLimiter {
  return {
    when: (key) => Math.max(0, ...limiters.map((l) => l.when(key))),
    forget(key) {
      for (const l of limiters) l.forget(key);
    },
    numRequeues: (key) => Math.max(0, ...limiters.map((l) => l.numRequeues(key))),
  };
}

/** The back-off bounds of {@link controllerRateLimiter}. */
export interface Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** client-go's DefaultControllerRateLimiter bounds: 5 ms doubling up to 1000 s. */
export const defaultBackoff: Backoff = { baseMs: 5, maxMs: 1_000_000 };

/**
 * client-go's DefaultControllerRateLimiter: per-key exponential back-off (default 5 ms to 1000 s) and an overall
 * bucket of 10 retries a second with a burst of 100, whichever waits longer.
 */
export function controllerRateLimiter(backoff: Backoff = defaultBackoff): RateLimiter {
  return maxOfRateLimiter(itemExponentialFailureRateLimiter(backoff.baseMs, backoff.maxMs), bucketRateLimiter(10, 100));
}
