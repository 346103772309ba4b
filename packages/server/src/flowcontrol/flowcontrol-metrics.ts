/**
 * The API Priority and Fairness metrics of kube-apiserver 1.27 (k8s.io/apiserver/pkg/util/flowcontrol/metrics),
 * declared in the server's registry with kube's names, labels and buckets.
 */
import { metricSet, type Counter, type Gauge, type Histogram } from '../metrics/metrics-registry.js';

/** kube's buckets of the wait and execution histograms, in seconds. */
export const flowcontrolDurationBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30] as const;

/** The flow control metrics. */
export interface FlowcontrolMetrics {
  readonly dispatched: Counter;
  readonly rejected: Counter;
  readonly inQueue: Gauge;
  readonly executing: Gauge;
  readonly waitDuration: Histogram;
  readonly executionDuration: Histogram;
  readonly nominalLimitSeats: Gauge;
  readonly concurrencyLimit: Gauge;
}

/** The flow control metrics of a registry (the server's by default), declared on first use. */
export const flowcontrolMetrics = metricSet((registry): FlowcontrolMetrics => {
  const fsPl = ['flow_schema', 'priority_level'];
  return {
    dispatched: registry.counter('apiserver_flowcontrol_dispatched_requests_total', 'Number of requests executed by API Priority and Fairness subsystem', fsPl, 'ALPHA'),
    rejected: registry.counter('apiserver_flowcontrol_rejected_requests_total', 'Number of requests rejected by API Priority and Fairness subsystem', [...fsPl, 'reason'], 'ALPHA'),
    inQueue: registry.gauge('apiserver_flowcontrol_current_inqueue_requests', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', ['priority_level', 'flow_schema'], 'ALPHA'),
    executing: registry.gauge('apiserver_flowcontrol_current_executing_requests', 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', ['priority_level', 'flow_schema'], 'ALPHA'),
    waitDuration: registry.histogram('apiserver_flowcontrol_request_wait_duration_seconds', 'Length of time a request spent waiting in its queue', [...fsPl, 'execute'], flowcontrolDurationBuckets, 'ALPHA'),
    executionDuration: registry.histogram('apiserver_flowcontrol_request_execution_seconds', 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem', [...fsPl, 'type'], flowcontrolDurationBuckets, 'ALPHA'),
    nominalLimitSeats: registry.gauge('apiserver_flowcontrol_nominal_limit_seats', 'Nominal number of execution seats configured for each priority level', ['priority_level'], 'ALPHA'),
    concurrencyLimit: registry.gauge('apiserver_flowcontrol_request_concurrency_limit', 'Shared concurrency limit in the API Priority and Fairness subsystem', ['priority_level'], 'ALPHA'),
  };
});
