/**
 * Request metrics (k8s.io/apiserver's InstrumentRouteFunc and MonitorRequest, with the in-flight watermark of its
 * max-in-flight filter): the last filter, so that what it counts is what kube-apiserver's instrumented routes count,
 * requests that passed authentication, flow control and authorization:
 *
 * - `apiserver_request_total`, `apiserver_request_duration_seconds` (from the request's arrival),
 *   `apiserver_request_sli_duration_seconds` (less the time in webhooks and flow control queues) and its deprecated
 *   `_slo_` twin, and `apiserver_response_sizes` of GET and LIST answers, for requests to served resources and to the
 *   health endpoints (component ""), with kube's verb (LIST, WATCH, APPLY, CONNECT, POST, ...), scope and dry_run
 *   labels; a request to a resource that is not served is not counted, so no label holds a name a client made up;
 * - `apiserver_longrunning_requests` while a watch or connection is open;
 * - `apiserver_current_inflight_requests`: the most requests executing at once (any request that is not
 *   long-running), read-only and mutating, over the last second.
 *
 * Requests the server refuses before serving them are counted where they are refused: 429s of flow control and the
 * max-in-flight limit (kube's RecordDroppedRequest), 504s of the request timeout (RecordRequestTermination).
 */
import type { RequestInfo } from '../../request/request-info.js';
import { endpointMetrics, type EndpointMetrics } from '../../metrics/endpoint-metrics.js';
import type { Filter, RequestContext } from '../context.js';
import { isLongRunning } from '../long-running.js';

/** The verbs kube reports; any other method is reported as `other` (validRequestMethods). */
const reportedVerbs: ReadonlySet<string> = new Set([
  'APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST',
]);
/** Subresources reported as CONNECT (validConnectRequests). */
const connectSubresources: ReadonlySet<string> = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
/** The non-resource paths kube instruments: the health endpoints (InstallPathHandler). */
const instrumentedPaths: ReadonlySet<string> = new Set(['/healthz', '/livez', '/readyz']);
/** kube's read-only verbs, whose requests are the `readOnly` kind of the in-flight gauge. */
const readOnlyVerbs: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

/** A request's scope as kube reports it (CleanScope): resource, namespace, cluster, or "" for non-resource paths. */
export function metricScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/** A request's verb as kube reports it (CanonicalVerb, CleanVerb, cleanVerb). */
export function metricVerb(ctx: Pick<RequestContext, 'method' | 'headers' | 'info'>, scope: string): string {
  const info = ctx.info;
  let verb = ctx.method === 'GET' || ctx.method === 'HEAD' ? (scope !== 'resource' && scope !== '' ? 'LIST' : 'GET') : ctx.method;
  if (info.verb === 'watch') verb = 'WATCH';
  else if (verb === 'PATCH' && ctx.headers['content-type'] === 'application/apply-patch+yaml') verb = 'APPLY';
  if (info.isResourceRequest && connectSubresources.has(info.subresource)) verb = 'CONNECT';
  return reportedVerbs.has(verb) ? verb : 'other';
}

/** The `dry_run` label (cleanDryRun): "" without the parameter, the sorted distinct values, or "invalid". */
export function metricDryRun(query: URLSearchParams): string {
  if (!query.has('dryRun')) return '';
  const values = query.getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

/** The labels every request metric shares. */
function requestLabelsOf(ctx: RequestContext): Record<string, string> {
  const info = ctx.info;
  const scope = metricScope(info);
  const resource = info.isResourceRequest;
  return {
    verb: metricVerb(ctx, scope),
    group: resource ? info.apiGroup : '',
    version: resource ? info.apiVersion : '',
    resource: resource ? info.resource : '',
    subresource: resource ? info.subresource : info.path,
    scope,
    component: resource ? 'apiserver' : '',
  };
}

type CounterSeries = ReturnType<EndpointMetrics['requests']['with']>;
type HistogramSeries = ReturnType<EndpointMetrics['duration']['with']>;

/**
 * The series of every request metric for one combination of the shared labels, found once: a request then
 * records through them without building a label object per metric (the combinations are few: served resources'
 * verbs and scopes, and the health endpoints).
 */
class RequestSeries {
  readonly sli: HistogramSeries;
  readonly slo: HistogramSeries;
  /** Only GET and LIST answers' sizes are observed. */
  readonly sizes: HistogramSeries | undefined;
  readonly longRunningLabels: Readonly<Record<string, string>>;
  private readonly requests = new Map<string, CounterSeries>();
  private readonly durations = new Map<string, HistogramSeries>();
  private readonly terminations = new Map<number, CounterSeries>();

  constructor(private readonly m: EndpointMetrics, private readonly labels: Readonly<Record<string, string>>) {
    this.sli = m.sliDuration.with(labels);
    this.slo = m.sloDuration.with(labels);
    this.sizes = labels['verb'] === 'GET' || labels['verb'] === 'LIST' ? m.responseSizes.with(labels) : undefined;
    this.longRunningLabels = labels;
  }

  /** `apiserver_request_total` of a dry-run label and a code. */
  counter(dryRun: string, code: number): CounterSeries {
    const key = `${dryRun}\u0000${code}`;
    let s = this.requests.get(key);
    if (s === undefined) {
      s = this.m.requests.with({ ...this.labels, dry_run: dryRun, code: String(code) });
      this.requests.set(key, s);
    }
    return s;
  }

  /** `apiserver_request_terminations_total` of a code. */
  termination(code: number): CounterSeries {
    let s = this.terminations.get(code);
    if (s === undefined) {
      s = this.m.terminations.with({ ...this.labels, code: String(code) });
      this.terminations.set(code, s);
    }
    return s;
  }

  /** `apiserver_request_duration_seconds` of a dry-run label. */
  duration(dryRun: string): HistogramSeries {
    let s = this.durations.get(dryRun);
    if (s === undefined) {
      s = this.m.duration.with({ ...this.labels, dry_run: dryRun });
      this.durations.set(dryRun, s);
    }
    return s;
  }
}

/** Options of the request metrics filter. */
export interface RequestMetricsOptions {
  /** Whether a resource request names a resource this server serves (kube instruments the routes it installed). */
  readonly served: (info: RequestInfo) => boolean;
  readonly metrics?: EndpointMetrics;
}

/** The request metrics filter, and what the filters that refuse requests before it call to count them. */
export interface RequestMetrics {
  readonly filter: Filter;
  /** Counts a request refused with 429 before it was served (RecordDroppedRequest and RecordRequestTermination). */
  dropped(ctx: RequestContext): void;
  /** Counts a request the server ended with `code` in self-defense (RecordRequestTermination: the timeout's 504). */
  terminated(ctx: RequestContext, code: number): void;
}

/** Creates the filter and its counters of refused requests. */
export function requestMetrics(options: RequestMetricsOptions): RequestMetrics {
  const m = options.metrics ?? endpointMetrics();
  /** Whether a request is counted at all: requests to served resources and the health endpoints. */
  const counted = (info: RequestInfo): boolean => (info.isResourceRequest ? options.served(info) : instrumentedPaths.has(info.path));
  const known = new Map<string, RequestSeries>();
  /** The series of a counted request's labels. */
  const seriesOf = (ctx: RequestContext): RequestSeries => {
    const labels = requestLabelsOf(ctx);
    const key = `${labels['verb']}\u0000${labels['group']}\u0000${labels['version']}\u0000${labels['resource']}\u0000${labels['subresource']}\u0000${labels['scope']}\u0000${labels['component']}`;
    let s = known.get(key);
    if (s === undefined) {
      s = new RequestSeries(m, labels);
      known.set(key, s);
    }
    return s;
  };
  const filter: Filter = async (ctx, next) => {
    const info = ctx.info;
    const series = counted(info) ? seriesOf(ctx) : undefined;
    if (isLongRunning(info)) {
      if (series === undefined) return next();
      m.longRunning.inc(series.longRunningLabels);
      try {
        await next();
      } finally {
        m.longRunning.dec(series.longRunningLabels);
        monitor(ctx, series);
      }
      return;
    }
    // Every request executing is in flight, counted or not (kube's watermark is kept by its in-flight filter).
    const kind = readOnlyVerbs.has(info.verb) ? 'readOnly' : 'mutating';
    m.executing(kind, 1);
    try {
      await next();
    } finally {
      m.executing(kind, -1);
      if (series !== undefined) monitor(ctx, series);
    }
  };
  const terminated = (ctx: RequestContext, code: number, dropped: boolean): void => {
    if (!counted(ctx.info)) return;
    // Through the cached series: a flood's every refusal is counted here, and label objects per request add up.
    const series = seriesOf(ctx);
    if (dropped) series.counter(metricDryRun(ctx.query), code).inc();
    series.termination(code).inc();
  };
  return { filter, dropped: (ctx) => terminated(ctx, 429, true), terminated: (ctx, code) => terminated(ctx, code, false) };
}

/** Records one finished request (MonitorRequest). */
function monitor(ctx: RequestContext, series: RequestSeries): void {
  const record = ctx.record;
  const elapsed = (performance.now() - record.receivedAt) / 1000;
  const dryRun = metricDryRun(ctx.query);
  series.counter(dryRun, record.responseCode ?? 0).inc();
  series.duration(dryRun).observe(elapsed);
  const sli = Math.max(0, elapsed - record.latency.webhookSeconds - record.latency.apfQueueWaitSeconds);
  series.sli.observe(sli);
  series.slo.observe(sli);
  series.sizes?.observe(record.responseBytes);
}
