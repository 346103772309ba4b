/**
 * Counters, gauges and histograms kept per label combination, as client_golang's CounterVec, GaugeVec and
 * HistogramVec keep them:
 * a series is found by its label values joined in the declared order, a Map lookup with no per-call validation,
 * sorting or hashing of a label object (prom-client's own counters and histograms do all three on every call, which
 * showed as a tenth of a small GET's CPU), and a caller may hold one series (`series`) and record through it
 * directly. prom-client's Registry serves any object of its metric shape (`get`, `getForPromString`); these give it
 * what its own Counter, Gauge and Histogram give it, so the exposition is the same text. Written here because prom-client
 * offers no cheaper recording path.
 */
import { inspect } from 'node:util';

/** Label values by label name. */
type LabelValues = Readonly<Record<string, string>>;

/** Separates label values in a series key (and stands for a label not given). */
const separator = '\u0000';

/** A counter series. */
export class CounterSeries {
  value = 0;
  constructor(readonly labels: LabelValues) {}

  inc(value = 1): void {
    if (value && !Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${inspect(value)}`);
    if (value < 0) throw new Error('It is not possible to decrease a counter');
    this.value += value;
  }
}

/** A gauge series. */
export class GaugeSeries {
  value = 0;
  constructor(readonly labels: LabelValues) {}

  set(value: number): void {
    if (typeof value !== 'number') throw new TypeError(`Value is not a valid number: ${inspect(value)}`);
    this.value = value;
  }

  inc(value = 1): void {
    this.set(this.value + value);
  }
}

/** A histogram series: counts per bucket (not cumulative), the sum and the count. */
export class HistogramSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(readonly labels: LabelValues, private readonly bounds: readonly number[]) {
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${inspect(value)}`);
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

/** The series of one metric by label values; `make` builds a new series. */
abstract class MetricVec<S extends { readonly labels: LabelValues }> {
  readonly aggregator = 'sum';
  protected series = new Map<string, S>();

  /** Subclasses call `reset` once they can make series: a metric without labels starts with its zero series. */
  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[]) {}

  protected abstract make(labels: LabelValues): S;

  /** The series of `labels`, made on first use (labels outside the declared set are refused, as prom-client does). */
  with(labels: LabelValues): S {
    const names = this.labelNames;
    let key = '';
    let plain = true;
    let given = 0;
    for (let i = 0; i < names.length; i++) {
      const v = labels[names[i]!];
      if (v !== undefined) {
        given++;
        if (v.includes(separator)) plain = false;
      }
      key += i === 0 ? (v ?? separator) : `${separator}${v ?? separator}`;
    }
    // Values holding the separator (no metric's values do) get a key that cannot meet a plain one.
    if (!plain) key = `${separator}${JSON.stringify(names.map((n) => labels[n] ?? null))}`;
    let count = 0;
    for (const _ in labels) count++;
    if (count !== given) {
      for (const label in labels) {
        if (!names.includes(label)) throw new Error(`Added label "${label}" is not included in initial labelset: ${inspect(names)}`);
      }
    }
    let s = this.series.get(key);
    if (s === undefined) {
      s = this.make(labels);
      this.series.set(key, s);
    }
    return s;
  }

  /** Drops every series (prom-client's reset); a metric without labels keeps its zero series. */
  reset(): void {
    this.series = new Map();
    if (this.labelNames.length === 0) this.series.set('', this.make({}));
  }
}

/** A counter vector prom-client's registry serves as a counter. */
export class CounterVec extends MetricVec<CounterSeries> {
  readonly type = 'counter';

  constructor(name: string, help: string, labelNames: readonly string[]) {
    super(name, help, labelNames);
    this.reset();
  }

  protected make(labels: LabelValues): CounterSeries {
    return new CounterSeries(labels);
  }

  get(): Promise<{ name: string; help: string; type: 'counter'; aggregator: 'sum'; values: { value: number; labels: LabelValues }[] }> {
    const values = [...this.series.values()].map((s) => ({ value: s.value, labels: s.labels }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

/**
 * A gauge vector prom-client's registry serves as a gauge; with `collect`, its values are set afresh at each scrape
 * (series not set again are gone).
 */
export class GaugeVec extends MetricVec<GaugeSeries> {
  readonly type = 'gauge';

  constructor(name: string, help: string, labelNames: readonly string[], private readonly collect?: (vec: GaugeVec) => void | Promise<void>) {
    super(name, help, labelNames);
    this.reset();
  }

  protected make(labels: LabelValues): GaugeSeries {
    return new GaugeSeries(labels);
  }

  async get(): Promise<{ name: string; help: string; type: 'gauge'; aggregator: 'sum'; values: { value: number; labels: LabelValues }[] }> {
    if (this.collect !== undefined) {
      this.reset();
      await this.collect(this);
    }
    const values = [...this.series.values()].map((s) => ({ value: s.value, labels: s.labels }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** One value of a histogram's exposition, as prom-client's histogram makes it. */
interface HistogramValue {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly sharedLabels?: LabelValues;
  readonly value: number;
  readonly metricName: string;
}

/** A histogram vector prom-client's registry serves as a histogram. */
export class HistogramVec extends MetricVec<HistogramSeries> {
  readonly type = 'histogram';

  constructor(name: string, help: string, labelNames: readonly string[], readonly bounds: readonly number[]) {
    super(name, help, labelNames);
    this.reset();
  }

  protected make(labels: LabelValues): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }

  /** The exposition's values: each series' cumulative buckets (`le` beside its labels), `+Inf`, sum and count. */
  getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: HistogramValue[] }> {
    const values: HistogramValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series.values()) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += s.counts[i]!;
        values.push({ labels: { le: this.bounds[i]! }, sharedLabels: s.labels, value: acc, metricName: bucket });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` },
      );
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  /** The same values with each series' labels after `le` in one object, as prom-client's `get` gives them. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: HistogramValue[] }> {
    const data = await this.getForPromString();
    return { ...data, values: data.values.map(({ sharedLabels, ...v }) => ({ ...v, labels: { ...v.labels, ...sharedLabels } })) };
  }
}
