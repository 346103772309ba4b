/**
 * Durability after a crash, checked directly on what a LIST right after the restart shows (before any client writes
 * again): the README's promise that no acknowledged write is lost, in the plainest terms.
 *
 * - An object's last acknowledged write (no other write to it could be ordered after it) is there, with the value
 *   and the resourceVersion it was acknowledged with; after a last acknowledged delete, the object is absent.
 * - Whatever is there was written by someone, and if that write was acknowledged, at the resourceVersion it was
 *   acknowledged with.
 *
 * Linearizability of the whole history says all this and more; this check names the lost write when it fails.
 */
import { isMutation, type ListOutput, type RecordedOperation } from './history-operation.js';

/** True when the operation certainly changed nothing (its answer said why not). */
function certainlyNoOp(op: RecordedOperation): boolean {
  const k = op.output.kind;
  return k === 'exists' || k === 'notFound' || k === 'conflict';
}

/**
 * Checks the objects of `names` in `after` (a LIST made after a restart, before any other request) against every
 * operation made before it. `deadline(op)` is the latest time an unanswered operation could take effect (Infinity
 * when nothing bounds it, as for a write an etcd cluster may still commit). Returns the violations.
 */
export function checkDurability(
  before: readonly RecordedOperation[],
  after: ListOutput,
  names: readonly string[],
  deadline: (op: RecordedOperation) => number,
): string[] {
  const out: string[] = [];
  const listed = new Map(after.items.map((i) => [i.name, i]));
  const byName = new Map<string, RecordedOperation[]>();
  for (const op of before) {
    if (op.name === undefined || !isMutation(op) || certainlyNoOp(op)) continue;
    let list = byName.get(op.name);
    if (list === undefined) byName.set(op.name, (list = []));
    list.push(op);
  }
  for (const name of names) {
    const writes = byName.get(name) ?? [];
    const found = listed.get(name);
    if (found !== undefined) {
      const writer = writes.find((w) => (w.input as { value?: string }).value === found.value);
      if (writer === undefined) out.push(`${name} is there with ${found.value}@${found.rv}, which no write of the run set`);
      else if (writer.output.kind === 'written' && writer.output.rv !== found.rv) {
        out.push(`${name} holds ${found.value} at resourceVersion ${found.rv}, but ${writer.client}'s ${writer.verb} was acknowledged at ${writer.output.rv}`);
      }
    }
    // The last acknowledged write: every other write to the object was answered before it was invoked.
    const acked = writes.filter((w) => w.output.kind === 'written' || w.output.kind === 'deleted');
    const settled = (w: RecordedOperation): number => (w.output.kind === 'unknown' ? Math.max(w.return, deadline(w)) : w.return);
    const last = acked.find((a) => writes.every((w) => w === a || settled(w) < a.call));
    if (last === undefined) continue;
    if (last.output.kind === 'deleted') {
      if (found !== undefined) out.push(`${name} was deleted (acknowledged to ${last.client}) and is back after the restart as ${found.value}@${found.rv}`);
      continue;
    }
    const want = last.output as { rv: number };
    const value = (last.input as { value: string }).value;
    if (found === undefined) out.push(`the acknowledged ${last.verb} of ${name} (${value}@${want.rv}, by ${last.client}) is lost: the object is gone after the restart`);
    else if (found.value !== value || found.rv !== want.rv) {
      out.push(`the acknowledged ${last.verb} of ${name} (${value}@${want.rv}, by ${last.client}) is lost: found ${found.value}@${found.rv} after the restart`);
    }
  }
  return out;
}
