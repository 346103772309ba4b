/**
 * A preload for the server under a benchmark (`NODE_OPTIONS=--import=<this file>`, with `SVC_BENCH_LOOP_FILE`
 * naming where to write): a 2 ms interval timer notes every turn of the event loop that ran 20 ms or more, with its
 * wall time and the CPU time the process used meanwhile. On a busy machine the wall time grows with the other
 * processes' load; the CPU time is how long the turn held the loop when the server has a core to itself (it counts
 * the process's other threads too: garbage collection helpers, a decoding thread). Only the main thread's loop is
 * watched: a preload runs in worker threads too, and a decoding thread's long turns hold no client.
 */
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env['SVC_BENCH_LOOP_FILE'];
if (file !== undefined && isMainThread) {
  const cpuMs = (): number => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  let lastWall = performance.now();
  let lastCpu = cpuMs();
  const timer = setInterval(() => {
    const wall = performance.now();
    const cpu = cpuMs();
    const turn = wall - lastWall - 2;
    if (turn >= 20) appendFileSync(file, `${Date.now()} ${turn.toFixed(1)} ${(cpu - lastCpu).toFixed(1)}\n`);
    lastWall = wall;
    lastCpu = cpu;
  }, 2);
  timer.unref();
}
