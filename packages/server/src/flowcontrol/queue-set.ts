/**
 * The queues of one limited priority level (k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset): at most
 * `concurrencyLimit` requests execute at once; beyond that a request waits in the shortest queue of its flow's
 * shuffle-sharded hand, or is rejected when that queue holds `queueLengthLimit` requests (or at once, for a level
 * whose limit response is Reject). A freed seat goes to the waiting request with the smallest start tag, as in
 * start-time fair queuing with one unit of work per request: each queue advances its own virtual clock, so a flow
 * that sends much waits behind its own requests while light flows are served in turn. A request that waits longer
 * than `waitLimitMs`, or whose client goes away, leaves the queue and is rejected.
 */
import { dealHand } from './shuffle-sharding.js';

/** How a limited level queues. */
export interface QueueSetConfig {
  readonly concurrencyLimit: number;
  /** 0 for a level whose limit response is Reject. */
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
  readonly waitLimitMs: number;
}

/** Why a request was not executed (the `reason` label of `apiserver_flowcontrol_rejected_requests_total`). */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** The outcome of asking for a seat. */
export type Admission =
  | { readonly kind: 'execute'; readonly waitedMs: number; readonly queued: boolean; release(): void }
  | { readonly kind: 'reject'; readonly reason: RejectReason; readonly waitedMs: number };

/** The queues of one level. */
export interface QueueSet {
  /** Asks for a seat for a request of the flow with this hash; `signal` aborts the wait. */
  admit(flowHash: bigint, signal?: () => AbortSignal): Admission | Promise<Admission>;
  /** Takes a new configuration; a larger limit lets waiting requests in at once. */
  configure(config: QueueSetConfig): void;
  readonly config: QueueSetConfig;
  /** Requests executing now. */
  readonly executing: number;
  /** Requests waiting now. */
  readonly waiting: number;
}

interface Waiting {
  readonly startTag: number;
  readonly enqueuedAt: number;
  settle(admission: Admission): void;
}

interface Queue {
  readonly requests: Waiting[];
  /** The finish tag of the last request queued here: the next one starts no earlier. */
  lastFinish: number;
}

/** Creates the queues of a level. */
export function createQueueSet(initial: QueueSetConfig): QueueSet {
  let config = initial;
  let executing = 0;
  let waiting = 0;
  let virtualTime = 0;
  const queues: Queue[] = [];
  const ensureQueues = (): void => {
    while (queues.length < config.queues) queues.push({ requests: [], lastFinish: virtualTime });
  };
  ensureQueues();

  const release = (): void => {
    executing--;
    dispatch();
  };

  const grant = (w: Waiting): void => {
    executing++;
    w.settle({ kind: 'execute', waitedMs: performance.now() - w.enqueuedAt, queued: true, release: once(release) });
  };

  function dispatch(): void {
    while (waiting > 0 && executing < config.concurrencyLimit) {
      let best: Queue | undefined;
      for (const q of queues) {
        const head = q.requests[0];
        if (head !== undefined && (best === undefined || head.startTag < best.requests[0]!.startTag)) best = q;
      }
      if (best === undefined) return;
      const next = best.requests.shift()!;
      waiting--;
      virtualTime = Math.max(virtualTime, next.startTag);
      grant(next);
    }
  }

  const remove = (q: Queue, w: Waiting): boolean => {
    const i = q.requests.indexOf(w);
    if (i < 0) return false;
    q.requests.splice(i, 1);
    waiting--;
    return true;
  };

  return {
    admit(flowHash, signal) {
      if (executing < config.concurrencyLimit && waiting === 0) {
        executing++;
        return { kind: 'execute', waitedMs: 0, queued: false, release: once(release) };
      }
      if (config.queues === 0) return { kind: 'reject', reason: 'concurrency-limit', waitedMs: 0 };
      ensureQueues();
      const hand = dealHand(flowHash, config.queues, config.handSize);
      let queue = queues[hand[0]!]!;
      for (const i of hand) if (queues[i]!.requests.length < queue.requests.length) queue = queues[i]!;
      if (queue.requests.length >= config.queueLengthLimit) return { kind: 'reject', reason: 'queue-full', waitedMs: 0 };
      const startTag = Math.max(virtualTime, queue.lastFinish);
      queue.lastFinish = startTag + 1;
      return new Promise<Admission>((resolve) => {
        const enqueuedAt = performance.now();
        let timer: NodeJS.Timeout | undefined;
        let abortSignal: AbortSignal | undefined;
        const onAbort = (): void => {
          if (remove(queue, w)) w.settle({ kind: 'reject', reason: 'cancelled', waitedMs: performance.now() - enqueuedAt });
        };
        const w: Waiting = {
          startTag,
          enqueuedAt,
          settle(admission) {
            if (timer !== undefined) clearTimeout(timer);
            abortSignal?.removeEventListener('abort', onAbort);
            resolve(admission);
          },
        };
        queue.requests.push(w);
        waiting++;
        timer = setTimeout(() => {
          if (remove(queue, w)) w.settle({ kind: 'reject', reason: 'time-out', waitedMs: performance.now() - enqueuedAt });
        }, config.waitLimitMs);
        abortSignal = signal?.();
        if (abortSignal?.aborted) onAbort();
        else abortSignal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    configure(next) {
      config = next;
      ensureQueues();
      dispatch();
    },
    get config() {
      return config;
    },
    get executing() {
      return executing;
    },
    get waiting() {
      return waiting;
    },
  };
}

/** A release that counts once however often it is called. */
function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
