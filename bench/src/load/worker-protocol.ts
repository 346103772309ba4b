/** The messages between the load generator and its worker processes (IPC with the advanced serialization). */
import type { Http1Target } from './http1-connection.js';
import type { HistogramCounts } from './latency-histogram.js';
import type { LoadPlan } from './load-plan.js';

/** Parent → worker. */
export type WorkerCommand =
  /** Open `connections` connections, numbered from `first` among `total` across all workers. */
  | { readonly type: 'open'; readonly target: Http1Target; readonly first: number; readonly connections: number; readonly total: number }
  | { readonly type: 'run'; readonly plan: LoadPlan; readonly ms: number }
  | { readonly type: 'close' };

/** What one worker measured in one run. */
export interface RunFigures {
  readonly ok: number;
  readonly errors: number;
  /** Responses by status (0: the connection failed). */
  readonly statuses: Readonly<Record<string, number>>;
  readonly histogram: HistogramCounts;
  /** Successful requests per connection of this worker, in order. */
  readonly perConnection: readonly number[];
  /** From the start of the run to its last response. */
  readonly seconds: number;
  /** CPU time the worker process used over the run (user and system). */
  readonly cpuSeconds: number;
  /** The status and start of the body of the first unexpected response. */
  readonly firstError?: string;
}

/** Worker → parent. */
export type WorkerReply =
  | { readonly type: 'opened' }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'ran'; readonly figures: RunFigures };
