/**
 * Checks of the global revision across objects, which per-object linearizability cannot see. kube-apiserver's
 * resourceVersions are etcd revisions (or the SQLite log's row ids): one counter for the whole store, so
 *
 * - no two acknowledged writes share a resourceVersion;
 * - a write invoked after another write (or a LIST) was answered gets a higher resourceVersion, and a consistent
 *   LIST invoked after a write was answered is at that write's resourceVersion or later — in particular across a
 *   crash and restart: time never goes back;
 * - every object of a LIST has a resourceVersion no higher than the list's.
 */
import type { RecordedOperation } from './history-operation.js';

/** A revision an operation's answer pins down. */
interface Pinned {
  readonly op: RecordedOperation;
  readonly rv: number;
  /** A write's own revision (strictly above what came before) or a list's read revision (at or above). */
  readonly write: boolean;
}

/** Checks the global revision order; returns the violations. */
export function checkRevisions(ops: readonly RecordedOperation[]): string[] {
  const out: string[] = [];
  const pinned: Pinned[] = [];
  const writers = new Map<number, RecordedOperation>();
  for (const op of ops) {
    if (op.output.kind === 'written') {
      pinned.push({ op, rv: op.output.rv, write: true });
      const other = writers.get(op.output.rv);
      if (other !== undefined) out.push(`${other.client}'s ${other.verb} of ${other.name} and ${op.client}'s ${op.verb} of ${op.name} were both acknowledged at resourceVersion ${op.output.rv}`);
      writers.set(op.output.rv, op);
    } else if (op.output.kind === 'list') {
      pinned.push({ op, rv: op.output.rv, write: false });
      for (const item of op.output.items) {
        if (item.rv > op.output.rv) out.push(`a list at resourceVersion ${op.output.rv} (${op.client}) holds ${item.name} at ${item.rv}`);
      }
    }
  }
  const byReturn = [...pinned].sort((a, b) => a.op.return - b.op.return);
  const byCall = [...pinned].sort((a, b) => a.op.call - b.op.call);
  let i = 0;
  let highest: Pinned | undefined;
  for (const p of byCall) {
    while (i < byReturn.length && byReturn[i]!.op.return < p.op.call) {
      const q = byReturn[i++]!;
      if (highest === undefined || q.rv > highest.rv) highest = q;
    }
    if (highest === undefined) continue;
    const behind = p.write ? p.rv <= highest.rv : p.rv < highest.rv;
    if (behind) {
      const what = (x: Pinned): string => `${x.op.client}'s ${x.op.verb}${x.op.name === undefined ? '' : ` of ${x.op.name}`} on ${x.op.replica} life ${x.op.generation}`;
      out.push(`resourceVersion went back: ${what(p)} got ${p.rv} after ${what(highest)} had been answered with ${highest.rv}`);
    }
  }
  return out;
}
