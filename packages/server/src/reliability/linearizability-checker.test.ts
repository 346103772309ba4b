/**
 * The linearizability checker and the register model on hand-made histories: legal ones must pass, and each kind of
 * anomaly the harness looks for (stale read, lost update, a version going backwards, a write that appears from
 * nowhere, an unjustified conflict) must be caught, so the harness cannot pass by checking nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkLinearizability, type HistoryOperation } from './linearizability-checker.js';
import { registerModel, type RegisterInput, type RegisterOutput } from './linearizability-register-model.js';
import { seededRandom } from '../testing/seeded-random.js';

type Op = HistoryOperation<RegisterInput, RegisterOutput>;

const op = (call: number, ret: number, input: RegisterInput, output: RegisterOutput, partition = 'k'): Op =>
  ({ partition, input, output, call, return: ret });
const read = (value: string, rv: number): RegisterOutput => ({ kind: 'found', value, rv });
const wrote = (rv: number, created = false): RegisterOutput => ({ kind: 'written', rv, created });
const create = (value: string): RegisterInput => ({ kind: 'create', value });
const update = (value: string, expectedRv?: number): RegisterInput =>
  expectedRv === undefined ? { kind: 'write', value, mustExist: true } : { kind: 'write', value, mustExist: true, expectedRv };
const apply = (value: string): RegisterInput => ({ kind: 'write', value, mustExist: false });
const get: RegisterInput = { kind: 'read' };
const del = (expectedRv?: number): RegisterInput => (expectedRv === undefined ? { kind: 'delete' } : { kind: 'delete', expectedRv });

const linearizable = (ops: Op[]): boolean => checkLinearizability(registerModel, ops).ok;

describe('linearizable histories pass', () => {
  test('a sequential run of every kind of operation', () => {
    assert.ok(linearizable([
      op(0, 1, get, { kind: 'absent' }),
      op(2, 3, create('a'), wrote(10, true)),
      op(4, 5, create('b'), { kind: 'exists' }),
      op(6, 7, get, read('a', 10)),
      op(8, 9, update('c', 10), wrote(12)),
      op(10, 11, update('d', 10), { kind: 'conflict' }),
      op(12, 13, apply('e'), wrote(15)),
      op(14, 15, del(12), { kind: 'conflict' }),
      op(16, 17, del(15), { kind: 'deleted' }),
      op(18, 19, update('f'), { kind: 'notFound' }),
      op(20, 21, del(), { kind: 'notFound' }),
      op(22, 23, apply('g'), wrote(30, true)),
      op(24, 25, get, read('g', 30)),
    ]));
  });

  test('concurrent writes in the order only a later read reveals (the search backtracks)', () => {
    assert.ok(linearizable([
      op(0, 1, create('a'), wrote(1, true)),
      op(2, 10, update('b'), wrote(5)),
      op(3, 9, update('c'), wrote(4)),
      op(11, 12, get, read('b', 5)),
    ]));
  });

  test('a read concurrent with a write may see either value', () => {
    for (const seen of [read('a', 1), read('b', 2)]) {
      assert.ok(linearizable([
        op(0, 1, create('a'), wrote(1, true)),
        op(2, 6, update('b'), wrote(2)),
        op(3, 4, get, seen),
      ]));
    }
  });

  test('a write without an answer may take effect late, or never', () => {
    const base = [op(0, 1, create('a'), wrote(1, true)), op(2, Infinity, update('b'), { kind: 'unknown' })];
    assert.ok(linearizable([...base, op(3, 4, get, read('a', 1)), op(5, 6, get, read('b', 7)), op(7, 8, get, read('b', 7))]));
    assert.ok(linearizable([...base, op(3, 4, get, read('a', 1)), op(5, 6, get, read('a', 1))]));
    // A conditional update relying on the version the unanswered write would have replaced can fail because of it.
    assert.ok(linearizable([...base, op(5, 6, update('c', 1), { kind: 'conflict' })]));
    assert.ok(linearizable([...base, op(5, 6, update('c', 1), wrote(9))]));
  });

  test('an unanswered create shows its version only through a read', () => {
    assert.ok(linearizable([
      op(0, Infinity, create('a'), { kind: 'unknown' }),
      op(1, 2, get, read('a', 42)),
      op(3, 4, update('b', 42), wrote(50)),
    ]));
  });

  test('partitions are independent objects', () => {
    assert.ok(linearizable([
      op(0, 1, create('a'), wrote(1, true), 'x'),
      op(0, 1, create('a'), wrote(2, true), 'y'),
      op(2, 3, get, read('a', 1), 'x'),
      op(2, 3, get, read('a', 2), 'y'),
    ]));
  });
});

describe('anomalies are caught', () => {
  test('a stale read after a newer write was acknowledged', () => {
    const r = checkLinearizability(registerModel, [
      op(0, 1, create('a'), wrote(1, true)),
      op(2, 3, update('b'), wrote(2)),
      op(4, 5, get, read('a', 1)),
    ]);
    assert.equal(r.ok, false);
    assert.equal(r.violations[0]?.kind, 'illegal');
    assert.match(r.violations[0]!.report, /read -> found a@1/);
  });

  test('a read that goes back to an older value after a later read saw the newer one', () => {
    assert.equal(linearizable([
      op(0, 1, create('a'), wrote(1, true)),
      op(2, 20, update('b'), wrote(2)),
      op(3, 4, get, read('b', 2)),
      op(5, 6, get, read('a', 1)),
    ]), false);
  });

  test('a lost update: two compare-and-swaps from the same version both succeed', () => {
    assert.equal(linearizable([
      op(0, 1, create('a'), wrote(1, true)),
      op(2, 5, update('b', 1), wrote(2)),
      op(3, 6, update('c', 1), wrote(3)),
    ]), false);
  });

  test('a conflict with nothing to conflict with', () => {
    assert.equal(linearizable([
      op(0, 1, create('a'), wrote(1, true)),
      op(2, 3, update('b', 1), { kind: 'conflict' }),
    ]), false);
  });

  test('an unconditional write that answers Conflict', () => {
    assert.equal(linearizable([op(0, 1, create('a'), wrote(1, true)), op(2, 3, update('b'), { kind: 'conflict' })]), false);
  });

  test('a resourceVersion that goes backwards', () => {
    assert.equal(linearizable([op(0, 1, create('a'), wrote(10, true)), op(2, 3, update('b'), wrote(5))]), false);
    assert.equal(linearizable([
      op(0, 1, create('a'), wrote(10, true)),
      op(2, 3, del(), { kind: 'deleted' }),
      op(4, 5, create('b'), wrote(9, true)),
    ]), false);
  });

  test('a read showing a value nobody wrote, or a known write at another version', () => {
    assert.equal(linearizable([op(0, 1, create('a'), wrote(1, true)), op(2, 3, get, read('z', 1))]), false);
    assert.equal(linearizable([op(0, 1, create('a'), wrote(1, true)), op(2, 3, get, read('a', 2))]), false);
  });

  test('an acknowledged delete whose object is still there, and a create over an existing object', () => {
    assert.equal(linearizable([
      op(0, 1, create('a'), wrote(1, true)),
      op(2, 3, del(), { kind: 'deleted' }),
      op(4, 5, get, read('a', 1)),
    ]), false);
    assert.equal(linearizable([op(0, 1, create('a'), wrote(1, true)), op(2, 3, create('b'), wrote(2, true))]), false);
  });

  test('apply that reports creating an existing object, or updating a missing one', () => {
    assert.equal(linearizable([op(0, 1, create('a'), wrote(1, true)), op(2, 3, apply('b'), wrote(2, true))]), false);
    assert.equal(linearizable([op(0, 1, apply('b'), wrote(2, false))]), false);
  });

  test('an unanswered write that a read saw and a later read no longer sees', () => {
    assert.equal(linearizable([
      op(0, 1, create('a'), wrote(1, true)),
      op(2, Infinity, update('b'), { kind: 'unknown' }),
      op(3, 4, get, read('b', 5)),
      op(5, 6, get, read('a', 1)),
    ]), false);
  });

  test('an answer bound: a write cut off by a crash cannot take effect after the crash', () => {
    const cut = op(2, 4, update('b'), { kind: 'unknown' });
    assert.ok(linearizable([op(0, 1, create('a'), wrote(1, true)), cut, op(3, 5, get, read('b', 7))]));
    assert.equal(linearizable([op(0, 1, create('a'), wrote(1, true)), cut, op(5, 6, get, read('a', 1)), op(7, 8, get, read('b', 7))]), false);
  });

  test('only the broken partition is reported, with a readable account', () => {
    const r = checkLinearizability(registerModel, [
      op(0, 1, create('a'), wrote(1, true), 'good'),
      op(0, 1, create('a'), wrote(2, true), 'bad'),
      op(2, 3, get, read('a', 1), 'good'),
      op(2, 3, get, { kind: 'absent' }, 'bad'),
    ]);
    assert.equal(r.ok, false);
    assert.equal(r.partitions, 2);
    assert.deepEqual(r.violations.map((v) => v.partition), ['bad']);
    assert.deepEqual(r.violations[0]!.longestPrefix, [0]);
    assert.deepEqual(r.violations[0]!.stuckAt, [1]);
    assert.match(r.violations[0]!.report, /create a -> created@2[\s\S]*read -> absent/);
  });

  test('a search over its budget is undecided, not passed', () => {
    const ops = Array.from({ length: 12 }, (_, i) => op(0, 100, update(`v${i}`), { kind: 'unknown' }));
    const r = checkLinearizability(registerModel, [op(-2, -1, create('a'), wrote(1, true)), ...ops, op(101, 102, get, read('z', 3))], { maxSteps: 50 });
    assert.equal(r.ok, false);
    assert.equal(r.violations[0]?.kind, 'undecided');
  });
});

/** Answers a simulated history loses, as a crash loses them. */
interface Cuts {
  /** Every `every`-th write loses its answer. */
  readonly every: number;
  /** How long after its would-be answer a cut write could still take effect (Infinity: any time). */
  readonly grace: number;
}

/**
 * A history of an atomic register under many concurrent clients: each operation takes effect at a random instant
 * inside its interval, against a simulated store, so the history is linearizable by construction. A write whose
 * answer is cut keeps its effect; its client learns nothing from it.
 */
function simulatedHistory(seed: number, clients: number, perClient: number, cuts?: Cuts): Op[] {
  const random = seededRandom(seed);
  interface Planned { client: number; call: number; ret: number; at: number; input: RegisterInput }
  const planned: Planned[] = [];
  for (let c = 0; c < clients; c++) {
    let t = random() * 5;
    for (let i = 0; i < perClient; i++) {
      const call = t;
      const ret = call + 0.5 + random() * 20;
      const at = call + random() * (ret - call);
      const pick = random();
      const value = `c${c}-${i}`;
      const input: RegisterInput =
        pick < 0.35 ? get : pick < 0.5 ? create(value) : pick < 0.7 ? update(value) : pick < 0.8 ? apply(value) : pick < 0.9 ? del() : update(value, -1);
      planned.push({ client: c, call, ret, at, input });
      t = ret + random() * 3;
    }
  }
  planned.sort((a, b) => a.at - b.at);
  let state: { rv: number; value: string } | undefined;
  let revision = 0;
  /** The last version each client saw in an answer: a compare-and-swap can only use a version its client knows. */
  const lastSeen = new Map<number, number>();
  const ops: Op[] = [];
  let writes = 0;
  for (const p of planned) {
    let input = p.input;
    let output: RegisterOutput;
    if (input.kind === 'write' && input.expectedRv === -1) input = update(input.value, lastSeen.get(p.client) ?? 1);
    switch (input.kind) {
      case 'read':
        output = state === undefined ? { kind: 'absent' } : read(state.value, state.rv);
        break;
      case 'create':
        if (state !== undefined) output = { kind: 'exists' };
        else {
          state = { rv: ++revision, value: input.value };
          output = wrote(state.rv, true);
        }
        break;
      case 'write':
        if (state === undefined && input.mustExist) output = { kind: 'notFound' };
        else if (state !== undefined && input.expectedRv !== undefined && input.expectedRv !== state.rv) output = { kind: 'conflict' };
        else {
          const created = state === undefined;
          state = { rv: ++revision, value: input.value };
          output = wrote(state.rv, created);
        }
        break;
      case 'delete':
        if (state === undefined) output = { kind: 'notFound' };
        else {
          state = undefined;
          revision++;
          output = { kind: 'deleted' };
        }
        break;
    }
    if (cuts !== undefined && input.kind !== 'read' && ++writes % cuts.every === 0) {
      ops.push(op(p.call, p.ret + cuts.grace, input, { kind: 'unknown' }));
      continue;
    }
    if (output.kind === 'found' || output.kind === 'written') lastSeen.set(p.client, output.rv);
    ops.push(op(p.call, p.ret, input, output));
  }
  return ops;
}

describe('random histories of a simulated atomic register', () => {
  test('every one is linearizable, and breaking any single read is caught', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const ops = simulatedHistory(seed, 8, 60);
      const good = checkLinearizability(registerModel, ops);
      assert.ok(good.ok, `seed ${seed}: ${good.violations[0]?.report}`);
      // Give one read that saw a value a version nobody wrote: a lie in one answer must sink the history.
      const victim = ops.findIndex((o, i) => i > ops.length / 2 && o.output.kind === 'found');
      assert.ok(victim > 0);
      const found = ops[victim]!.output as { rv: number; value: string };
      const bad = ops.map((o, i) => (i === victim ? { ...o, output: read(found.value, found.rv + 1000) } : o));
      assert.equal(checkLinearizability(registerModel, bad).ok, false, `seed ${seed}: a corrupted read passed`);
    }
  });

  test('unanswered writes with a bound on when they could take effect are decided quickly', () => {
    const ops = simulatedHistory(99, 8, 60, { every: 5, grace: 10 });
    const started = performance.now();
    const r = checkLinearizability(registerModel, ops);
    assert.ok(r.ok, r.violations[0]?.report);
    assert.ok(performance.now() - started < 5000, `took ${Math.round(performance.now() - started)} ms`);
  });

  test('a few writes that never answered at all are decided too', () => {
    const ops = simulatedHistory(7, 8, 60, { every: 40, grace: Infinity });
    assert.ok(ops.some((o) => o.return === Infinity));
    const r = checkLinearizability(registerModel, ops);
    assert.ok(r.ok, r.violations[0]?.report);
  });
});
