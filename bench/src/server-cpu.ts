/**
 * The CPU time of a process read from outside it: user plus system time of all its threads, from Linux's
 * `/proc/<pid>/stat`. Requests/s on a machine shared with other work swing with that work; the CPU a server spends
 * per request barely does, so the request-cost benchmark divides this by a fixed number of requests.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 nearly everywhere). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * Seconds of CPU process `pid` has used so far (all threads, user and system), or undefined where `/proc` is not
 * there to ask (not Linux) or the process is gone.
 */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: the fields are counted after its `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and the state.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / clockTicks() : undefined;
}
