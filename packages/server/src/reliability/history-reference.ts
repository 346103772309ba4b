/**
 * The reference timeline of a run: every change to the watched objects that anyone saw, by resourceVersion — the
 * events every watch chain delivered and the writes the server acknowledged with their resourceVersions. One
 * resourceVersion is one change (etcd's revision, the SQLite log's row id), so two different accounts of the same
 * resourceVersion are a violation in themselves. The watch checker holds each chain to this timeline over the range
 * it covers; the resolver uses it to learn what became of writes that got no answer.
 */
import type { RecordedOperation } from './history-operation.js';
import { lastDelivered, type WatchChain } from './history-watcher.js';

/** One change as the reference knows it. */
export interface ReferenceChange {
  readonly rv: number;
  readonly name: string;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly value: string;
  /** When a watcher first received it (Infinity when only an acknowledgement told of it). */
  readonly firstSeen: number;
}

/** The timeline and what it covers. */
export interface Reference {
  /** Changes in resourceVersion order. */
  readonly changes: readonly ReferenceChange[];
  readonly byRv: ReadonlyMap<number, ReferenceChange>;
  /** Resource version ranges (exclusive start, inclusive end) some chain watched without a break, merged. */
  readonly covered: readonly (readonly [number, number])[];
  /** Contradicting accounts of one resourceVersion. */
  readonly violations: readonly string[];
}

/** True when some chain watched every resourceVersion in (`from`, `to`]. */
export function isCovered(reference: Reference, from: number, to: number): boolean {
  return reference.covered.some(([start, end]) => start <= from && to <= end);
}

const same = (a: ReferenceChange, b: Omit<ReferenceChange, 'firstSeen'>): boolean =>
  a.name === b.name && a.type === b.type && a.value === b.value;

/** Builds the reference from the chains and the acknowledged writes. */
export function buildReference(chains: readonly WatchChain[], ops: readonly RecordedOperation[]): Reference {
  const byRv = new Map<number, ReferenceChange>();
  const violations: string[] = [];
  const add = (change: ReferenceChange, source: string): void => {
    const known = byRv.get(change.rv);
    if (known === undefined) {
      byRv.set(change.rv, change);
      return;
    }
    if (!same(known, change)) {
      violations.push(`resourceVersion ${change.rv} is two changes: ${known.type} ${known.name}=${known.value} and, per ${source}, ${change.type} ${change.name}=${change.value}`);
    } else if (change.firstSeen < known.firstSeen) {
      byRv.set(change.rv, change);
    }
  };
  for (const chain of chains) {
    for (const segment of chain.segments) {
      for (const e of segment.events) {
        if (e.type === 'BOOKMARK') continue;
        add({ rv: e.rv, name: e.name, type: e.type, value: e.value, firstSeen: e.at }, `chain ${chain.id}`);
      }
    }
  }
  for (const op of ops) {
    if (op.output.kind !== 'written' || op.name === undefined) continue;
    add({ rv: op.output.rv, name: op.name, type: op.output.created ? 'ADDED' : 'MODIFIED', value: (op.input as { value: string }).value, firstSeen: Infinity }, `the answer to ${op.client}'s ${op.verb}`);
  }
  const ranges = chains
    .map((c) => [c.start, lastDelivered(c)] as [number, number])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const covered: [number, number][] = [];
  for (const r of ranges) {
    const last = covered[covered.length - 1];
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else covered.push([r[0], r[1]]);
  }
  const changes = [...byRv.values()].sort((a, b) => a.rv - b.rv);
  return { changes, byRv, covered, violations };
}
