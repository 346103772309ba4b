/**
 * The server's metrics in one place (kube-apiserver's legacyregistry): labelled gauges, counters and histograms,
 * written in the Prometheus text exposition format. Counters and histograms are prom-client's, each registry with
 * its own prom-client Registry so that tests can hold registries of their own; gauges are kept here until they move
 * onto prom-client too. Every metric is declared with its stability class, shown in its help text as kube shows it
 * (`[ALPHA] ...`, `[STABLE] ...`).
 */
import { Counter as PromCounter, Histogram as PromHistogram, Registry as PromRegistry } from 'prom-client';

/** Label values by label name. */
export type Labels = Readonly<Record<string, string>>;

/** A metric's stability class (k8s.io/component-base/metrics StabilityLevel). */
export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

/** A gauge with a fixed label set. */
export interface Gauge {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  set(labels: Labels, value: number): void;
  /** The value of one label combination, undefined when never set. */
  get(labels: Labels): number | undefined;
  /** Every label combination set, with its value. */
  entries(): { labels: Record<string, string>; value: number }[];
}

/** A counter with a fixed label set. */
export interface Counter {
  readonly name: string;
  inc(labels: Labels, value?: number): void;
  /** The count of one label combination (0 when never counted). */
  value(labels: Labels): Promise<number>;
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
  /** The observations of one label combination, undefined when none was made. */
  sample(labels: Labels): Promise<HistogramSample | undefined>;
}

/** A set of metrics. */
export interface MetricsRegistry {
  gauge(name: string, help: string, labelNames: readonly string[]): Gauge;
  /** The counter `name`, declared on first call; later calls with the same name return it. */
  counter(name: string, help: string, labelNames: readonly string[], stability: StabilityLevel): Counter;
  /** The histogram `name` with its buckets (upper bounds), declared on first call. */
  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[], stability: StabilityLevel): Histogram;
  /** Every metric in the Prometheus text format (version 0.0.4). */
  exposition(): Promise<string>;
}

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** Only the declared labels, each present: prom-client refuses unknown labels, and kube sends every one. */
function pick(labelNames: readonly string[], labels: Labels): Record<string, string> {
  return Object.fromEntries(labelNames.map((l) => [l, labels[l] ?? '']));
}

const sameLabels = (a: Readonly<Record<string, string | number | undefined>>, b: Labels): boolean =>
  Object.entries(b).every(([k, v]) => String(a[k] ?? '') === v);

/** Creates an empty metrics registry. */
export function createMetricsRegistry(): MetricsRegistry {
  const gauges = new Map<string, Gauge>();
  const counters = new Map<string, Counter>();
  const histograms = new Map<string, Histogram>();
  const prom = new PromRegistry();
  return {
    gauge(name, help, labelNames) {
      const existing = gauges.get(name);
      if (existing !== undefined) return existing;
      const values = new Map<string, { labels: Record<string, string>; value: number }>();
      const keyOf = (labels: Labels): string => JSON.stringify(labelNames.map((l) => labels[l] ?? ''));
      const g: Gauge = {
        name, help, labelNames,
        set(labels, value) {
          values.set(keyOf(labels), { labels: pick(labelNames, labels), value });
        },
        get: (labels) => values.get(keyOf(labels))?.value,
        entries: () => [...values.values()].map((e) => ({ labels: { ...e.labels }, value: e.value })),
      };
      gauges.set(name, g);
      return g;
    },
    counter(name, help, labelNames, stability) {
      const existing = counters.get(name);
      if (existing !== undefined) return existing;
      const metric = new PromCounter({ name, help: `[${stability}] ${help}`, labelNames: [...labelNames], registers: [prom] });
      const c: Counter = {
        name,
        inc: (labels, value = 1) => metric.inc(pick(labelNames, labels), value),
        async value(labels) {
          const got = await metric.get();
          return got.values.find((v) => sameLabels(v.labels, pick(labelNames, labels)))?.value ?? 0;
        },
      };
      counters.set(name, c);
      return c;
    },
    histogram(name, help, labelNames, buckets, stability) {
      const existing = histograms.get(name);
      if (existing !== undefined) return existing;
      const metric = new PromHistogram({ name, help: `[${stability}] ${help}`, labelNames: [...labelNames], buckets: [...buckets], registers: [prom] });
      const h: Histogram = {
        name,
        observe: (labels, value) => metric.observe(pick(labelNames, labels), value),
        async sample(labels) {
          const wanted = pick(labelNames, labels);
          const values = (await metric.get()).values.filter((v) => sameLabels(v.labels, wanted));
          const count = values.find((v) => v.metricName === `${name}_count`)?.value;
          if (count === undefined || count === 0) return undefined;
          const sum = values.find((v) => v.metricName === `${name}_sum`)?.value ?? 0;
          const bucketCounts: Record<string, number> = {};
          for (const v of values) if (v.metricName === `${name}_bucket`) bucketCounts[String(v.labels['le'])] = v.value;
          return { count, sum, buckets: bucketCounts };
        },
      };
      histograms.set(name, h);
      return h;
    },
    async exposition() {
      const lines: string[] = [];
      for (const g of gauges.values()) {
        lines.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`);
        for (const e of g.entries()) {
          const labels = Object.entries(e.labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',');
          lines.push(`${g.name}${labels ? `{${labels}}` : ''} ${e.value}`);
        }
      }
      const own = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
      const promText = await prom.metrics();
      return own + (promText.trim() === '' ? '' : promText.endsWith('\n') ? promText : `${promText}\n`);
    },
  };
}

/** The process's metrics (kube's legacyregistry.DefaultGatherer). */
export const serverMetrics: MetricsRegistry = createMetricsRegistry();
