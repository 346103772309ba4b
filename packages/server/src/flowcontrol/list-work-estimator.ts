/**
 * The work of a list (kube 1.27's listWorkEstimator): one seat for each 100 objects the list is expected to
 * process, between one seat and the level's cap. A list served from the watch cache processes every stored object
 * of its resource; one served from storage reads twice its page (the page and the look-ahead for the continue
 * token), or the whole collection plus the page when it filters by selector. A list naming one object costs one
 * seat. An unknown count (a resource served by an extension server, or a new custom resource) costs one seat, a
 * stale one (the store cannot be counted) the cap; so does a query that is not valid list options.
 */
import type { RequestInfo } from '../request/request-info.js';
import type { ObjectCount } from './object-count-tracker.js';
import { workEstimatorConfig, type WorkEstimate } from './work-estimate.js';

/** The list options the estimator reads. */
interface ListOptions {
  readonly resourceVersion: string;
  readonly resourceVersionMatch: string;
  readonly continue: string;
  readonly limit: number;
  readonly selected: boolean;
}

/** Whether kube 1.27 serves this list from storage rather than from the watch cache (its cacher's shouldDelegateList). */
function listsFromStorage(o: ListOptions, listChunking: boolean): boolean {
  const hasContinuation = listChunking && o.continue !== '';
  const hasLimit = listChunking && o.limit > 0 && o.resourceVersion !== '0';
  const unsupportedMatch = o.resourceVersionMatch !== '' && o.resourceVersionMatch !== 'NotOlderThan';
  return o.resourceVersion === '' || hasContinuation || hasLimit || unsupportedMatch;
}

/** What the list estimator reads. */
export interface ListEstimatorInput {
  readonly info: RequestInfo;
  readonly query: URLSearchParams;
  /** The query's `limit` as the list options convert it (0 when absent); undefined when the options do not convert. */
  readonly limit: number | undefined;
  /** The stored count of the listed resource. */
  readonly count: ObjectCount;
  /** The most seats the request may get (the level's cap within the estimator's limit). */
  readonly maxSeats: number;
  /** Whether the APIListChunking gate is on (limit and continue are honoured). */
  readonly listChunking: boolean;
}

/** The work of a list. */
export function estimateListWork(input: ListEstimatorInput): WorkEstimate {
  const { maxSeats } = input;
  const minSeats = workEstimatorConfig.minimumSeats;
  const seats = (n: number): WorkEstimate => ({ initialSeats: n, finalSeats: 0, additionalLatencyMs: 0 });
  // A list of one named object is a get in storage.
  if (input.info.name !== '') return seats(minSeats);
  if (input.limit === undefined) return seats(maxSeats);
  const q = input.query;
  const o: ListOptions = {
    resourceVersion: q.get('resourceVersion') ?? '',
    resourceVersionMatch: q.get('resourceVersionMatch') ?? '',
    continue: q.get('continue') ?? '',
    limit: input.limit,
    selected: (q.get('fieldSelector') ?? '') !== '' || (q.get('labelSelector') ?? '') !== '',
  };
  const count = input.count;
  if (count.kind === 'stale') return seats(maxSeats);
  if (count.kind === 'unknown') return seats(minSeats);
  const stored = count.count;
  const limit = input.listChunking && o.limit > 0 && o.limit < stored ? o.limit : stored;
  const processed = !listsFromStorage(o, input.listChunking) ? stored : o.selected ? stored + limit : 2 * limit;
  return seats(Math.min(maxSeats, Math.max(minSeats, Math.ceil(processed / workEstimatorConfig.objectsPerSeat))));
}
