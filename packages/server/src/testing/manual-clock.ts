/**
 * A clock for tests of the queue sets and the flow controller: time moves only when the test advances it, and the
 * callbacks due by then run in their order.
 */
import type { QueueSetClock } from '../flowcontrol/queue-set.js';

/** A clock the test moves. */
export interface ManualClock extends QueueSetClock {
  /** Moves time forward by `ms`, running every callback due on the way. */
  advance(ms: number): void;
  /** Callbacks waiting. */
  readonly pending: number;
}

/** A clock at 0 with nothing scheduled. */
export function manualClock(): ManualClock {
  let now = 0;
  let seq = 0;
  const timers: { at: number; seq: number; fn: () => void }[] = [];
  return {
    now: () => now,
    after(ms, fn) {
      const timer = { at: now + ms, seq: seq++, fn };
      timers.push(timer);
      return () => {
        const i = timers.indexOf(timer);
        if (i >= 0) timers.splice(i, 1);
      };
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (next === undefined || next.at > until) break;
        timers.shift();
        now = next.at;
        next.fn();
      }
      now = until;
    },
    get pending() {
      return timers.length;
    },
  };
}
