/**
 * The request metrics of kube-apiserver 1.27 (k8s.io/apiserver/pkg/endpoints/metrics), declared in a metrics
 * registry with kube's names, help, labels, buckets and stability classes: requests by verb and code, their
 * latency with and without the time webhooks and flow control queues took, response sizes of reads, the requests in
 * flight and the long-running ones, watch events, and the requests the server ended itself (429, 504).
 */
import { metricSet, type Counter, type Gauge, type Histogram } from './metrics-registry.js';

/** kube's buckets of request and etcd latencies, in seconds. */
export const requestLatencyBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60] as const;

/** kube's buckets of the SLI/SLO latencies (no bucket under 50 ms). */
const sliLatencyBuckets = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/** Prometheus' ExponentialBuckets(start, factor, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

/** The labels of a request in every request metric but `apiserver_request_total` (which adds `dry_run` and `code`). */
export const requestLabels = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

/** The request metrics of one registry. */
export interface EndpointMetrics {
  /** `apiserver_request_total` (STABLE): verb, dry_run, group, version, resource, subresource, scope, component, code. */
  readonly requests: Counter;
  /** `apiserver_request_duration_seconds` (STABLE): verb, dry_run, group, version, resource, subresource, scope, component. */
  readonly duration: Histogram;
  /** `apiserver_request_slo_duration_seconds` (ALPHA, deprecated from 1.27): the SLI under its old name. */
  readonly sloDuration: Histogram;
  /** `apiserver_request_sli_duration_seconds` (ALPHA): latency without webhooks and flow control queueing. */
  readonly sliDuration: Histogram;
  /** `apiserver_response_sizes` (STABLE): bytes of GET and LIST answers. */
  readonly responseSizes: Histogram;
  /** `apiserver_longrunning_requests` (STABLE): watches and connections open now. */
  readonly longRunning: Gauge;
  /** `apiserver_current_inflight_requests` (STABLE): the most requests executing at once in the last second, by kind. */
  readonly inflight: Gauge;
  /** A request of `kind` starts (1) or ends (-1) executing: the in-flight watermark follows. */
  executing(kind: RequestKind, delta: 1 | -1): void;
  /** `apiserver_request_terminations_total` (ALPHA): requests the server ended in self-defense (429, 504). */
  readonly terminations: Counter;
  /** `apiserver_watch_events_total` (ALPHA): events sent to watchers, by group, version and kind. */
  readonly watchEvents: Counter;
  /** `apiserver_watch_events_sizes` (ALPHA): bytes of those events. */
  readonly watchEventSizes: Histogram;
}

/** The kinds of the in-flight gauge: get, list and watch requests are read-only, all others mutating. */
export type RequestKind = 'readOnly' | 'mutating';

const windowMs = 1000;

/**
 * kube's requestWatermark: the requests executing now, and the most at once in the current and the last one-second
 * window. kube's filter moves the watermark to the gauge every second; here the gauge reads it at each scrape, as
 * the most of the last two windows.
 */
class Watermark {
  private readonly now = { readOnly: 0, mutating: 0 };
  private readonly max = { readOnly: 0, mutating: 0 };
  private readonly previous = { readOnly: 0, mutating: 0 };
  private windowStart = performance.now();

  add(kind: RequestKind, delta: 1 | -1): void {
    this.roll();
    const n = (this.now[kind] += delta);
    if (n > this.max[kind]) this.max[kind] = n;
  }

  read(kind: RequestKind): number {
    this.roll();
    return Math.max(this.max[kind], this.previous[kind]);
  }

  private roll(): void {
    const at = performance.now();
    if (at - this.windowStart < windowMs) return;
    // A window that ended more than a window ago saw no change: its most is what was executing all along.
    const fresh = at - this.windowStart < 2 * windowMs;
    for (const kind of ['readOnly', 'mutating'] as const) {
      this.previous[kind] = fresh ? this.max[kind] : this.now[kind];
      this.max[kind] = this.now[kind];
    }
    this.windowStart = at;
  }
}

/** The request metrics of a registry (the server's by default), declared on first use. */
export const endpointMetrics = metricSet((registry): EndpointMetrics => {
  const labels = [...requestLabels];
  const [verb, ...rest] = labels;
  const gvk = ['group', 'version', 'kind'];
  const watermark = new Watermark();
  return {
    requests: registry.counter('apiserver_request_total',
      'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      [verb!, 'dry_run', ...rest, 'code'], 'STABLE'),
    duration: registry.histogram('apiserver_request_duration_seconds',
      'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      [verb!, 'dry_run', ...rest], requestLatencyBuckets, 'STABLE'),
    sloDuration: registry.histogram('apiserver_request_slo_duration_seconds',
      'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      labels, sliLatencyBuckets, 'ALPHA', { deprecatedVersion: '1.27' }),
    sliDuration: registry.histogram('apiserver_request_sli_duration_seconds',
      'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
      labels, sliLatencyBuckets, 'ALPHA'),
    responseSizes: registry.histogram('apiserver_response_sizes',
      'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      labels, exponentialBuckets(1000, 10, 7), 'STABLE'),
    longRunning: registry.gauge('apiserver_longrunning_requests',
      'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labels, 'STABLE'),
    inflight: registry.gauge('apiserver_current_inflight_requests',
      'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      ['request_kind'], 'STABLE', {
        collect(set) {
          for (const kind of ['readOnly', 'mutating'] as const) set({ request_kind: kind }, watermark.read(kind));
        },
      }),
    executing: (kind, delta) => watermark.add(kind, delta),
    terminations: registry.counter('apiserver_request_terminations_total',
      'Number of requests which apiserver terminated in self-defense.', [...labels, 'code'], 'ALPHA'),
    watchEvents: registry.counter('apiserver_watch_events_total', 'Number of events sent in watch clients', gvk, 'ALPHA'),
    watchEventSizes: registry.histogram('apiserver_watch_events_sizes', 'Watch event size distribution in bytes',
      gvk, exponentialBuckets(1024, 2, 8), 'ALPHA'),
  };
});
