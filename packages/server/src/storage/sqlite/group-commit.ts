/**
 * Group commit: writes that arrive while the writer is busy (or within the same turn of the event loop) wait in a
 * queue and are committed together in the next transaction, so one durable sync serves many writes. This is what
 * makes a sync per commit affordable (etcd batches its raft log appends the same way). Each write keeps its own result:
 * `commit` returns one result per op, and a compare-and-swap failure of one op is a result, not a failed batch.
 *
 * Written by hand: the batching is a dozen lines around the store's own transaction, no library does it for us.
 */

/** Counters for tests and metrics. */
export interface GroupCommitStats {
  /** Transactions committed (or attempted). */
  readonly transactions: number;
  /** Writes submitted to those transactions. */
  readonly writes: number;
}

/** A queue in front of a transactional `commit`. */
export interface GroupCommitter<Op, Result> {
  /** Queues `op`; resolves with its own result once its batch is committed, rejects if the batch failed. */
  submit(op: Op): Promise<Result>;
  /** Commits whatever is queued now, synchronously (used on close). */
  flush(): void;
  stats(): GroupCommitStats;
}

interface Pending<Op, Result> {
  readonly op: Op;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Creates a committer. `commit` runs one transaction over a batch and returns a result per op, in order, or a promise
 * of them when they may be told only later (once the batch is durable); it throws (or the promise rejects) when the
 * store fails, and then every op of the batch is rejected with that error.
 */
export function createGroupCommitter<Op, Result>(
  commit: (ops: readonly Op[]) => readonly Result[] | Promise<readonly Result[]>,
  options: { readonly maxBatch?: number } = {},
): GroupCommitter<Op, Result> {
  const maxBatch = options.maxBatch ?? 1000;
  let queue: Pending<Op, Result>[] = [];
  let scheduled = false;
  let transactions = 0;
  let writes = 0;

  const runBatch = (batch: Pending<Op, Result>[]): void => {
    transactions += 1;
    writes += batch.length;
    let results: readonly Result[] | Promise<readonly Result[]>;
    try {
      results = commit(batch.map((p) => p.op));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    if (!(results instanceof Promise)) {
      const now = results;
      batch.forEach((p, i) => p.resolve(now[i]!));
      return;
    }
    // A commit whose results wait (for the batch to be durable): the next batch is committed meanwhile.
    results.then(
      (settled) => batch.forEach((p, i) => p.resolve(settled[i]!)),
      (error: unknown) => batch.forEach((p) => p.reject(error)),
    );
  };

  const flush = (): void => {
    scheduled = false;
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      runBatch(batch);
    }
  };

  return {
    submit(op) {
      return new Promise<Result>((resolve, reject) => {
        queue.push({ op, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          // setImmediate, not a microtask: writers that were just woken by the previous batch's results run their
          // continuations first and join this batch.
          setImmediate(flush);
        }
      });
    },
    flush,
    stats: () => ({ transactions, writes }),
  };
}
