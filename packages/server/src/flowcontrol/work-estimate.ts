/**
 * The work of a request as API Priority and Fairness counts it (k8s.io/apiserver/pkg/util/flowcontrol/request's
 * WorkEstimate and its default configuration in 1.27): the seats it occupies while it executes, the seats it keeps
 * after it finished — the watch notifications its change causes — and for how long.
 */

/** A request's estimated work. */
export interface WorkEstimate {
  /** Seats occupied while the request executes. */
  readonly initialSeats: number;
  /** Seats still occupied after it finished, for `additionalLatencyMs` (the watch notifications of a write). */
  readonly finalSeats: number;
  /** How long the final seats stay taken; the client does not wait for it. */
  readonly additionalLatencyMs: number;
}

/** The most seats a request occupies over its phases. */
export function maxSeatsOf(estimate: WorkEstimate): number {
  return Math.max(estimate.initialSeats, estimate.finalSeats);
}

/** kube 1.27's DefaultWorkEstimatorConfig. */
export const workEstimatorConfig = {
  /** The seats of every request at least. */
  minimumSeats: 1,
  /** The most seats any request is given (the buckets of work_estimated_seats end there). */
  maximumSeatsLimit: 10,
  /** A list costs one seat for each this many objects it processes. */
  objectsPerSeat: 100,
  /** A write costs one final seat for each this many watches interested in it. */
  watchesPerSeat: 10,
  /** The time one watch notification is assumed to keep its seat. */
  eventAdditionalDurationMs: 5,
} as const;

/** The estimate of a request that costs the minimum: one seat while it executes, nothing after. */
export const minimumWork: WorkEstimate = { initialSeats: workEstimatorConfig.minimumSeats, finalSeats: 0, additionalLatencyMs: 0 };

/**
 * The most seats a request of a level may be given: the level's own cap (set from its nominal limit, 0 when it has
 * none) within the estimator's limit, as kube's estimators clamp it.
 */
export function seatCap(levelMaxSeats: number): number {
  return levelMaxSeats === 0 || levelMaxSeats > workEstimatorConfig.maximumSeatsLimit ? workEstimatorConfig.maximumSeatsLimit : levelMaxSeats;
}
