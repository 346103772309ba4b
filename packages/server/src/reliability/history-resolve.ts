/**
 * What became of writes that got no answer, as etcd's robustness tests settle it before checking linearizability:
 * every write's value is unique, so a change in the reference timeline carrying a write's value is that write, at
 * that resourceVersion, done before the first watcher saw it; a write whose value no watcher saw although watches
 * covered every revision it could have had never happened. Writes that stay undecided keep an unknown outcome, to be
 * settled by the linearizability search, and a deadline: for a server that owns its store (SQLite), the end of the
 * server's life, after which nothing it was doing can take effect.
 *
 * This only narrows what the search must consider; it cannot hide a violation: a watch that invented or lost a
 * change is caught by the watch checks, and a resolution the reads contradict fails linearizability.
 */
import type { RecordedOperation } from './history-operation.js';
import { isCovered, type Reference } from './history-reference.js';

/** How many unanswered writes were settled, and how. */
export interface Resolution {
  readonly ops: readonly RecordedOperation[];
  /** Found in the timeline: they happened. */
  readonly happened: number;
  /** Absent from a fully watched range: they did not happen. */
  readonly vanished: number;
  /** Still unknown (deletes, whose effect carries no value, and writes in unwatched ranges). */
  readonly unknown: number;
}

/**
 * Settles unanswered writes. `deadline(op)` is the latest time an unanswered operation could take effect (Infinity
 * when nothing bounds it); `lastRevision` is the highest revision the run's final reads were at.
 */
export function resolveUnanswered(
  ops: readonly RecordedOperation[],
  reference: Reference,
  deadline: (op: RecordedOperation) => number,
  lastRevision: number,
): Resolution {
  const byValue = new Map<string, (typeof reference.changes)[number]>();
  for (const c of reference.changes) if (c.type !== 'DELETED') byValue.set(`${c.name}\u0000${c.value}`, c);
  // The highest revision answered before each unanswered write was invoked: its own revision must be above it.
  const answered = ops
    .flatMap((op) => (op.output.kind === 'written' || op.output.kind === 'list' ? [{ at: op.return, rv: op.output.rv }] : []))
    .sort((a, b) => a.at - b.at);
  const floorAt = (t: number): number => {
    let floor = 0;
    for (const a of answered) {
      if (a.at >= t) break;
      floor = Math.max(floor, a.rv);
    }
    return floor;
  };
  let happened = 0;
  let vanished = 0;
  let unknown = 0;
  const out: RecordedOperation[] = [];
  for (const op of ops) {
    const input = op.input;
    if (op.output.kind !== 'unknown' || input === undefined || input.kind === 'read') {
      out.push(op);
      continue;
    }
    const limit = Math.max(op.call, deadline(op));
    if (input.kind === 'create' || input.kind === 'write') {
      const change = byValue.get(`${op.name}\u0000${input.value}`);
      if (change !== undefined) {
        happened++;
        out.push({ ...op, output: { kind: 'written', rv: change.rv, created: change.type === 'ADDED' }, return: Math.max(op.call, Math.min(limit, change.firstSeen)) });
        continue;
      }
      if (isCovered(reference, floorAt(op.call), lastRevision)) {
        vanished++;
        continue;
      }
    }
    unknown++;
    out.push({ ...op, return: limit });
  }
  return { ops: out, happened, vanished, unknown };
}
