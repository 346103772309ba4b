/**
 * The queues of one limited priority level (k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset, 1.27):
 * requests occupy seats — as many as their work estimate says — and at most `concurrencyLimit` seats are occupied
 * at once. Beyond that a request waits in the queue of its flow's shuffle-sharded hand that holds the least work,
 * or is rejected when that queue holds `queueLengthLimit` requests (at once, for a level whose limit response is
 * Reject). A request wider than the whole limit runs alone.
 *
 * Freed seats go by fair queuing in seat-seconds: a virtual clock R advances, per active queue, at the rate the
 * level's seats could serve it; each queue's next request is due at R(queue) + its work (its initial seats × an
 * estimated 3 ms of service, plus its final seats × their additional latency), and the queue due first dispatches,
 * unless its head needs more seats than are free (then nothing dispatches until they are). A finished request
 * corrects its queue by its actual service time. Final seats stay taken for their additional latency after the
 * request finished. A request that waits longer than `waitLimitMs`, or whose client goes away, leaves its queue.
 * A queue exists only while it holds, runs or keeps seats for requests: an idle queue has no state worth keeping
 * (it restarts at the present virtual time), so memory and dispatching grow with the busy queues, not the deck.
 *
 * The seats occupied or waited for are integrated over time for the level's seat demand (borrowing). Seat-seconds
 * are plain floating-point numbers here: kube's fixed-point meter and its epoch advances guard a uint64 against
 * overflow, which a double does not need at these rates.
 */
import { createDealer } from './shuffle-sharding.js';
import { createSeatDemandIntegrator, type SeatDemandIntegrator } from './seat-demand.js';
import { maxSeatsOf, minimumWork, type WorkEstimate } from './work-estimate.js';

/** How a limited level queues and how many seats it has now. */
export interface QueueSetConfig {
  /** The seats of the level now (its current limit). */
  readonly concurrencyLimit: number;
  /** 0 for a level whose limit response is Reject. */
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
  readonly waitLimitMs: number;
}

/** Why a request was not executed (the `reason` label of `apiserver_flowcontrol_rejected_requests_total`). */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** The outcome of asking for seats. */
export type Admission =
  | {
    readonly kind: 'execute';
    readonly waitedMs: number;
    /** Whether the request waited in a queue before it got its seats. */
    readonly queued: boolean;
    /** The seats it occupies. */
    readonly seats: number;
    /** Ends its execution (once); its final seats, if any, stay taken for their additional latency. */
    release(): void;
  }
  | { readonly kind: 'reject'; readonly reason: RejectReason; readonly waitedMs: number };

/** A request asking for seats. */
export interface SeatRequest {
  readonly flowHash: bigint;
  /** Its work; one seat by default. */
  readonly estimate?: WorkEstimate;
  /** Aborts a wait in a queue. */
  readonly signal?: () => AbortSignal;
  /** Told the length of its queue once it is queued (kube's request_queue_length_after_enqueue). */
  readonly enqueued?: (queueLength: number) => void;
  /** Told each time dispatching stops at it because its seats are not free. */
  readonly notAccommodated?: () => void;
  /** Told when its seats are given back, after the additional latency of its final seats. */
  readonly seatsFreed?: () => void;
}

/** The clock a queue set runs on (real time by default; tests pass their own). */
export interface QueueSetClock {
  /** Milliseconds. */
  now(): number;
  /** Runs `fn` after `ms`; the answer cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/** The real clock. */
export const realClock: QueueSetClock = {
  now: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** The queues of a level. */
export interface QueueSet {
  admit(request: SeatRequest): Admission | Promise<Admission>;
  /** Takes a new configuration: more seats let waiting requests in at once; queues beyond a smaller deck drain. */
  configure(config: QueueSetConfig): void;
  readonly config: QueueSetConfig;
  /** The integrator of the seats occupied or waited for (the borrowing adjustment resets it each period). */
  readonly seatDemand: SeatDemandIntegrator;
  /** Requests executing now. */
  readonly executing: number;
  /** Requests waiting now. */
  readonly waiting: number;
  /** Seats occupied now, final seats included. */
  readonly seatsInUse: number;
  /** Nothing waits, nothing executes. */
  isIdle(): boolean;
}

/** kube's estimatedServiceDuration: the service time every request is assumed to take until it finishes. */
const estimatedServiceSeconds = 0.003;

interface Waiting {
  readonly request: SeatRequest;
  estimate: WorkEstimate;
  /** Seat-seconds of its final phase (kept when its final seats are capped). */
  readonly finalWork: number;
  /** Seat-seconds of its whole work, in the virtual world. */
  readonly totalWork: number;
  readonly arrivalR: number;
  readonly arrivalMs: number;
  readonly queue: Queue;
  /** Set when it was answered before anyone waited for it. */
  answer?: Admission;
  settle?: (admission: Admission) => void;
}

interface Queue {
  /** Its place in the deck. */
  readonly index: number;
  readonly requests: Waiting[];
  /** R at which its next request is due. */
  nextDispatchR: number;
  executing: number;
  seatsInUse: number;
  /** Seat-seconds of the work waiting in it. */
  waitingWork: number;
  /** Seats its waiting requests ask for. */
  waitingSeats: number;
}

const isActive = (q: Queue): boolean => q.requests.length > 0 || q.executing > 0;

/** Creates the queues of a level. */
export function createQueueSet(initial: QueueSetConfig, clock: QueueSetClock = realClock): QueueSet {
  let config = initial;
  /** The queues that hold, run or keep seats for requests, by their place in the deck. */
  const queues = new Map<number, Queue>();
  const seatDemand = createSeatDemandIntegrator(() => clock.now());
  let executing = 0;
  let waiting = 0;
  let seatsInUse = 0;
  let seatsWaiting = 0;
  /** Seats occupied by requests of queues, and waited for: the rate of the virtual clock. */
  let queuedSeats = 0;
  let activeQueues = 0;
  let currentR = 0;
  let lastMs = clock.now();
  let robinIndex = -1;
  let enqueues = 0;

  /** Changes a queue, keeping the count of active queues. */
  const change = (q: Queue, mutate: () => void): void => {
    const before = isActive(q);
    mutate();
    activeQueues += Number(isActive(q)) - Number(before);
  };

  /** Advances R over the time since the last change, at the rate the state since then gave each active queue. */
  const syncTime = (): void => {
    const now = clock.now();
    const dt = (now - lastMs) / 1000;
    lastMs = now;
    if (activeQueues > 0) currentR += (Math.min(queuedSeats, config.concurrencyLimit) / activeQueues) * dt;
  };

  const noteDemand = (): void => seatDemand.set(seatsInUse + seatsWaiting);

  /** Dispatch in the virtual world never precedes arrival (kube's anti-windup bound). */
  const boundNextDispatch = (q: Queue): void => {
    const head = q.requests[0];
    if (head !== undefined && q.nextDispatchR < head.arrivalR) q.nextDispatchR = head.arrivalR;
  };

  const canAccommodate = (seats: number): boolean => {
    if (seats > config.concurrencyLimit) return executing === 0;
    return seatsInUse + seats <= config.concurrencyLimit;
  };

  const answer = (w: Waiting, admission: Admission): void => {
    if (w.settle !== undefined) w.settle(admission);
    else w.answer = admission;
  };

  /** Takes a waiting request out of its queue; false when it is no longer there. */
  const dequeue = (w: Waiting): boolean => {
    const q = w.queue;
    const i = q.requests.indexOf(w);
    if (i < 0) return false;
    const seats = maxSeatsOf(w.estimate);
    change(q, () => q.requests.splice(i, 1));
    q.waitingWork -= w.totalWork;
    q.waitingSeats -= seats;
    waiting--;
    seatsWaiting -= seats;
    queuedSeats -= seats;
    boundNextDispatch(q);
    noteDemand();
    forgetIfIdle(q);
    return true;
  };

  /** Forgets a queue once nothing is left of it. */
  const forgetIfIdle = (q: Queue): void => {
    if (!isActive(q) && q.seatsInUse === 0) queues.delete(q.index);
  };

  /** The execution of a request that got `seats` seats (from `q`, or none for a level without queues). */
  const execution = (request: SeatRequest, estimate: WorkEstimate, q: Queue | undefined, waitedMs: number, queued: boolean): Admission => {
    const seats = maxSeatsOf(estimate);
    const started = clock.now();
    let released = false;
    const freeSeats = (): void => {
      seatsInUse -= seats;
      if (q !== undefined) {
        q.seatsInUse -= seats;
        queuedSeats -= seats;
      }
      noteDemand();
      if (q !== undefined) forgetIfIdle(q);
      request.seatsFreed?.();
      dispatchAsMuchAsPossible();
    };
    return {
      kind: 'execute', waitedMs, queued, seats,
      release() {
        if (released) return;
        released = true;
        syncTime();
        executing--;
        if (q !== undefined) {
          change(q, () => q.executing--);
          // The queue was charged the estimated service time; it is corrected by the actual one.
          q.nextDispatchR -= estimate.initialSeats * (estimatedServiceSeconds - (clock.now() - started) / 1000);
          boundNextDispatch(q);
        }
        if (estimate.additionalLatencyMs > 0) {
          clock.after(estimate.additionalLatencyMs, () => {
            syncTime();
            freeSeats();
          });
        } else {
          freeSeats();
        }
      },
    };
  };

  /**
   * Dispatches the request due first, if its seats are free; false when nothing was dispatched. Of queues due at
   * the same time, the first after the last one dispatched from, in deck order, goes (kube's round robin).
   */
  const dispatchOne = (): boolean => {
    let best: Queue | undefined;
    let bestFinish = Infinity;
    let bestRank = Infinity;
    const deck = Math.max(config.queues, 1);
    for (const q of queues.values()) {
      const head = q.requests[0];
      if (head === undefined) continue;
      const finish = q.nextDispatchR + head.totalWork;
      const rank = (((q.index - robinIndex - 1) % deck) + deck) % deck;
      if (finish < bestFinish || (finish === bestFinish && rank < bestRank)) {
        bestFinish = finish;
        bestRank = rank;
        best = q;
      }
    }
    if (best === undefined) return false;
    const q = best;
    const head = q.requests[0]!;
    if (!canAccommodate(maxSeatsOf(head.estimate))) {
      head.request.notAccommodated?.();
      return false;
    }
    // Counted as executing before it leaves the queue, so that the queue is not forgotten in between.
    change(q, () => q.executing++);
    dequeue(head);
    // Final seats beyond the whole limit are narrowed to it and stretched in time: the same final work.
    if (head.estimate.finalSeats > config.concurrencyLimit && config.concurrencyLimit > 0) {
      const finalSeats = config.concurrencyLimit;
      head.estimate = { ...head.estimate, finalSeats, additionalLatencyMs: (head.finalWork / finalSeats) * 1000 };
    }
    robinIndex = q.index;
    const seats = maxSeatsOf(head.estimate);
    executing++;
    seatsInUse += seats;
    queuedSeats += seats;
    q.seatsInUse += seats;
    q.nextDispatchR += head.totalWork;
    boundNextDispatch(q);
    noteDemand();
    // Dispatched while its admission was still being decided: it never waited.
    const queued = head.settle !== undefined;
    answer(head, execution(head.request, head.estimate, q, queued ? clock.now() - head.arrivalMs : 0, queued));
    return true;
  };

  function dispatchAsMuchAsPossible(): void {
    while (waiting > 0 && seatsInUse < config.concurrencyLimit && dispatchOne());
  }

  /** The queue of the flow's hand holding the least waiting work, starting the scan at a rotating offset. */
  let deal = createDealer(config.queues, config.handSize);
  const shuffleShard = (flowHash: bigint): Queue => {
    const hand = deal(flowHash);
    const offset = enqueues++ % hand.length;
    let best = hand[offset]!;
    let bestWork = queues.get(best)?.waitingWork ?? 0;
    for (let k = 1; k < hand.length; k++) {
      const i = hand[(offset + k) % hand.length]!;
      const work = queues.get(i)?.waitingWork ?? 0;
      if (work < bestWork) {
        best = i;
        bestWork = work;
      }
    }
    let q = queues.get(best);
    if (q === undefined) queues.set(best, (q = { index: best, requests: [], nextDispatchR: currentR, executing: 0, seatsInUse: 0, waitingWork: 0, waitingSeats: 0 }));
    return q;
  };

  return {
    admit(request) {
      syncTime();
      const estimate = request.estimate ?? minimumWork;
      const seats = maxSeatsOf(estimate);
      if (config.queues === 0) {
        if (!canAccommodate(seats)) return { kind: 'reject', reason: 'concurrency-limit', waitedMs: 0 };
        executing++;
        seatsInUse += seats;
        noteDemand();
        return execution(request, estimate, undefined, 0, false);
      }
      const q = shuffleShard(request.flowHash);
      if (seatsInUse >= config.concurrencyLimit && q.requests.length >= config.queueLengthLimit) {
        forgetIfIdle(q);
        return { kind: 'reject', reason: 'queue-full', waitedMs: 0 };
      }
      const finalWork = estimate.finalSeats * (estimate.additionalLatencyMs / 1000);
      const w: Waiting = {
        request, estimate, finalWork, totalWork: estimate.initialSeats * estimatedServiceSeconds + finalWork,
        arrivalR: currentR, arrivalMs: clock.now(), queue: q,
      };
      // A queue that was idle starts at the present virtual time.
      if (!isActive(q)) q.nextDispatchR = currentR;
      change(q, () => q.requests.push(w));
      q.waitingWork += w.totalWork;
      q.waitingSeats += seats;
      waiting++;
      seatsWaiting += seats;
      queuedSeats += seats;
      boundNextDispatch(q);
      noteDemand();
      request.enqueued?.(q.requests.length);
      dispatchAsMuchAsPossible();
      if (w.answer !== undefined) return w.answer;
      return new Promise<Admission>((resolve) => {
        let cancelTimer: () => void = () => {};
        let abortSignal: AbortSignal | undefined;
        const leave = (reason: RejectReason): void => {
          syncTime();
          if (!dequeue(w)) return;
          answer(w, { kind: 'reject', reason, waitedMs: clock.now() - w.arrivalMs });
          // The request that left may have been the one whose seats were awaited.
          dispatchAsMuchAsPossible();
        };
        const onAbort = (): void => leave('cancelled');
        w.settle = (admission) => {
          cancelTimer();
          abortSignal?.removeEventListener('abort', onAbort);
          resolve(admission);
        };
        cancelTimer = clock.after(config.waitLimitMs, () => leave('time-out'));
        abortSignal = request.signal?.();
        if (abortSignal?.aborted) onAbort();
        else abortSignal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    configure(next) {
      syncTime();
      if (next.queues !== config.queues || next.handSize !== config.handSize) deal = createDealer(next.queues, next.handSize);
      config = next;
      dispatchAsMuchAsPossible();
    },
    get config() {
      return config;
    },
    seatDemand,
    get executing() {
      return executing;
    },
    get waiting() {
      return waiting;
    },
    get seatsInUse() {
      return seatsInUse;
    },
    isIdle: () => waiting === 0 && executing === 0,
  };
}
