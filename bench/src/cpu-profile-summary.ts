/**
 * A text summary of a V8 CPU profile (node's `--cpu-prof` output) over one time window: the frames where the
 * samples of that window landed (self time), the files they belong to, and the share of garbage collection and of
 * idle time. The request-cost benchmark records the window of each phase on the monotonic clock V8 stamps its
 * samples with (process.hrtime on Linux), so one profile of a server's whole run is cut into one summary per phase.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of a `.cpuprofile` read here. */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A window of the monotonic clock, in microseconds. */
export interface ProfileWindow {
  readonly fromMicros: number;
  readonly toMicros: number;
}

/** Now on the clock V8 stamps profile samples with, in microseconds. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** A frame's file relative to the repository (or its node: name), short enough for a line. */
function fileOf(url: string, root: string): string {
  if (url === '') return '';
  if (!url.startsWith('file:')) return url;
  const rel = relative(root, fileURLToPath(url));
  return rel.replace(/^packages\/server\/dist\//, '').replace(/^node_modules\//, 'npm:');
}

/**
 * The summary lines of `profilePath` within `window`: the busy share (samples not idle), then the `top` frames by
 * self time, the `top` files, and the `top` frames of the project's own code by total time (the samples with the
 * frame anywhere on their stack: a text flame graph's widest bars), each as a percentage of the busy samples.
 */
export function summarizeProfile(profilePath: string, window: ProfileWindow, root: string, top = 15): string[] {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  const byFrame = new Map<string, number>();
  const byFile = new Map<string, number>();
  const total = new Map<string, number>();
  const keyOf = (frame: CpuProfile['nodes'][number]['callFrame']): { key: string; file: string } => {
    const file = fileOf(frame.url, root);
    return { key: file === '' ? frame.functionName : `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`, file };
  };
  let time = profile.startTime;
  let busy = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < window.fromMicros || time > window.toMicros) continue;
    const frame = nodes.get(profile.samples[i]!);
    if (frame === undefined) continue;
    if (frame.functionName === '(idle)') {
      idle++;
      continue;
    }
    busy++;
    const { key, file } = keyOf(frame);
    byFrame.set(key, (byFrame.get(key) ?? 0) + 1);
    const fileKey = file === '' ? frame.functionName : file;
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + 1);
    // Each project frame on the stack once, however deep its recursion.
    const onStack = new Set<string>();
    for (let id: number | undefined = profile.samples[i]!; id !== undefined; id = parents.get(id)) {
      const f = nodes.get(id)!;
      if (!f.url.startsWith('file:') || f.url.includes('/node_modules/')) continue;
      onStack.add(keyOf(f).key);
    }
    for (const k of onStack) total.set(k, (total.get(k) ?? 0) + 1);
  }
  const share = (n: number): string => `${((100 * n) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
  const ranked = (m: Map<string, number>): [string, number][] => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `  ${busy} busy samples, ${idle} idle (${((100 * busy) / Math.max(1, busy + idle)).toFixed(0)}% busy)`,
    '  self time by frame:',
    ...ranked(byFrame).map(([k, n]) => `    ${share(n)}  ${k}`),
    '  self time by file:',
    ...ranked(byFile).map(([k, n]) => `    ${share(n)}  ${k}`),
    '  total time by frame of the project:',
    ...[...total].sort((a, b) => b[1] - a[1]).slice(0, 2 * top).map(([k, n]) => `    ${share(n)}  ${k}`),
  ];
}
