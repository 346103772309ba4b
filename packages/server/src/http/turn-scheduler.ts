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
 *
 * The slices have two lanes (see {@link createTurnLanes}). Flow control limits how many requests execute (seats),
 * not how much CPU they take: while a level's seats are full, the admitted requests could take every slice, and the
 * requests still to be classified and refused — the excess, answered 429 — would wait behind them, as would the
 * exempt ones. Go's scheduler shares the CPU between all of kube-apiserver's goroutines, refusals included; here the
 * requests not yet admitted go first, and admitted work gets what they leave of each slice (and a share of it while
 * both wait, so it never stops).
 */
import Denque from 'denque';

/** A lane of the scheduler of one server. */
export interface TurnScheduler {
  /** Starts `task` in a later turn's slice; settles as it does. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Options of {@link createTurnScheduler} and {@link createTurnLanes}. */
export interface TurnSchedulerOptions {
  /** CPU time the tasks of one turn may take before the rest wait for the next (default 10 ms). */
  readonly budgetMs?: number;
  /** The clock the budget is measured on, in ms (default: the process's CPU time). */
  readonly now?: () => number;
  /**
   * The wall clock in ms (default performance.now): the CPU clock is read only once it could have spent the slice.
   * An injected `now` without an injected `wall` is read for every task.
   */
  readonly wall?: () => number;
  /**
   * While both lanes have tasks waiting, every `deferredEvery`-th task a slice starts is a deferred one (default 8:
   * with admitted work costing a few refusals each, about a fifth of a saturated slice).
   */
  readonly deferredEvery?: number;
}

/** The two lanes of one server's slices. */
export interface TurnLanes {
  /** Requests still to be decided (authenticated, classified, admitted or refused), and exempt ones: first. */
  readonly urgent: TurnScheduler;
  /** Admitted work that flow control limits: what the urgent lane leaves, and its share while both wait. */
  readonly deferred: TurnScheduler;
}

/** CPU time the process has used, in ms. */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** Creates the two lanes of one server's slices; each lane starts its tasks first come, first served. */
export function createTurnLanes(options: TurnSchedulerOptions = {}): TurnLanes {
  const budgetMs = options.budgetMs ?? 10;
  const deferredEvery = Math.max(1, options.deferredEvery ?? 8);
  const now = options.now ?? cpuMs;
  // Reading the process's CPU time is a system call, and every queued request would make one. The thread running
  // the requests cannot use more CPU time than wall time passes, so the CPU clock is read only once as much wall
  // time has passed as the slice had budget left at the last reading (an injected clock is read every time).
  const wallGated = options.now === undefined || options.wall !== undefined;
  const wall = options.wall ?? (() => performance.now());
  // Thousands wait under a flood: a deque, since shifting a large array copies it.
  const urgent = new Denque<() => void>();
  const deferred = new Denque<() => void>();
  let readAt = 0;
  let sliceStart = 0;
  /** Tasks this turn's slice started. */
  let started = 0;
  /** Set once this turn's slice is spent: the remaining slots move on without reading the clock again. */
  let spent = false;
  let markerQueued = false;
  // Immediates queued during a check phase run in the next one, in order: a marker queued ahead of a turn's slots
  // tells where that turn's slice begins.
  const mark = (): void => {
    markerQueued = false;
    spent = false;
    started = 0;
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
  // One slot (an immediate) per waiting task; a slot starts whichever task is due when it runs, so a task queued
  // on the urgent lane overtakes deferred ones queued before it.
  const slot = (): void => {
    if (isSpent()) return queue();
    const turnOfDeferred = deferred.length > 0 && (urgent.length === 0 || started % deferredEvery === deferredEvery - 1);
    started++;
    // Started inside this callback: its synchronous part and the microtasks after it count against this slice before
    // the next slot looks at the clock.
    (turnOfDeferred ? deferred.shift() : urgent.shift())?.();
  };
  const queue = (): void => {
    if (!markerQueued) {
      markerQueued = true;
      setImmediate(mark);
    }
    setImmediate(slot);
  };
  const lane = (tasks: Denque<() => void>): TurnScheduler => ({
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        tasks.push(() => void task().then(resolve, reject));
        queue();
      });
    },
  });
  return { urgent: lane(urgent), deferred: lane(deferred) };
}

/** A scheduler of one lane (its tasks first come, first served). */
export function createTurnScheduler(options: TurnSchedulerOptions = {}): TurnScheduler {
  return createTurnLanes(options).urgent;
}
