import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTurnLanes, createTurnScheduler } from './turn-scheduler.js';

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

test('turn lanes: urgent tasks start before deferred ones queued earlier, each lane in order', async () => {
  // Under saturation the requests still to be refused must not wait behind admitted work queued before them.
  let clock = 0;
  const lanes = createTurnLanes({ budgetMs: 5, now: () => clock });
  const order: string[] = [];
  const task = (name: string) => async (): Promise<void> => {
    order.push(name);
    clock += 1;
  };
  const runs = [
    ...Array.from({ length: 6 }, (_, i) => lanes.deferred.run(task(`d${i}`))),
    ...Array.from({ length: 6 }, (_, i) => lanes.urgent.run(task(`u${i}`))),
  ];
  await Promise.all(runs);
  // Five tasks of 1 ms fit a slice of 5 ms; every eighth start of a slice would be deferred, and none is reached.
  assert.deepEqual(order, ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'd0', 'd1', 'd2', 'd3', 'd4', 'd5']);
});

test('turn lanes: while both lanes wait, deferred work gets every n-th start, so it never stops', async () => {
  let clock = 0;
  const lanes = createTurnLanes({ budgetMs: 1000, now: () => clock, deferredEvery: 4 });
  const order: string[] = [];
  const task = (name: string) => async (): Promise<void> => {
    order.push(name);
    clock += 1;
  };
  await Promise.all([
    ...Array.from({ length: 4 }, (_, i) => lanes.deferred.run(task(`d${i}`))),
    ...Array.from({ length: 9 }, (_, i) => lanes.urgent.run(task(`u${i}`))),
  ]);
  assert.deepEqual(order, ['u0', 'u1', 'u2', 'd0', 'u3', 'u4', 'u5', 'd1', 'u6', 'u7', 'u8', 'd2', 'd3']);
});

test('turn lanes: results and failures of deferred tasks reach their callers', async () => {
  const lanes = createTurnLanes();
  assert.equal(await lanes.deferred.run(async () => 'admitted'), 'admitted');
  await assert.rejects(lanes.deferred.run(async () => {
    throw new Error('deferred task failed');
  }), /deferred task failed/);
});
