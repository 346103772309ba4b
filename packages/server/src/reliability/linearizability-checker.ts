/**
 * A linearizability checker in the manner of porcupine (anishathalye/porcupine): a history of operations, each with
 * the time it was invoked and the time its answer arrived, is linearizable when some order of the operations that
 * respects real time (an operation answered before another was invoked comes first) is a legal run of a sequential
 * model. kube-apiserver promises this of single objects (every write is an etcd transaction on one key; a read
 * without a resourceVersion is a consistent read), and this is how the reliability harness holds the server to it.
 *
 * The search is Wing & Gong's, with Lowe's just-in-time improvements and memoization: call and return entries in
 * time order form a linked list; the search linearizes the earliest calls one at a time, backtracks when it meets a
 * return whose call it could not place, and skips any (set of linearized operations, model state) pair it has seen
 * before. Histories are split by partition (P-compositionality: a history is linearizable iff each object's is).
 *
 * Operations that never got an answer (a request cut off by a crash) have `return: Infinity` or the latest time they
 * could still take effect; the model's step says what they may have done. Steps may be nondeterministic (several
 * successor states); the checker then searches over sets of states, as porcupine's NondeterministicModel does.
 *
 * Hand-written because no maintained npm package checks linearizability.
 */

/** One operation of a history. */
export interface HistoryOperation<I, O> {
  /** The object it acts on: operations of different partitions are checked independently. */
  readonly partition: string;
  readonly input: I;
  readonly output: O;
  /** When it was invoked, on one monotonic clock shared by the whole history. */
  readonly call: number;
  /** When its answer arrived; for an operation without an answer, the latest time it could take effect (or Infinity). */
  readonly return: number;
}

/** A sequential specification. */
export interface SequentialModel<S, I, O> {
  /** The state of every partition before its first operation. */
  readonly init: () => S;
  /** The states an operation with this input and output may leave `state` in; empty when it cannot happen in `state`. */
  readonly step: (state: S, input: I, output: O) => readonly S[];
  /** A string equal for equal states and different for different ones (memoization and deduplication). */
  readonly key: (state: S) => string;
  /** A short text of an operation, for reports. */
  readonly describe?: (input: I, output: O) => string;
}

/** Why a partition was not shown linearizable. */
export interface LinearizabilityViolation<I, O> {
  readonly partition: string;
  /** `illegal`: no linearization exists. `undecided`: the search gave up after `maxSteps`. */
  readonly kind: 'illegal' | 'undecided';
  /** The partition's operations in call order. */
  readonly operations: readonly HistoryOperation<I, O>[];
  /** The longest legal order of a prefix the search found (indexes into `operations`). */
  readonly longestPrefix: readonly number[];
  /**
   * Operations that had been invoked, but not placed, at the point where the longest prefix could go no further
   * (indexes into `operations`); one of them is where the history breaks.
   */
  readonly stuckAt: readonly number[];
  /** A readable account: the prefix and the operations that could not follow it. */
  readonly report: string;
}

/** The outcome of a check. */
export interface LinearizabilityResult<I, O> {
  readonly ok: boolean;
  readonly partitions: number;
  readonly operations: number;
  readonly violations: readonly LinearizabilityViolation<I, O>[];
}

/** Options of {@link checkLinearizability}. */
export interface CheckOptions {
  /** Search steps allowed per partition before it is reported `undecided` (default 5,000,000). */
  readonly maxSteps?: number;
}

interface Entry {
  /** The operation's index in the partition. */
  readonly op: number;
  readonly isCall: boolean;
  readonly time: number;
  prev: Entry | undefined;
  next: Entry | undefined;
  /** For a call entry: its return entry. */
  match: Entry | undefined;
}

/** A set of model states, deduplicated and keyed for memoization. */
interface StateSet<S> {
  readonly states: readonly S[];
  readonly key: string;
}

function stateSet<S>(keyOf: (state: S) => string, states: readonly S[]): StateSet<S> {
  const byKey = new Map<string, S>();
  for (const s of states) {
    const k = keyOf(s);
    if (!byKey.has(k)) byKey.set(k, s);
  }
  const keys = [...byKey.keys()].sort();
  return { states: keys.map((k) => byKey.get(k)!), key: keys.join('\u0001') };
}

/** Random 32-bit words per operation: the memo's hash of a set of linearized operations is the XOR of theirs. */
function zobristWords(n: number, seed: number): Uint32Array {
  const words = new Uint32Array(n * 2);
  let x = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    // xorshift32: fast, and good enough to spread the bits of a hash.
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  return words;
}

/** Builds the entry list of a partition: calls and returns by time, a call before a return at the same instant. */
function entryList<I, O>(ops: readonly HistoryOperation<I, O>[]): Entry {
  const entries: Entry[] = [];
  ops.forEach((o, i) => {
    const call: Entry = { op: i, isCall: true, time: o.call, prev: undefined, next: undefined, match: undefined };
    const ret: Entry = { op: i, isCall: false, time: o.return, prev: undefined, next: undefined, match: undefined };
    call.match = ret;
    entries.push(call, ret);
  });
  // Equal times count as overlapping (a call first), which only ever allows more orders.
  entries.sort((a, b) => {
    if (a.time !== b.time) return a.time < b.time ? -1 : 1;
    if (a.isCall !== b.isCall) return a.isCall ? -1 : 1;
    return a.op - b.op;
  });
  const head: Entry = { op: -1, isCall: false, time: -Infinity, prev: undefined, next: undefined, match: undefined };
  let last = head;
  for (const e of entries) {
    last.next = e;
    e.prev = last;
    last = e;
  }
  return head;
}

/** Takes a call entry and its return out of the list. */
function lift(call: Entry): void {
  call.prev!.next = call.next;
  if (call.next !== undefined) call.next.prev = call.prev;
  const ret = call.match!;
  ret.prev!.next = ret.next;
  if (ret.next !== undefined) ret.next.prev = ret.prev;
}

/** Puts a lifted call entry and its return back (the reverse of {@link lift}, done in reverse order). */
function unlift(call: Entry): void {
  const ret = call.match!;
  ret.prev!.next = ret;
  if (ret.next !== undefined) ret.next.prev = ret;
  call.prev!.next = call;
  if (call.next !== undefined) call.next.prev = call;
}

function describeOp<S, I, O>(model: SequentialModel<S, I, O>, op: HistoryOperation<I, O>, index: number): string {
  const what = model.describe?.(op.input, op.output) ?? `${JSON.stringify(op.input)} -> ${JSON.stringify(op.output)}`;
  const ret = Number.isFinite(op.return) ? op.return.toFixed(3) : 'never';
  return `#${index} [${op.call.toFixed(3)} .. ${ret}] ${what}`;
}

/** Checks one partition; `undefined` when it is linearizable. */
function checkPartition<S, I, O>(
  model: SequentialModel<S, I, O>,
  partition: string,
  ops: readonly HistoryOperation<I, O>[],
  maxSteps: number,
): LinearizabilityViolation<I, O> | undefined {
  const head = entryList(ops);
  const words = zobristWords(ops.length, partition.length * 7919 + ops.length);
  let h1 = 0;
  let h2 = 0;
  /** The linearized operations, as a bit set. */
  const linearized = new Uint32Array(Math.ceil(ops.length / 32));
  const flip = (op: number): void => {
    linearized[op >>> 5] ^= 1 << (op & 31);
    h1 ^= words[op * 2]!;
    h2 ^= words[op * 2 + 1]!;
  };
  /** memo: hash and state key → the linearized sets seen with it. */
  const seen = new Map<string, Uint32Array[]>();
  const calls: { entry: Entry; state: StateSet<S> }[] = [];
  let state = stateSet(model.key, [model.init()]);
  let longest: number[] = [];
  let longestStuck: number[] = [];
  let entry = head.next;
  let steps = 0;

  const remember = (): boolean => {
    const k = `${h1}:${h2}:${state.key}`;
    const list = seen.get(k);
    if (list === undefined) {
      seen.set(k, [linearized.slice()]);
      return true;
    }
    for (const l of list) {
      let same = true;
      for (let i = 0; i < l.length; i++) {
        if (l[i] !== linearized[i]) {
          same = false;
          break;
        }
      }
      if (same) return false;
    }
    list.push(linearized.slice());
    return true;
  };
  const noteDepth = (): void => {
    if (longestStuck.length > 0 && calls.length <= longest.length) return;
    longest = calls.map((c) => c.entry.op);
    longestStuck = [];
    for (let e = head.next; e !== undefined && e.isCall; e = e.next) longestStuck.push(e.op);
    // The first pending return's operation was invoked before every call after it: it belongs to the stuck set too.
    for (let e = head.next; e !== undefined; e = e.next) {
      if (!e.isCall) {
        if (!longestStuck.includes(e.op)) longestStuck.push(e.op);
        break;
      }
    }
  };

  while (head.next !== undefined) {
    if (++steps > maxSteps) return violation('undecided');
    if (entry === undefined) throw new Error('linearizability search ran off the end of its list');
    if (entry.isCall) {
      const op = ops[entry.op]!;
      const next: S[] = [];
      for (const s of state.states) next.push(...model.step(s, op.input, op.output));
      let advanced = false;
      if (next.length > 0) {
        const nextState = stateSet(model.key, next);
        flip(entry.op);
        const previous = state;
        state = nextState;
        if (remember()) {
          calls.push({ entry, state: previous });
          lift(entry);
          advanced = true;
          entry = head.next;
        } else {
          state = previous;
          flip(entry.op);
        }
      }
      if (!advanced) entry = entry.next;
    } else {
      // A return whose call is still in the list: nothing after it can come first. Back up one operation.
      noteDepth();
      const top = calls.pop();
      if (top === undefined) return violation('illegal');
      state = top.state;
      flip(top.entry.op);
      unlift(top.entry);
      entry = top.entry.next;
    }
  }
  return undefined;

  function violation(kind: 'illegal' | 'undecided'): LinearizabilityViolation<I, O> {
    const lines = [
      `partition ${partition}: ${kind === 'illegal' ? 'not linearizable' : `undecided after ${maxSteps} steps`} (${ops.length} operations)`,
      `longest legal order found (${longest.length} operations):`,
      ...longest.slice(-12).map((i) => `  ${describeOp(model, ops[i]!, i)}`),
      'none of these can come next:',
      ...longestStuck.map((i) => `  ${describeOp(model, ops[i]!, i)}`),
    ];
    if (longest.length > 12) lines.splice(2, 0, `  ... ${longest.length - 12} earlier operations`);
    return { partition, kind, operations: ops, longestPrefix: longest, stuckAt: longestStuck, report: lines.join('\n') };
  }
}

/**
 * Checks that a history is linearizable with respect to `model`, partition by partition. A partition with no
 * legal order is `illegal`; one whose search exceeds the step budget is `undecided` (never silently passed).
 */
export function checkLinearizability<S, I, O>(
  model: SequentialModel<S, I, O>,
  history: readonly HistoryOperation<I, O>[],
  options: CheckOptions = {},
): LinearizabilityResult<I, O> {
  const maxSteps = options.maxSteps ?? 5_000_000;
  const byPartition = new Map<string, HistoryOperation<I, O>[]>();
  for (const op of history) {
    if (!(op.return >= op.call)) throw new Error(`operation answered before it was invoked: ${JSON.stringify(op)}`);
    let list = byPartition.get(op.partition);
    if (list === undefined) byPartition.set(op.partition, (list = []));
    list.push(op);
  }
  const violations: LinearizabilityViolation<I, O>[] = [];
  for (const [partition, ops] of byPartition) {
    ops.sort((a, b) => a.call - b.call);
    const v = checkPartition(model, partition, ops, maxSteps);
    if (v !== undefined) violations.push(v);
  }
  return { ok: violations.length === 0, partitions: byPartition.size, operations: history.length, violations };
}
