/**
 * The work of a write (kube 1.27's mutatingWorkEstimator): one seat while it executes, and the watch notifications
 * it causes after. Each watch interested in the write is taken to keep 1/10 of a seat for 5 ms; from 10 watches on,
 * the write keeps ceil(watches / 10) seats for 5 ms after it finished. Past the level's cap the seats are capped
 * and the time stretched, so the seat-time stays the same. Creating a service account token changes nothing
 * watched, so it costs one seat alone.
 */
import type { RequestInfo } from '../request/request-info.js';
import { minimumWork, workEstimatorConfig, type WorkEstimate } from './work-estimate.js';

/** Whether a write notifies no watch whatever watches its resource (a service account token request). */
export function isExemptFromWatchEvents(info: RequestInfo): boolean {
  return info.resource === 'serviceaccounts' && info.subresource === 'token';
}

/** The work of a write that is not exempt, given the number of watches interested in it and the most seats it may get. */
export function estimateMutatingWork(watchCount: number, maxSeats: number): WorkEstimate {
  if (watchCount < workEstimatorConfig.watchesPerSeat) return minimumWork;
  const seats = Math.ceil(watchCount / workEstimatorConfig.watchesPerSeat);
  const finalWorkMs = seats * workEstimatorConfig.eventAdditionalDurationMs;
  const finalSeats = Math.min(seats, maxSeats);
  return { initialSeats: workEstimatorConfig.minimumSeats, finalSeats, additionalLatencyMs: finalWorkMs / finalSeats };
}
