/**
 * How long request work may hold the event loop at a stretch. kube-apiserver serves each request on a goroutine
 * that Go's scheduler preempts, so applying a configuration of a hundred thousand keys there never delays a
 * `/livez`; Node runs everything on one thread, and work proportional to a large body (merging, field sets,
 * validation of huge maps) would hold every other client for its whole length. Such work is written in steps
 * ({@link Steps}), and between steps it gives the loop back once it has run {@link turnBudgetMs} in this turn;
 * the write path gives it back after each step that ran that long ({@link yieldAfter}). Other requests, new
 * connections and health checks are served meanwhile, and small requests never reach the budget and never wait.
 * No library does this for Node's loop, so it is written here.
 */

/** Wall-clock time (ms) work may run in one turn of the event loop before it yields. */
export const turnBudgetMs = 10;

/** When the current stretch of work began (-1: no stretch measured in this turn yet). */
let stretchStart = -1;

function nextTurn(): void {
  stretchStart = -1;
}

/** Objects whose JSON is at least this long (characters) cost a turn of their own to decode or encode. */
export const largeObjectChars = 256 * 1024;

/**
 * True once the work of this turn of the event loop has run for the budget. The first call of a turn starts the
 * clock (at `since`, when the caller knows its work began earlier: a body decoded before the first call), and a
 * marker queued in the check phase stops it when the turn ends.
 */
export function turnSpent(since?: number): boolean {
  const now = performance.now();
  if (stretchStart < 0) {
    stretchStart = since ?? now;
    setImmediate(nextTurn);
  }
  return now - stretchStart >= turnBudgetMs;
}

/** Gives the event loop back for one turn. */
export function yieldTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Gives the event loop back for one turn when a synchronous step that began at `since` (performance.now()) ran for
 * the budget: a step over a large object yields after it, a small request never waits.
 */
export async function yieldAfter(since: number): Promise<void> {
  if (performance.now() - since >= turnBudgetMs) await yieldTurn();
}

/**
 * Gives the event loop back for one turn (I/O, timers, other requests) when this turn's budget is spent; `since`
 * as for {@link turnSpent}.
 */
export async function yieldIfSpent(since?: number): Promise<void> {
  if (turnSpent(since)) await yieldTurn();
}

/**
 * How many items or properties of one list or map a walk in steps visits between two points where it may give
 * the loop back: few enough that a step over items that are maps themselves stays well inside the budget.
 */
export const entriesPerStep = 256;

/** A computation in steps: each `yield` is a point where it may give the event loop back. */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end at once (callers that are synchronous, and tests). */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Runs `steps` to the end at once, counting the points where it could have given the loop back (tests). */
export function runStepsCounted<T>(steps: Steps<T>): { value: T; yields: number } {
  let yields = 0;
  for (;;) {
    const step = steps.next();
    if (step.done === true) return { value: step.value, yields };
    yields++;
  }
}

/** Runs `steps`, giving the event loop back between steps whenever a turn's budget is spent. */
export async function runStepsYielding<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await yieldIfSpent();
  }
}
