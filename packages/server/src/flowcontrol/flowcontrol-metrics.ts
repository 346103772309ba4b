/**
 * The API Priority and Fairness metrics of kube-apiserver 1.27 (k8s.io/apiserver/pkg/util/flowcontrol/metrics),
 * declared in the server's registry with kube's names, labels and buckets: requests dispatched, rejected, waiting
 * and executing; the seats in use and the work estimated; and each level's limits and seat demand as the borrowing
 * adjustment sets them.
 */
import { metricSet, type Counter, type Gauge, type Histogram } from '../metrics/metrics-registry.js';

/** kube's buckets of the wait and execution histograms, in seconds. */
export const flowcontrolDurationBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30] as const;

/** The flow control metrics. */
export interface FlowcontrolMetrics {
  readonly dispatched: Counter;
  readonly rejected: Counter;
  readonly inQueue: Gauge;
  readonly executing: Gauge;
  readonly waitDuration: Histogram;
  readonly executionDuration: Histogram;
  /** Seats occupied by executing requests, by level and FlowSchema. */
  readonly concurrencyInUse: Gauge;
  readonly queueLengthAfterEnqueue: Histogram;
  readonly workEstimatedSeats: Histogram;
  readonly watchCountSamples: Histogram;
  readonly dispatchNoAccommodation: Counter;
  /** The nominal limit under its older name, which kube still serves beside `nominalLimitSeats`. */
  readonly concurrencyLimit: Gauge;
  readonly nominalLimitSeats: Gauge;
  readonly lowerLimitSeats: Gauge;
  readonly upperLimitSeats: Gauge;
  readonly currentLimitSeats: Gauge;
  readonly demandHighWatermark: Gauge;
  readonly demandAverage: Gauge;
  readonly demandStdev: Gauge;
  readonly demandSmoothed: Gauge;
  readonly targetSeats: Gauge;
  readonly seatFairFrac: Gauge;
}

/** The flow control metrics of a registry (the server's by default), declared on first use. */
export const flowcontrolMetrics = metricSet((registry): FlowcontrolMetrics => {
  const plFs = ['priority_level', 'flow_schema'];
  const pl = ['priority_level'];
  const gauge = (name: string, help: string, labels: readonly string[] = pl): Gauge => registry.gauge(`apiserver_flowcontrol_${name}`, help, labels, 'ALPHA');
  return {
    dispatched: registry.counter('apiserver_flowcontrol_dispatched_requests_total', 'Number of requests executed by API Priority and Fairness subsystem', plFs, 'ALPHA'),
    rejected: registry.counter('apiserver_flowcontrol_rejected_requests_total', 'Number of requests rejected by API Priority and Fairness subsystem', [...plFs, 'reason'], 'ALPHA'),
    inQueue: gauge('current_inqueue_requests', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', plFs),
    executing: gauge('current_executing_requests', 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', plFs),
    waitDuration: registry.histogram('apiserver_flowcontrol_request_wait_duration_seconds', 'Length of time a request spent waiting in its queue', [...plFs, 'execute'], flowcontrolDurationBuckets, 'ALPHA'),
    executionDuration: registry.histogram('apiserver_flowcontrol_request_execution_seconds', 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem', [...plFs, 'type'], flowcontrolDurationBuckets, 'ALPHA'),
    concurrencyInUse: gauge('request_concurrency_in_use', 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem', plFs),
    queueLengthAfterEnqueue: registry.histogram('apiserver_flowcontrol_request_queue_length_after_enqueue', 'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued', plFs, [0, 10, 25, 50, 100, 250, 500, 1000], 'ALPHA'),
    workEstimatedSeats: registry.histogram('apiserver_flowcontrol_work_estimated_seats', 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness', plFs, [1, 2, 4, 10], 'ALPHA'),
    watchCountSamples: registry.histogram('apiserver_flowcontrol_watch_count_samples', 'count of watchers for mutating requests in API Priority and Fairness', plFs, [0, 1, 10, 100, 1000, 10000], 'ALPHA'),
    dispatchNoAccommodation: registry.counter('apiserver_flowcontrol_request_dispatch_no_accommodation_total', 'Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats', plFs, 'ALPHA'),
    concurrencyLimit: gauge('request_concurrency_limit', 'Shared concurrency limit in the API Priority and Fairness subsystem'),
    nominalLimitSeats: gauge('nominal_limit_seats', 'Nominal number of execution seats configured for each priority level'),
    lowerLimitSeats: gauge('lower_limit_seats', 'Configured lower bound on number of execution seats available to each priority level'),
    upperLimitSeats: gauge('upper_limit_seats', 'Configured upper bound on number of execution seats available to each priority level'),
    currentLimitSeats: gauge('current_limit_seats', 'current derived number of execution seats available to each priority level'),
    demandHighWatermark: gauge('demand_seats_high_watermark', 'High watermark, over last adjustment period, of demand_seats'),
    demandAverage: gauge('demand_seats_average', 'Time-weighted average, over last adjustment period, of demand_seats'),
    demandStdev: gauge('demand_seats_stdev', 'Time-weighted standard deviation, over last adjustment period, of demand_seats'),
    demandSmoothed: gauge('demand_seats_smoothed', 'Smoothed seat demands'),
    targetSeats: gauge('target_seats', 'Seat allocation targets'),
    seatFairFrac: gauge('seat_fair_frac', "Fair fraction of server's concurrency to allocate to each priority level that can use it", []),
  };
});
