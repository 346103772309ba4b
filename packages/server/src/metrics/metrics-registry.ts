/**
 * The server's metrics in one place (kube-apiserver's legacyregistry): labelled gauges kept in memory and written
 * in the Prometheus text exposition format. Only gauges exist so far; prom-client can take this module's place
 * when counters and histograms arrive.
 */

/** A gauge with a fixed label set. */
export interface Gauge {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  set(labels: Readonly<Record<string, string>>, value: number): void;
  /** The value of one label combination, undefined when never set. */
  get(labels: Readonly<Record<string, string>>): number | undefined;
  /** Every label combination set, with its value. */
  entries(): { labels: Record<string, string>; value: number }[];
}

/** A set of metrics. */
export interface MetricsRegistry {
  gauge(name: string, help: string, labelNames: readonly string[]): Gauge;
  /** Every metric in the Prometheus text format (version 0.0.4). */
  exposition(): string;
}

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** Creates an empty metrics registry. */
export function createMetricsRegistry(): MetricsRegistry {
  const gauges = new Map<string, Gauge>();
  return {
    gauge(name, help, labelNames) {
      const existing = gauges.get(name);
      if (existing !== undefined) return existing;
      const values = new Map<string, { labels: Record<string, string>; value: number }>();
      const keyOf = (labels: Readonly<Record<string, string>>): string => JSON.stringify(labelNames.map((l) => labels[l] ?? ''));
      const g: Gauge = {
        name, help, labelNames,
        set(labels, value) {
          values.set(keyOf(labels), { labels: Object.fromEntries(labelNames.map((l) => [l, labels[l] ?? ''])), value });
        },
        get: (labels) => values.get(keyOf(labels))?.value,
        entries: () => [...values.values()].map((e) => ({ labels: { ...e.labels }, value: e.value })),
      };
      gauges.set(name, g);
      return g;
    },
    exposition() {
      const lines: string[] = [];
      for (const g of gauges.values()) {
        lines.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`);
        for (const e of g.entries()) {
          const labels = Object.entries(e.labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',');
          lines.push(`${g.name}${labels ? `{${labels}}` : ''} ${e.value}`);
        }
      }
      return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    },
  };
}

/** The process's metrics (kube's legacyregistry.DefaultGatherer). */
export const serverMetrics: MetricsRegistry = createMetricsRegistry();
