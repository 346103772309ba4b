/**
 * Latencies of a load run kept as counts in logarithmic buckets (1% wide, from 1 µs to beyond a minute), so that
 * every worker process records millions of requests in a fixed few kilobytes and the parent merges them by adding
 * counts. Percentiles are read back to within 1%.
 */

/** Width of a bucket: each is 1% wider than the one before. */
const growth = Math.log(1.01);
/** Buckets from 1 µs to e^(2000 × ln 1.01) µs ≈ 4 × 10^8 µs (about 7 minutes). */
const bucketCount = 2000;

/** Counts per bucket, as sent between processes (a plain array survives structured cloning and JSON alike). */
export type HistogramCounts = number[];

/** A latency histogram. */
export class LatencyHistogram {
  private readonly counts: Float64Array;
  private total = 0;

  constructor(counts?: readonly number[]) {
    this.counts = new Float64Array(bucketCount);
    if (counts !== undefined) this.add(counts);
  }

  /** Records one latency in milliseconds. */
  record(ms: number): void {
    const us = ms * 1000;
    const i = us <= 1 ? 0 : Math.min(bucketCount - 1, Math.ceil(Math.log(us) / growth));
    this.counts[i]!++;
    this.total++;
  }

  /** Adds the counts of another histogram (from a worker process). */
  add(counts: readonly number[]): void {
    for (let i = 0; i < counts.length && i < bucketCount; i++) {
      this.counts[i]! += counts[i]!;
      this.total += counts[i]!;
    }
  }

  /** The counts to send to another process. */
  toCounts(): HistogramCounts {
    return Array.from(this.counts);
  }

  /** How many latencies were recorded. */
  get count(): number {
    return this.total;
  }

  /** The `p`th percentile in milliseconds (the upper edge of its bucket); NaN when empty. */
  percentile(p: number): number {
    if (this.total === 0) return NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * this.total));
    let seen = 0;
    for (let i = 0; i < bucketCount; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.exp(i * growth) / 1000;
    }
    return Math.exp((bucketCount - 1) * growth) / 1000;
  }
}
