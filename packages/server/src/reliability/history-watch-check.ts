/**
 * Checks every watch chain of a run against the watch contract of kube-apiserver (and etcd under it):
 *
 * - ordered and duplicate-free: resourceVersions strictly increase along a chain, across reconnections and server
 *   restarts (a BOOKMARK may repeat the last one, never go below it);
 * - continuous: each reconnection asks for the last resourceVersion delivered, and the server never refuses one it
 *   delivered (no "too large resource version" after a restart: time never goes back); 410 Expired only when
 *   compaction is on and the resourceVersion is below the compacted revision the server names;
 * - gap-free and true: over the range a chain covers, its events are exactly the reference timeline's changes;
 * - coherent per object: ADDED only for an object the chain knows absent, MODIFIED and DELETED only for one it knows
 *   present, and a DELETED event carries the last state the chain saw;
 * - every acknowledged delete appears as a DELETED event where some chain covered it.
 */
import type { RecordedOperation } from './history-operation.js';
import { isCovered, type Reference, type ReferenceChange } from './history-reference.js';
import { compactRevisionOf, lastDelivered, type WatchChain, type WatchEventRecord } from './history-watcher.js';

/** Options of {@link checkWatchChains}. */
export interface WatchCheckOptions {
  /** Compaction runs during the run, so 410 Expired is a legal answer for an old enough resourceVersion. */
  readonly compaction: boolean;
}

/** What the check looked at and what it found. */
export interface WatchCheckResult {
  readonly chains: number;
  readonly segments: number;
  readonly events: number;
  readonly bookmarks: number;
  /** Transient error answers (5xx, 429) a chain reconnected after. */
  readonly transientErrors: number;
  /** Watches answered 410 Expired (their resourceVersion compacted). */
  readonly expired: number;
  readonly violations: readonly string[];
}

const show = (e: WatchEventRecord | ReferenceChange): string => `${e.type} ${e.name}=${e.value}@${e.rv}`;

/** Checks one chain; returns its violations. */
function checkChain(chain: WatchChain, reference: Reference, options: WatchCheckOptions, counts: { transient: number; expired: number }): string[] {
  const out: string[] = [];
  const where = `chain ${chain.id}`;
  let delivered = chain.start;
  const state = new Map(chain.initial);
  const seen: WatchEventRecord[] = [];
  chain.segments.forEach((segment, i) => {
    if (segment.from !== delivered) out.push(`${where}: connection ${i} asked for resourceVersion ${segment.from}, not the last delivered ${delivered}`);
    for (const e of segment.events) {
      if (e.type === 'BOOKMARK') {
        if (e.rv < delivered) out.push(`${where}: BOOKMARK at ${e.rv} after ${delivered} was delivered (back in time)`);
        delivered = Math.max(delivered, e.rv);
        continue;
      }
      if (e.rv <= delivered) {
        out.push(`${where}: ${show(e)} after ${delivered} was delivered (${e.rv === delivered ? 'duplicate' : 'out of order'}, connection ${i}, replica ${segment.replica} life ${segment.generation})`);
        continue;
      }
      delivered = e.rv;
      seen.push(e);
      const known = state.get(e.name);
      if (e.type === 'ADDED' && known !== undefined) out.push(`${where}: ${show(e)} for an object present since ${known.rv}`);
      if (e.type !== 'ADDED' && known === undefined) out.push(`${where}: ${show(e)} for an object the chain knows absent`);
      if (e.type === 'DELETED' && known !== undefined && known.value !== e.value) {
        out.push(`${where}: ${show(e)} carries ${e.value}, but the last state seen was ${known.value}@${known.rv}`);
      }
      if (e.type === 'DELETED') state.delete(e.name);
      else state.set(e.name, { rv: e.rv, value: e.value });
    }
    const end = segment.end;
    if (end === undefined) return;
    if (end.kind === 'expired') {
      counts.expired++;
      const compacted = compactRevisionOf(end.message);
      if (!options.compaction) out.push(`${where}: 410 Expired for resourceVersion ${segment.from} with no compaction: ${end.message}`);
      else if (compacted !== undefined && compacted <= segment.from) {
        out.push(`${where}: 410 Expired for resourceVersion ${segment.from}, which is not below the compacted ${compacted}`);
      }
    } else if (end.kind === 'refused') {
      if ((end.code >= 500 || end.code === 429) && !/too large resource version/i.test(end.message)) counts.transient++;
      else out.push(`${where}: watch from ${segment.from} refused on replica ${segment.replica}: ${end.code} ${end.message}`);
    }
  });

  // Gap-free and true: the reference's changes over the covered range, exactly.
  const expected = reference.changes.filter((c) => c.rv > chain.start && c.rv <= lastDelivered(chain));
  const n = Math.max(expected.length, seen.length);
  for (let i = 0; i < n; i++) {
    const want = expected[i];
    const got = seen[i];
    if (want !== undefined && got !== undefined && want.rv === got.rv && want.name === got.name && want.type === got.type && want.value === got.value) continue;
    if (want !== undefined && (got === undefined || got.rv > want.rv)) {
      out.push(`${where}: missed ${show(want)} (covered (${chain.start}, ${lastDelivered(chain)}]; next delivered: ${got === undefined ? 'none' : show(got)})`);
    } else if (got !== undefined && (want === undefined || want.rv > got.rv)) {
      out.push(`${where}: delivered ${show(got)}, which no account of the run has`);
    } else {
      out.push(`${where}: delivered ${show(got!)} where the reference has ${show(want!)}`);
    }
    break;
  }
  return out;
}

/**
 * Matches each acknowledged delete to a DELETED event of its object whose resourceVersion lies between the
 * revisions acknowledged before the delete was invoked and those of writes invoked after it was answered.
 */
function checkDeletes(ops: readonly RecordedOperation[], reference: Reference): string[] {
  const out: string[] = [];
  // Revisions known to precede (or follow) points in time: acknowledged writes (exact) and lists (read points).
  const points = ops
    .flatMap((op) => (op.output.kind === 'written' ? [{ rv: op.output.rv, call: op.call, return: op.return, list: false }]
      : op.output.kind === 'list' ? [{ rv: op.output.rv, call: op.call, return: op.return, list: true }] : []));
  const byReturn = [...points].sort((a, b) => a.return - b.return);
  /** maxBefore[i]: the highest revision among the first i points to be answered. */
  const maxBefore = [0];
  for (const p of byReturn) maxBefore.push(Math.max(maxBefore[maxBefore.length - 1]!, p.rv));
  const byCall = [...points].sort((a, b) => a.call - b.call);
  /** minAfter[i]: the lowest bound among the points invoked i-th or later (a list may share the delete's revision). */
  const minAfter = new Array<number>(byCall.length + 1).fill(Infinity);
  for (let i = byCall.length - 1; i >= 0; i--) {
    const p = byCall[i]!;
    minAfter[i] = Math.min(minAfter[i + 1]!, p.list ? p.rv + 1 : p.rv);
  }
  /** The number of items of a sorted array whose key is below `t` (binary search). */
  const countBelow = <T>(items: readonly T[], key: (x: T) => number, t: number, orEqual: boolean): number => {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = key(items[mid]!);
      if (k < t || (orEqual && k === t)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const deletes = ops.filter((op) => op.output.kind === 'deleted' && op.name !== undefined).map((op) => ({
    op,
    lo: maxBefore[countBelow(byReturn, (p) => p.return, op.call, false)]!,
    hi: minAfter[countBelow(byCall, (p) => p.call, op.return, true)]!,
  }));
  deletes.sort((a, b) => a.hi - b.hi || a.lo - b.lo);
  const used = new Set<number>();
  const deletedEvents = reference.changes.filter((c) => c.type === 'DELETED');
  for (const d of deletes) {
    const match = deletedEvents.find((c) => c.name === d.op.name && c.rv > d.lo && c.rv < d.hi && !used.has(c.rv));
    if (match !== undefined) {
      used.add(match.rv);
      continue;
    }
    const last = reference.covered.length === 0 ? 0 : reference.covered[reference.covered.length - 1]![1];
    const to = Number.isFinite(d.hi) ? d.hi - 1 : last;
    if (to > d.lo && isCovered(reference, d.lo, to)) {
      out.push(`the acknowledged delete of ${d.op.name} by ${d.op.client} (between resourceVersions ${d.lo} and ${d.hi}) never appeared as a DELETED event, though watches covered (${d.lo}, ${to}]`);
    }
  }
  return out;
}

/** Checks every chain and the acknowledged deletes. */
export function checkWatchChains(
  chains: readonly WatchChain[],
  reference: Reference,
  ops: readonly RecordedOperation[],
  options: WatchCheckOptions,
): WatchCheckResult {
  const counts = { transient: 0, expired: 0 };
  const violations: string[] = [...reference.violations];
  let segments = 0;
  let events = 0;
  let bookmarks = 0;
  for (const chain of chains) {
    violations.push(...checkChain(chain, reference, options, counts));
    segments += chain.segments.length;
    for (const s of chain.segments) {
      for (const e of s.events) {
        if (e.type === 'BOOKMARK') bookmarks++;
        else events++;
      }
    }
  }
  violations.push(...checkDeletes(ops, reference));
  return { chains: chains.length, segments, events, bookmarks, transientErrors: counts.transient, expired: counts.expired, violations };
}
