/**
 * How the benchmark splits the machine's cores between the servers it measures and its load generator, and the
 * pinning itself (`taskset -a -p`, every thread of a running process). On two cores the servers (the API server,
 * the raw baselines) get core 0 and the generator's workers core 1, so the generator never takes the core the
 * server runs on; with more cores the generator gets all but core 0. Without `taskset` nothing is pinned and the
 * layout says so.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The cores of each side, as `taskset` lists them; undefined when nothing is pinned. */
export interface CpuLayout {
  readonly server: string;
  readonly generator: string;
}

let taskset: boolean | undefined;

function hasTaskset(): boolean {
  if (taskset === undefined) {
    try {
      execFileSync('taskset', ['-V'], { stdio: 'ignore' });
      taskset = true;
    } catch {
      taskset = false;
    }
  }
  return taskset;
}

/** The layout on this machine, or undefined (one core, or no `taskset`). */
export function cpuLayout(): CpuLayout | undefined {
  const cores = availableParallelism();
  if (cores < 2 || !hasTaskset()) return undefined;
  return { server: '0', generator: cores === 2 ? '1' : `1-${cores - 1}` };
}

/** Pins every thread of process `pid` to `cpus`; false when it could not be done. */
export function pinProcess(pid: number | undefined, cpus: string | undefined): boolean {
  if (pid === undefined || cpus === undefined || !hasTaskset()) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins a server process to the servers' cores of the layout (nothing without a layout). */
export function pinServer(pid: number | undefined): boolean {
  return pinProcess(pid, cpuLayout()?.server);
}

/** Words for the report: how the cores were split. */
export function describeLayout(): string {
  const layout = cpuLayout();
  if (layout === undefined) return `${availableParallelism()} cores, nothing pinned${hasTaskset() ? '' : ' (no taskset)'}`;
  return `${availableParallelism()} cores: servers on ${layout.server}, load generator on ${layout.generator}`;
}
