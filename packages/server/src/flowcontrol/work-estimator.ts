/**
 * The work estimator of API Priority and Fairness (kube 1.27's NewWorkEstimator): a list costs by the objects it
 * processes (`list-work-estimator.ts`), a create, update, patch or delete by the watches it notifies
 * (`mutating-work-estimator.ts`), every other request — gets, watches, deletecollection, non-resource requests —
 * one seat.
 */
import type { RequestInfo } from '../request/request-info.js';
import { estimateListWork } from './list-work-estimator.js';
import { estimateMutatingWork, isExemptFromWatchEvents } from './mutating-work-estimator.js';
import { groupResourceKey, type ObjectCountTracker } from './object-count-tracker.js';
import type { WatchTracker } from './watch-tracker.js';
import { minimumWork, seatCap, type WorkEstimate } from './work-estimate.js';

/** A request as the estimator reads it. */
export interface WorkRequest {
  readonly info: RequestInfo;
  readonly query: URLSearchParams;
  /** The query's `limit` as list options convert it (0 when absent); undefined when the options do not convert. */
  readonly limit: number | undefined;
}

/** What the estimator reads besides the request. */
export interface WorkEstimatorSources {
  readonly objectCounts: ObjectCountTracker;
  readonly watches: WatchTracker;
  /** Whether the APIListChunking gate is on. */
  readonly listChunking: boolean;
  /** Told the watch count a write was estimated with (kube's watch_count_samples). */
  readonly watchCountSampled?: (count: number) => void;
}

const mutatingVerbs: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete']);

/** The work of `request` at a level whose cap is `levelMaxSeats` (0: none). */
export function estimateWork(sources: WorkEstimatorSources, request: WorkRequest, levelMaxSeats: number): WorkEstimate {
  const { info } = request;
  if (info.verb === 'list') {
    const count = sources.objectCounts.get(groupResourceKey(info.apiGroup, info.resource));
    return estimateListWork({ ...request, count, maxSeats: seatCap(levelMaxSeats), listChunking: sources.listChunking });
  }
  if (!mutatingVerbs.has(info.verb)) return minimumWork;
  if (isExemptFromWatchEvents(info)) return minimumWork;
  const watchCount = sources.watches.interestedWatchCount(info);
  sources.watchCountSampled?.(watchCount);
  return estimateMutatingWork(watchCount, seatCap(levelMaxSeats));
}
