/**
 * The server's metrics in one place (k8s.io/component-base/metrics and its legacyregistry): counters, gauges and
 * histograms kept per label combination (metric-vec.ts, cheap enough for the request path), written in the
 * Prometheus text exposition format by one prom-client Registry per metrics registry (tests hold registries of
 * their own).
 *
 * Every metric is declared with its stability class, shown in its help text as kube shows it (`[ALPHA] ...`), and
 * may be deprecated (document 1 §Metric stability, component-base's lazyMetric):
 *
 * - a deprecated metric is served with `(Deprecated from x.y)` before its help, and a warning is logged when it is
 *   declared;
 * - once its deprecated version is the current release minus 3 it is hidden: declared but neither recorded nor
 *   served, unless hidden metrics are shown again (`--show-hidden-metrics-for-version`, kube's SetShowHidden);
 * - a release later it is deleted: neither recorded nor served, whatever the flags say;
 * - a disabled metric (`--disabled-metrics`) is neither recorded nor served, shown or not.
 *
 * As with kube's lazy metrics, recording a metric that is not served does nothing, so disabling the metrics of the
 * request path takes their cost off it.
 *
 * A metric is declared once: declaring a name again returns the first declaration. The registry serves kube's
 * meta metrics too (`registered_metric_total`, `hidden_metric_total`, `disabled_metric_total`).
 */
import { Counter as PromCounter, Registry as PromRegistry, type Metric as PromMetric } from 'prom-client';
import { CounterVec, GaugeVec, HistogramVec } from './metric-vec.js';

/** Label values by label name; every declared label must be given (kube sends every label, empty or not). */
export type Labels = Readonly<Record<string, string>>;

/** A metric's stability class (k8s.io/component-base/metrics StabilityLevel). */
export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

/** How a metric is declared beside its name, help, labels and class. */
export interface MetricOptions {
  /** The release (`major.minor`) the metric was deprecated in (kube's DeprecatedVersion). */
  readonly deprecatedVersion?: string;
}

/** A gauge whose values are read when the registry is scraped (kube's GaugeFunc and custom collectors). */
export interface GaugeCollector {
  /** Sets the gauge's values at a scrape; labels not set again are dropped. */
  collect(set: (labels: Labels, value: number) => void): void | Promise<void>;
}

/** A counter with a fixed label set. */
export interface Counter {
  readonly name: string;
  inc(labels: Labels, value?: number): void;
  /** The counter of one label combination, to count through without finding it again (the request path's). */
  with(labels: Labels): { inc(value?: number): void };
  /** The count of one label combination (0 when never counted). */
  value(labels: Labels): Promise<number>;
}

/** A gauge with a fixed label set. */
export interface Gauge {
  readonly name: string;
  set(labels: Labels, value: number): void;
  inc(labels: Labels, value?: number): void;
  dec(labels: Labels, value?: number): void;
  /** The value of one label combination, undefined when never set. */
  get(labels: Labels): Promise<number | undefined>;
}

/** One label combination of a histogram. */
export interface HistogramSample {
  readonly count: number;
  readonly sum: number;
  /** Cumulative counts by upper bound (`le`), `+Inf` included. */
  readonly buckets: Readonly<Record<string, number>>;
}

/** A histogram with a fixed label set and fixed buckets. */
export interface Histogram {
  readonly name: string;
  observe(labels: Labels, value: number): void;
  /** The histogram of one label combination, to observe through without finding it again (the request path's). */
  with(labels: Labels): { observe(value: number): void };
  /** The observations of one label combination, undefined when none was made. */
  sample(labels: Labels): Promise<HistogramSample | undefined>;
}

/** A set of metrics. */
export interface MetricsRegistry {
  /** The release metrics are judged against (`major.minor`). */
  readonly release: string;
  /** The counter `name`, declared on first call; later calls with the same name return it. */
  counter(name: string, help: string, labelNames: readonly string[], stability: StabilityLevel, options?: MetricOptions): Counter;
  /** The gauge `name`, declared on first call; with a collector its values are read at each scrape. */
  gauge(name: string, help: string, labelNames: readonly string[], stability: StabilityLevel, options?: MetricOptions & Partial<GaugeCollector>): Gauge;
  /** The histogram `name` with its buckets (upper bounds), declared on first call. */
  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[], stability: StabilityLevel, options?: MetricOptions): Histogram;
  /**
   * Registers metrics that are prom-client's own (kube's RawMustRegister: the process collector), once per `key`;
   * they carry no stability class.
   */
  raw(key: string, register: (registry: PromRegistry) => void): void;
  /** Serves the hidden metrics (kube's SetShowHidden), disabled ones excepted; logs kube's warning for each. */
  showHidden(): void;
  /** Never serves the metrics named (kube's SetDisabledMetric), whether declared yet or not. */
  disable(names: readonly string[]): void;
  /** The names of the metrics declared but not served. */
  hidden(): string[];
  /** Every served metric in the Prometheus text format (version 0.0.4). */
  exposition(): Promise<string>;
  /** The exposition's content type. */
  readonly contentType: string;
}

/** The release this server implements, whose metrics deprecated before it are hidden. */
export const metricsRelease = '1.27';

/** `major.minor` as numbers; undefined when it is not that form. */
function parseRelease(text: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(text);
  return m === null ? undefined : [Number(m[1]), Number(m[2])];
}

/** Where a metric deprecated in some release stands in another (document 1 §Metric stability). */
export type DeprecationStage = 'served' | 'hidden' | 'deleted';

/**
 * The stage in `release` of a metric deprecated in `deprecated`: served (with its deprecation notice) for the
 * release it was deprecated in and the two after it, hidden when its deprecated version is the release minus 3,
 * deleted a release later. Releases of an earlier major version count as long gone.
 */
export function deprecationStage(release: string, deprecated: string): DeprecationStage {
  const r = parseRelease(release);
  const d = parseRelease(deprecated);
  if (r === undefined || d === undefined) throw new Error(`invalid release ${deprecated} or ${release}`);
  const behind = d[0] === r[0] ? r[1] - d[1] : d[0] < r[0] ? Infinity : -Infinity;
  if (behind < 3) return 'served';
  return behind === 3 ? 'hidden' : 'deleted';
}

/**
 * Checks `--show-hidden-metrics-for-version` as kube does: empty, or the previous minor release of `release`;
 * undefined when valid, else kube's message.
 */
export function validateShowHiddenMetricsVersion(target: string, release: string = metricsRelease): string | undefined {
  if (target === '') return undefined;
  const r = parseRelease(release);
  const valid = r === undefined ? '' : `${r[0]}.${r[1] - 1}`;
  if (target === valid) return undefined;
  return `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
}

/** Options of a metrics registry. */
export interface MetricsRegistryOptions {
  /** The release metrics are judged against (default: {@link metricsRelease}). */
  readonly release?: string;
  /** Where deprecation warnings go (default: stderr). */
  readonly warn?: (message: string) => void;
}

/** A declared metric as the registry keeps it. */
interface Declared {
  readonly metric: CounterVec | GaugeVec | HistogramVec;
  readonly hidden: boolean;
  /** Deprecated long enough ago to be gone: never served. */
  readonly deleted: boolean;
  /** Registered and recording: its facade's calls do nothing otherwise. */
  served: boolean;
}

const sameLabels = (a: Readonly<Record<string, string | number | undefined>>, b: Labels): boolean =>
  Object.entries(b).every(([k, v]) => String(a[k] ?? '') === v);

const stderrWarn = (message: string): void => {
  process.stderr.write(`svc-apiserver: ${message}\n`);
};

/** Creates an empty metrics registry. */
export function createMetricsRegistry(options: MetricsRegistryOptions = {}): MetricsRegistry {
  const release = options.release ?? metricsRelease;
  const warn = options.warn ?? stderrWarn;
  const prom = new PromRegistry();
  const declared = new Map<string, Declared>();
  const facades = new Map<string, Counter | Gauge | Histogram>();
  const raws = new Set<string>();
  const disabled = new Set<string>();
  let showingHidden = false;

  const serve = (d: Declared): void => {
    if (d.served) return;
    // The vectors have the shape of prom-client's metrics, which is all its registry reads.
    prom.registerMetric(d.metric as unknown as PromMetric);
    d.served = true;
  };
  const unserve = (name: string, d: Declared): void => {
    if (!d.served) return;
    prom.removeSingleMetric(name);
    d.served = false;
  };

  // kube's meta metrics (component-base/metrics/registry.go), served by every registry.
  const registeredMetrics = new PromCounter({
    name: 'registered_metric_total', help: '[ALPHA] The count of registered metrics broken by stability level and deprecation version.',
    labelNames: ['stability_level', 'deprecated_version'], registers: [prom],
  });
  const disabledMetrics = new PromCounter({ name: 'disabled_metric_total', help: '[ALPHA] The count of disabled metrics.', registers: [prom] });
  const hiddenMetrics = new PromCounter({ name: 'hidden_metric_total', help: '[ALPHA] The count of hidden metrics.', registers: [prom] });

  /** Declares a metric: its help as kube writes it, hidden or served, counted in the meta metrics. */
  function declare<M extends CounterVec | GaugeVec | HistogramVec>(
    name: string, help: string, stability: StabilityLevel, metricOptions: MetricOptions | undefined,
    make: (help: string) => M,
  ): { metric: M; state: Declared } {
    const deprecated = metricOptions?.deprecatedVersion;
    const stage = deprecated === undefined ? 'served' : deprecationStage(release, deprecated);
    const hidden = stage === 'hidden';
    const shownHelp = deprecated === undefined ? `[${stability}] ${help}` : `[${stability}] (Deprecated from ${deprecated}) ${help}`;
    const metric = make(shownHelp);
    const d: Declared = { metric, hidden, deleted: stage === 'deleted', served: false };
    declared.set(name, d);
    if (d.deleted) {
      warn(`metric ${name} was deprecated from ${deprecated} and is deleted in ${release}; it is not served.`);
      return { metric, state: d };
    }
    if (disabled.has(name) || (hidden && !showingHidden)) {
      if (hidden) hiddenMetrics.inc();
      return { metric, state: d };
    }
    if (deprecated !== undefined) {
      warn(hidden
        ? `Hidden metrics (${name}) have been manually overridden, showing this very deprecated metric.`
        : `metric ${name} is deprecated from ${deprecated}; it will be hidden in a later release.`);
    }
    serve(d);
    registeredMetrics.inc({ stability_level: stability, deprecated_version: deprecated === undefined ? '' : `${deprecated}.0` });
    return { metric, state: d };
  }

  return {
    release,
    counter(name, help, labelNames, stability, metricOptions) {
      const existing = facades.get(name);
      if (existing !== undefined) return existing as Counter;
      const { metric, state } = declare(name, help, stability, metricOptions, (h) => new CounterVec(name, h, labelNames));
      const c: Counter = {
        name,
        inc: (labels, value = 1) => {
          if (state.served) metric.with(labels).inc(value);
        },
        with(labels) {
          const series = metric.with(labels);
          return {
            inc: (value = 1) => {
              if (state.served) series.inc(value);
            },
          };
        },
        async value(labels) {
          const got = await metric.get();
          return got.values.find((v) => sameLabels(v.labels, labels))?.value ?? 0;
        },
      };
      facades.set(name, c);
      return c;
    },
    gauge(name, help, labelNames, stability, metricOptions) {
      const existing = facades.get(name);
      if (existing !== undefined) return existing as Gauge;
      const collector = metricOptions?.collect;
      const { metric, state } = declare(name, help, stability, metricOptions, (h) => new GaugeVec(name, h, labelNames,
        // Values are read afresh at each scrape: a label combination that is gone (a resource no longer stored) goes too.
        collector === undefined ? undefined : (vec) => collector((labels, value) => vec.with(labels).set(value))));
      const g: Gauge = {
        name,
        set: (labels, value) => {
          if (state.served) metric.with(labels).set(value);
        },
        inc: (labels, value = 1) => {
          if (state.served) metric.with(labels).inc(value);
        },
        dec: (labels, value = 1) => {
          if (state.served) metric.with(labels).inc(-value);
        },
        async get(labels) {
          const got = await metric.get();
          return got.values.find((v) => sameLabels(v.labels, labels))?.value;
        },
      };
      facades.set(name, g);
      return g;
    },
    histogram(name, help, labelNames, buckets, stability, metricOptions) {
      const existing = facades.get(name);
      if (existing !== undefined) return existing as Histogram;
      const { metric, state } = declare(name, help, stability, metricOptions, (h) => new HistogramVec(name, h, labelNames, [...buckets]));
      const h: Histogram = {
        name,
        observe: (labels, value) => {
          if (state.served) metric.with(labels).observe(value);
        },
        with(labels) {
          const series = metric.with(labels);
          return {
            observe: (value) => {
              if (state.served) series.observe(value);
            },
          };
        },
        async sample(labels) {
          const values = (await metric.get()).values.filter((v) => sameLabels(v.labels, labels));
          const count = values.find((v) => v.metricName === `${name}_count`)?.value;
          if (count === undefined || count === 0) return undefined;
          const sum = values.find((v) => v.metricName === `${name}_sum`)?.value ?? 0;
          const bucketCounts: Record<string, number> = {};
          for (const v of values) if (v.metricName === `${name}_bucket`) bucketCounts[String(v.labels['le'])] = v.value;
          return { count, sum, buckets: bucketCounts };
        },
      };
      facades.set(name, h);
      return h;
    },
    raw(key, register) {
      if (raws.has(key)) return;
      raws.add(key);
      register(prom);
    },
    showHidden() {
      if (showingHidden) return;
      showingHidden = true;
      for (const [name, d] of declared) {
        if (!d.hidden || disabled.has(name)) continue;
        warn(`Hidden metrics (${name}) have been manually overridden, showing this very deprecated metric.`);
        serve(d);
      }
    },
    disable(names) {
      for (const name of names) {
        if (disabled.has(name)) continue;
        disabled.add(name);
        disabledMetrics.inc();
        const d = declared.get(name);
        if (d !== undefined) unserve(name, d);
      }
    },
    hidden: () => [...declared].filter(([, d]) => !d.served).map(([name]) => name),
    async exposition() {
      return prom.metrics();
    },
    contentType: prom.contentType,
  };
}

/** The process's metrics (kube's legacyregistry.DefaultGatherer). */
export const serverMetrics: MetricsRegistry = createMetricsRegistry();

/**
 * A set of metrics declared together, once in each registry: `declare` runs on the first use with a registry (the
 * server's by default) and its result is kept for that registry.
 */
export function metricSet<T>(declare: (registry: MetricsRegistry) => T): (registry?: MetricsRegistry) => T {
  const declared = new WeakMap<MetricsRegistry, T>();
  return (registry = serverMetrics) => {
    let m = declared.get(registry);
    if (m === undefined) {
      m = declare(registry);
      declared.set(registry, m);
    }
    return m;
  };
}
