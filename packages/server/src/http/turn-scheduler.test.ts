import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTurnScheduler } from './turn-scheduler.js';

/** Holds the thread for `ms`, as a request served from memory does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('turn scheduler: a burst of work is spread over turns, so timers and I/O run in between; order is kept', async () => {
  const scheduler = createTurnScheduler({ budgetMs: 5 });
  const order: number[] = [];
  let doneWhenTimerFired = -1;
  setTimeout(() => (doneWhenTimerFired = order.length), 0);
  await Promise.all(Array.from({ length: 20 }, (_, i) => scheduler.run(async () => {
    busy(2);
    order.push(i);
  })));
  assert.deepEqual(order, Array.from({ length: 20 }, (_, i) => i), 'first come, first served');
  assert.ok(doneWhenTimerFired >= 0 && doneWhenTimerFired < 10, `the timer waited for ${doneWhenTimerFired} of 20 tasks of 2 ms`);
});

test('turn scheduler: results and failures of tasks reach their callers', async () => {
  const scheduler = createTurnScheduler();
  assert.equal(await scheduler.run(async () => 42), 42);
  await assert.rejects(scheduler.run(async () => {
    throw new Error('task failed');
  }), /task failed/);
});

test('turn scheduler: once a slice is spent, the rest of the turn moves on without reading the clock', async () => {
  // A burst of thousands is common under overload: each task reading the CPU clock every turn it waits would make
  // the scheduler's own cost grow with the square of the burst.
  let clock = 0;
  let reads = 0;
  const scheduler = createTurnScheduler({ budgetMs: 5, now: () => (reads++, clock) });
  const tasks = 200;
  await Promise.all(Array.from({ length: tasks }, () => scheduler.run(async () => {
    clock += 3;
  })));
  // Each turn reads the clock for its marker, the two tasks that fit and the one that finds the slice spent.
  assert.ok(reads <= 3 * tasks, `${reads} clock reads for ${tasks} tasks`);
});

test('turn scheduler: the CPU clock is read only once the wall clock says the slice could be spent', async () => {
  // Reading the process's CPU time is a system call; a flood of cheap requests made one each.
  let cpu = 0;
  let wall = 0;
  let reads = 0;
  const scheduler = createTurnScheduler({ budgetMs: 5, now: () => (reads++, cpu), wall: () => wall });
  const started: number[] = [];
  await Promise.all(Array.from({ length: 100 }, (_, i) => scheduler.run(async () => {
    started.push(i);
    // Each task takes 0.5 ms of wall time, half of it on the CPU: ten fit a slice of wall time, twenty of CPU time.
    wall += 0.5;
    cpu += 0.25;
  })));
  assert.deepEqual(started, Array.from({ length: 100 }, (_, i) => i), 'first come, first served');
  // A slice reads the clock at its marker, once its wall budget is used (5 ms: 1.25 ms of CPU left), and again each
  // time the wall clock passes what was left: far fewer reads than tasks.
  assert.ok(reads < 40, `${reads} CPU clock reads for 100 tasks`);
  assert.ok(reads >= 5, `${reads} CPU clock reads: the budget was never checked`);
});
