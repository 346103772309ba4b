/**
 * The work queue of a controller (client-go's workqueue: Type, DelayingInterface and RateLimitingInterface in one).
 *
 * - A key is queued once however often it is added before a worker takes it (the dirty set).
 * - A key being processed is never handed to a second worker; added meanwhile, it is queued again when its worker
 *   calls `done`, so the change that re-added it is seen.
 * - `addAfter` queues a key after a delay (the earliest pending delay of a key wins); `addRateLimited` waits as the
 *   rate limiter says (per-key exponential back-off with a cap); `forget` resets the key's back-off.
 * - `shutDown` refuses further adds, drops queued and delayed keys (whoever leads next lists everything again, as a
 *   restarted kube-controller-manager does) and resolves once every key being processed is done (client-go's
 *   ShutDownWithDrain).
 * - `idle` resolves when nothing is queued, processing or delayed: tests wait on it.
 *
 * Hand-written: no npm queue (p-queue, fastq, bull) keeps client-go's per-key dirty/processing sets.
 */
import { controllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/** A work queue of string keys. */
export interface WorkQueue {
  /** Queues `key` unless it is already queued; ignored once shut down. */
  add(key: string): void;
  /** Queues `key` after `delayMs` (at once when not positive). */
  addAfter(key: string, delayMs: number): void;
  /** Queues `key` after the rate limiter's delay for it (a failed sync). */
  addRateLimited(key: string): void;
  /** Resets the back-off of `key` (a successful sync). */
  forget(key: string): void;
  /** How many rate-limited retries `key` has had since it was last forgotten. */
  numRequeues(key: string): number;
  /** The next key to process, once there is one; undefined once the queue is shut down. */
  get(): Promise<string | undefined>;
  /** Ends the processing of a key `get` handed out; a key added meanwhile is queued again. */
  done(key: string): void;
  /** How many keys are queued (not counting those being processed or delayed). */
  len(): number;
  /** Stops the queue; resolves once the keys being processed are done. */
  shutDown(): Promise<void>;
  isShuttingDown(): boolean;
  /** True when nothing is queued, being processed or waiting for its delay. */
  isIdle(): boolean;
  /** Resolves once {@link isIdle} holds (or the queue is shut down). */
  idle(): Promise<void>;
}

/** Options of {@link createWorkQueue}. */
export interface WorkQueueOptions {
  /** Default: client-go's DefaultControllerRateLimiter. */
  readonly rateLimiter?: RateLimiter;
}

/** Creates an empty queue. */
export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const rateLimiter = options.rateLimiter ?? controllerRateLimiter();
  /** Keys waiting for a worker, in order (a Set: each key is queued once). */
  const queue = new Set<string>();
  /** Keys that need processing: the queued ones and those added again while being processed. */
  const dirty = new Set<string>();
  const processing = new Set<string>();
  /** Delayed adds: the time each key is due and its timer. */
  const delayed = new Map<string, { readonly at: number; readonly timer: NodeJS.Timeout }>();
  const getters: ((key: string | undefined) => void)[] = [];
  const idleWaiters: (() => void)[] = [];
  const drainWaiters: (() => void)[] = [];
  let shuttingDown = false;

  const isIdle = (): boolean => queue.size === 0 && processing.size === 0 && delayed.size === 0;
  const settle = (): void => {
    if (processing.size === 0 && drainWaiters.length > 0) for (const w of drainWaiters.splice(0)) w();
    if ((isIdle() || shuttingDown) && idleWaiters.length > 0) for (const w of idleWaiters.splice(0)) w();
  };

  /** Hands `key` to a waiting worker if there is one, else queues it. */
  const offer = (key: string): void => {
    const getter = getters.shift();
    if (getter === undefined) {
      queue.add(key);
      return;
    }
    dirty.delete(key);
    processing.add(key);
    getter(key);
  };

  const add = (key: string): void => {
    if (shuttingDown || dirty.has(key)) return;
    dirty.add(key);
    if (!processing.has(key)) offer(key);
  };

  const addAfter = (key: string, delayMs: number): void => {
    if (shuttingDown) return;
    if (!(delayMs > 0)) {
      add(key);
      return;
    }
    const at = Date.now() + delayMs;
    const pending = delayed.get(key);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      clearTimeout(pending.timer);
    }
    const timer = setTimeout(() => {
      delayed.delete(key);
      add(key);
      settle();
    }, delayMs);
    delayed.set(key, { at, timer });
  };

  return {
    add,
    addAfter,
    addRateLimited: (key) => addAfter(key, rateLimiter.when(key)),
    forget: (key) => rateLimiter.forget(key),
    numRequeues: (key) => rateLimiter.numRequeues(key),
    get() {
      if (shuttingDown) return Promise.resolve(undefined);
      const first = queue.values().next();
      if (first.done) return new Promise((resolve) => getters.push(resolve));
      const key = first.value;
      queue.delete(key);
      dirty.delete(key);
      processing.add(key);
      return Promise.resolve(key);
    },
    done(key) {
      if (!processing.delete(key)) return;
      if (dirty.has(key) && !shuttingDown) offer(key);
      settle();
    },
    len: () => queue.size,
    shutDown() {
      shuttingDown = true;
      queue.clear();
      dirty.clear();
      for (const { timer } of delayed.values()) clearTimeout(timer);
      delayed.clear();
      for (const g of getters.splice(0)) g(undefined);
      const drained = processing.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => drainWaiters.push(resolve));
      settle();
      return drained;
    },
    isShuttingDown: () => shuttingDown,
    isIdle,
    idle() {
      if (isIdle() || shuttingDown) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
