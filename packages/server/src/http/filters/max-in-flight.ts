/**
 * The max-in-flight limit (k8s.io/apiserver's WithMaxInFlightLimit, kube-apiserver's filter while API Priority and
 * Fairness is off), after impersonation and before authorization: at most `--max-requests-inflight` read-only
 * requests (verbs get, list, watch) and `--max-mutating-requests-inflight` others are served at once. A request
 * that finds its pool full is answered at once with 429 TooManyRequests and `Retry-After: 1`, unless its user is in
 * `system:masters` (kube serves the super-user beyond the limit, so an administrator and the health checks it runs
 * always get an answer). Long-running requests (watches, exec, ...) are not counted. A limit of 0 turns its pool off.
 *
 * A request is in flight from the turn of the event loop it arrived in: admitted requests start in the turn
 * scheduler's slices, so a burst is counted against the limit, its excess refused before any of it is served, and
 * what is admitted cannot hold the loop while new connections wait. `system:masters` requests start at once, as
 * kube's priority and fairness exempts them from queueing.
 */
import { failure, type Status } from '@svc-apiserver/api';
import { systemPrivilegedGroup } from '../../auth/authz/privileged-groups.js';
import type { Filter, RequestContext } from '../context.js';
import { isLongRunning } from '../long-running.js';
import { createTurnScheduler, type TurnScheduler } from '../turn-scheduler.js';
import { prepareStatus, writePreparedStatus } from '../response-writer.js';

/** kube-apiserver's default of `--max-requests-inflight`. */
export const defaultMaxRequestsInFlight = 400;
/** kube-apiserver's default of `--max-mutating-requests-inflight`. */
export const defaultMaxMutatingRequestsInFlight = 200;

/** Options of the max-in-flight filter. */
export interface MaxInFlightOptions {
  /** `--max-requests-inflight`: read-only requests served at once (0: no limit). */
  readonly maxRequestsInFlight: number;
  /** `--max-mutating-requests-inflight`: mutating requests served at once (0: no limit). */
  readonly maxMutatingRequestsInFlight: number;
  /** Counts each request refused with 429 (the request metrics). */
  readonly onDropped?: (ctx: RequestContext) => void;
  /** Where admitted requests start (the server's deferred lane; default: a scheduler of their own). */
  readonly scheduler?: TurnScheduler;
}

/** The requests served at once, per pool (tests, metrics). */
export interface InFlightCounts {
  readonly readOnly: number;
  readonly mutating: number;
}

/** The max-in-flight filter and its current counts. */
export interface MaxInFlight {
  readonly filter: Filter;
  inFlight(): InFlightCounts;
}

/** kube's read-only verbs; everything else, including the lowercase methods of non-resource requests but GET, mutates. */
const nonMutatingVerbs: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

/** The answer of a full pool, as kube-apiserver words it, with the second it asks clients to wait. */
export function tooManyRequests(): Status {
  return failure('TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });
}

interface Pool {
  readonly limit: number;
  count: number;
}

/** Creates the filter. */
export function maxInFlight(options: MaxInFlightOptions): MaxInFlight {
  const readOnly: Pool = { limit: options.maxRequestsInFlight, count: 0 };
  const mutating: Pool = { limit: options.maxMutatingRequestsInFlight, count: 0 };
  const scheduler = options.scheduler ?? createTurnScheduler();
  // One answer for every refusal: a flood is refused at the cost of writing it, not of making it.
  const refusal = prepareStatus(tooManyRequests());
  const filter: Filter = async (ctx, next) => {
    const pool = nonMutatingVerbs.has(ctx.info.verb) ? readOnly : mutating;
    if (pool.limit === 0 || isLongRunning(ctx.info)) return next();
    const privileged = ctx.user.groups.includes(systemPrivilegedGroup);
    if (pool.count >= pool.limit) {
      if (privileged) return next();
      writePreparedStatus(ctx, refusal);
      options.onDropped?.(ctx);
      return;
    }
    pool.count++;
    try {
      await (privileged ? next() : scheduler.run(next));
    } finally {
      pool.count--;
    }
  };
  return { filter, inFlight: () => ({ readOnly: readOnly.count, mutating: mutating.count }) };
}
