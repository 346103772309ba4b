/**
 * Runs admitted requests a slice of each turn of the event loop at a time, so that a crowd of requests cannot hold
 * the loop while new connections wait. kube-apiserver serves every request on its own goroutine and Go's scheduler
 * preempts them: a TLS handshake or a /livez never waits for a burst of lists to finish. Node has one thread, and a
 * request served from memory runs to its end inside the turn it arrived in; a thousand of them make a turn of
 * seconds, and a new connection needs several turns (accept, handshake, request). Here each request starts in the
 * check phase of a turn while that phase has spent less than its budget; the rest move to the next turn, after the
 * poll phase has read the sockets again. The budget is CPU time, not wall time: on a busy machine the process is
 * not always running, and a wall-clock slice would end before it did its share of work. No library does this for
 * Node's loop, so it is written here.
 */

/** The scheduler of one server. */
export interface TurnScheduler {
  /** Starts `task` in a later turn's slice; settles as it does. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Options of {@link createTurnScheduler}. */
export interface TurnSchedulerOptions {
  /** CPU time the requests of one turn may take before the rest wait for the next (default 10 ms). */
  readonly budgetMs?: number;
  /** The clock the budget is measured on, in ms (default: the process's CPU time). */
  readonly now?: () => number;
  /**
   * The wall clock in ms (default performance.now): the CPU clock is read only once it could have spent the slice.
   * An injected `now` without an injected `wall` is read for every task.
   */
  readonly wall?: () => number;
}

/** CPU time the process has used, in ms. */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** Creates a scheduler. */
export function createTurnScheduler(options: TurnSchedulerOptions = {}): TurnScheduler {
  const budgetMs = options.budgetMs ?? 10;
  const now = options.now ?? cpuMs;
  // Reading the process's CPU time is a system call, and every queued request would make one. The thread running
  // the requests cannot use more CPU time than wall time passes, so the CPU clock is read only once as much wall
  // time has passed as the slice had budget left at the last reading (an injected clock is read every time).
  const wallGated = options.now === undefined || options.wall !== undefined;
  const wall = options.wall ?? (() => performance.now());
  let readAt = 0;
  let sliceStart = 0;
  /** Set once this turn's slice is spent: the remaining tasks move on without reading the clock again. */
  let spent = false;
  let markerQueued = false;
  // Immediates queued during a check phase run in the next one, in order: a marker queued ahead of a turn's tasks
  // tells where that turn's slice begins.
  const mark = (): void => {
    markerQueued = false;
    spent = false;
    sliceStart = now();
    readAt = wall() + budgetMs;
  };
  /** True once this turn's slice is spent. */
  const isSpent = (): boolean => {
    if (spent) return true;
    if (!wallGated) return (spent = now() - sliceStart >= budgetMs);
    const at = wall();
    if (at < readAt) return false;
    const used = now() - sliceStart;
    if (used >= budgetMs) return (spent = true);
    readAt = at + (budgetMs - used);
    return false;
  };
  const queue = (attempt: () => void): void => {
    if (!markerQueued) {
      markerQueued = true;
      setImmediate(mark);
    }
    setImmediate(attempt);
  };
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const attempt = (): void => {
          if (isSpent()) return queue(attempt);
          // Started inside this callback: its synchronous part and the microtasks after it count against this slice
          // before the next task's callback looks at the clock.
          task().then(resolve, reject);
        };
        queue(attempt);
      });
    },
  };
}
