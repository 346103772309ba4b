/**
 * The time a request spent waiting on work that is not the server's own (kube's request.LatencyTrackers): what its
 * SLI latency (`apiserver_request_sli_duration_seconds`) leaves out, since webhooks are the cluster's configuration
 * and a flow control queue is the load of other clients.
 */

/** The waits of one request, added to as they happen. */
export interface LatencyTrackers {
  /** Seconds in admission webhooks: mutating calls one after another, each batch of validating calls as one. */
  webhookSeconds: number;
  /** Seconds waiting in an API Priority and Fairness queue. */
  apfQueueWaitSeconds: number;
}

/** Trackers at zero. */
export function createLatencyTrackers(): LatencyTrackers {
  return { webhookSeconds: 0, apfQueueWaitSeconds: 0 };
}
