/**
 * The time controllers read and wait on (k8s.io/utils/clock): the real clock, or a test's that moves only when
 * stepped, firing what became due (client-go's fake clock), so time-driven controllers (cleaners, expiry) are tested
 * without sleeping.
 */

/** A clock. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once the clock reads `at` or later; returns a cancel. */
  at(at: number, callback: () => void): () => void;
}

/** setTimeout's largest delay; longer waits are chained. */
const maxDelayMs = 2 ** 31 - 1;

/** The system clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  at(at, callback) {
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      const delay = at - Date.now();
      if (delay <= 0) {
        timer = undefined;
        callback();
        return;
      }
      timer = setTimeout(arm, Math.min(delay, maxDelayMs));
      timer.unref();
    };
    // A due callback still runs asynchronously, as a timer's would.
    timer = setTimeout(arm, 0);
    timer.unref();
    return () => {
      if (timer !== undefined) clearTimeout(timer);
    };
  },
};

/** A clock for tests. */
export interface FakeClock extends Clock {
  /** Moves the clock forward and runs every callback that became due, in time order. */
  step(ms: number): void;
  /** How many callbacks are waiting. */
  waiting(): number;
}

/** A fake clock starting at `start`. */
export function fakeClock(start: number): FakeClock {
  let time = start;
  let nextId = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const fire = (): void => {
    const due = [...pending.entries()].filter(([, p]) => p.at <= time).sort((a, b) => a[1].at - b[1].at);
    for (const [id, p] of due) {
      pending.delete(id);
      p.callback();
    }
  };
  return {
    now: () => time,
    at(at, callback) {
      const id = nextId++;
      pending.set(id, { at, callback });
      if (at <= time) queueMicrotask(fire);
      return () => {
        pending.delete(id);
      };
    },
    step(ms) {
      time += ms;
      fire();
    },
    waiting: () => pending.size,
  };
}
