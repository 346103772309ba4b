/**
 * Counters, gauges and histograms kept per label combination, as client_golang's CounterVec, GaugeVec and
 * HistogramVec keep them:
 * a series is found by its label values in the declared order, a Map lookup per label with no per-call validation,
 * sorting or hashing of a label object (prom-client's own counters and histograms do all three on every call, which
 * showed as a tenth of a small GET's CPU), and a caller may hold one series (`series`) and record through it
 * directly. prom-client's Registry serves any object of its metric shape (`get`, `getForPromString`); these give it
 * what its own Counter, Gauge and Histogram give it, so the exposition is the same text. Written here because prom-client
 * offers no cheaper recording path.
 */
import { inspect } from 'node:util';

/** Label values by label name. */
type LabelValues = Readonly<Record<string, string>>;

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

/** One level of a vector's index: the next level, or at the last label the series, by one label's value. */
type IndexLevel<S> = Map<string | undefined, IndexLevel<S> | S>;

/** The series of one metric by label values; `make` builds a new series. */
abstract class MetricVec<S extends { readonly labels: LabelValues }> {
  readonly aggregator = 'sum';
  /** Every series, in the order they were made (the exposition's order). */
  protected series: S[] = [];
  /**
   * The series by their label values, one Map level per declared label: a lookup hashes the values as they are
   * (constant strings keep their hash) instead of building and hashing a joined key on every call.
   */
  private index: IndexLevel<S> = new Map();

  /** Subclasses call `reset` once they can make series: a metric without labels starts with its zero series. */
  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[]) {}

  protected abstract make(labels: LabelValues): S;

  /** The series of `labels`, made on first use (labels outside the declared set are refused, as prom-client does). */
  with(labels: LabelValues): S {
    const names = this.labelNames;
    if (names.length === 0) {
      for (const label in labels) throw new Error(`Added label "${label}" is not included in initial labelset: ${inspect(names)}`);
      return this.series[0]!;
    }
    let given = 0;
    let level = this.index;
    const last = names.length - 1;
    for (let i = 0; i < last; i++) {
      const v = valueOf(labels[names[i]!]);
      if (v !== undefined) given++;
      let next = level.get(v) as IndexLevel<S> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(v, next);
      }
      level = next;
    }
    const v = valueOf(labels[names[last]!]);
    if (v !== undefined) given++;
    let count = 0;
    for (const _ in labels) count++;
    if (count !== given) {
      for (const label in labels) {
        if (!names.includes(label)) throw new Error(`Added label "${label}" is not included in initial labelset: ${inspect(names)}`);
      }
    }
    let s = level.get(v) as S | undefined;
    if (s === undefined) {
      s = this.make(labels);
      level.set(v, s);
      this.series.push(s);
    }
    return s;
  }

  /** Drops every series (prom-client's reset); a metric without labels keeps its zero series. */
  reset(): void {
    this.series = [];
    this.index = new Map();
    if (this.labelNames.length === 0) this.series.push(this.make({}));
  }
}

/** A label's value as the index keys it: values given as numbers (a status code) meet the same value as text. */
function valueOf(v: unknown): string | undefined {
  return typeof v === 'string' || v === undefined ? v : String(v);
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
    const values = this.series.map((s) => ({ value: s.value, labels: s.labels }));
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
    const values = this.series.map((s) => ({ value: s.value, labels: s.labels }));
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
    for (const s of this.series) {
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
