/**
 * A text summary of a V8 CPU profile (node's `--cpu-prof` output) over one time window: the frames where the
 * samples of that window landed (self time), the files they belong to, and the share of garbage collection and of
 * idle time. The request-cost benchmark records the window of each phase on the monotonic clock V8 stamps its
 * samples with (process.hrtime on Linux), so one profile of a server's whole run is cut into one summary per phase.
 *
 * `node bench/dist/cpu-profile-summary.js <profile> [--phase=<label>] [--min-share=<percent, default 1>]` prints the
 * summary and the flame graph of each phase listed in `<profile>.phases.json` (as request-cost.js writes it), or of
 * the whole profile when there is no such file.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMain } from './support.js';

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

/** A profile read for summaries: frames by node id, each node's parent, and a frame's printed key. */
interface LoadedProfile {
  readonly profile: CpuProfile;
  readonly frames: Map<number, CpuProfile['nodes'][number]['callFrame']>;
  readonly parents: Map<number, number>;
  readonly keyOf: (frame: CpuProfile['nodes'][number]['callFrame']) => { key: string; file: string };
}

function loadProfile(profilePath: string, root: string): LoadedProfile {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  const keyOf = (frame: CpuProfile['nodes'][number]['callFrame']): { key: string; file: string } => {
    const file = fileOf(frame.url, root);
    return { key: file === '' ? frame.functionName : `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`, file };
  };
  return { profile, frames, parents, keyOf };
}

/** The node ids of the samples taken within `window`, in order. */
function samplesIn(profile: CpuProfile, window: ProfileWindow): number[] {
  const out: number[] = [];
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time >= window.fromMicros && time <= window.toMicros) out.push(profile.samples[i]!);
  }
  return out;
}

/**
 * The summary lines of `profilePath` within `window`: the busy share (samples not idle), then the `top` frames by
 * self time, the `top` files, and the `top` frames of the project's own code by total time (the samples with the
 * frame anywhere on their stack: a text flame graph's widest bars), each as a percentage of the busy samples.
 */
export function summarizeProfile(profilePath: string, window: ProfileWindow, root: string, top = 15): string[] {
  const { profile, frames: nodes, parents, keyOf } = loadProfile(profilePath, root);
  const byFrame = new Map<string, number>();
  const byFile = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const sample of samplesIn(profile, window)) {
    const frame = nodes.get(sample);
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
    for (let id: number | undefined = sample; id !== undefined; id = parents.get(id)) {
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

/** One frame of the top-down tree: its samples with it on top of the stack (self) and anywhere below (total). */
interface TreeNode {
  readonly key: string;
  self: number;
  total: number;
  readonly children: Map<string, TreeNode>;
}

/**
 * A text flame graph of `profilePath` within `window`, top-down: each line a frame with its total and self share of
 * the busy samples, its callees indented below it, widest first. Frames under `minShare` percent of the busy samples
 * are left out (their time stays in their caller's total), and so are the idle and program roots. A chain of frames
 * each holding all of its caller's time is printed on one line joined by `›`, so the hot paths reach where the time
 * goes without drowning in the wrappers above it.
 */
export function flameGraph(profilePath: string, window: ProfileWindow, root: string, minShare = 1): string[] {
  const { profile, frames: nodes, parents, keyOf } = loadProfile(profilePath, root);
  const top: TreeNode = { key: '', self: 0, total: 0, children: new Map() };
  for (const sample of samplesIn(profile, window)) {
    const leaf = nodes.get(sample);
    if (leaf === undefined || leaf.functionName === '(idle)') continue;
    const stack: string[] = [];
    for (let id: number | undefined = sample; id !== undefined; id = parents.get(id)) {
      const f = nodes.get(id)!;
      if (f.functionName !== '(root)') stack.push(keyOf(f).key);
    }
    top.total++;
    let at = top;
    for (let d = stack.length - 1; d >= 0; d--) {
      let child = at.children.get(stack[d]!);
      if (child === undefined) at.children.set(stack[d]!, (child = { key: stack[d]!, self: 0, total: 0, children: new Map() }));
      child.total++;
      at = child;
    }
    at.self++;
  }
  const busy = Math.max(1, top.total);
  const pct = (n: number): string => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
  const lines = [`  top-down, ${top.total} busy samples; total% self% frame (frames under ${minShare}% left out)`];
  const walk = (node: TreeNode, depth: number): void => {
    const chain = [node.key];
    let last = node;
    // Wrappers that pass all their time to one callee share a line with it.
    while (last.self === 0 && last.children.size === 1) {
      const only = [...last.children.values()][0]!;
      if (only.total !== last.total) break;
      chain.push(only.key);
      last = only;
    }
    lines.push(`  ${pct(node.total)} ${pct(last.self)} ${'  '.repeat(depth)}${chain.join(' › ')}`);
    for (const child of [...last.children.values()].sort((a, b) => b.total - a.total)) {
      if ((100 * child.total) / busy >= minShare) walk(child, depth + 1);
    }
  };
  for (const child of [...top.children.values()].sort((a, b) => b.total - a.total)) {
    if ((100 * child.total) / busy >= minShare) walk(child, 0);
  }
  return lines;
}

if (isMain(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { phase: { type: 'string' }, 'min-share': { type: 'string' } } });
  const path = positionals[0];
  if (path === undefined) throw new Error('usage: cpu-profile-summary.js <profile> [--phase=<label>] [--min-share=<percent>]');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  let phases: { label: string; fromMicros: number; toMicros: number }[];
  try {
    phases = JSON.parse(readFileSync(`${path}.phases.json`, 'utf8')) as typeof phases;
  } catch {
    phases = [{ label: 'whole profile', fromMicros: 0, toMicros: Number.MAX_SAFE_INTEGER }];
  }
  for (const phase of phases.filter((p) => values.phase === undefined || p.label === values.phase)) {
    process.stdout.write([`${phase.label}:`, ...summarizeProfile(path, phase, root), ...flameGraph(path, phase, root, Number(values['min-share'] ?? '1'))].join('\n') + '\n');
  }
}
