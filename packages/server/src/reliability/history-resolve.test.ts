/**
 * Settling unanswered writes from the reference timeline: seen by a watcher means done (at that resourceVersion),
 * absent from a fully watched range means not done, anything else stays unknown with its deadline.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RecordedOperation } from './history-operation.js';
import { buildReference } from './history-reference.js';
import { resolveUnanswered } from './history-resolve.js';
import type { WatchChain } from './history-watcher.js';
import type { RegisterInput, RegisterOutput } from './linearizability-register-model.js';

let nextId = 0;
const op = (name: string, input: RegisterInput, output: RegisterOutput, call: number, ret: number): RecordedOperation =>
  ({ id: nextId++, client: 'c', replica: 'r', generation: 0, verb: 'update', name, input, output, call, return: ret });
const watched = (start: number, events: [string, number, string, 'ADDED' | 'MODIFIED' | 'DELETED', number][]): WatchChain => ({
  id: 'w', kind: 'main', replica: 'r', start, initial: new Map(),
  segments: [{ replica: 'r', generation: 0, from: start, opened: 0, events: events.map(([name, rv, value, type, at]) => ({ type, name, rv, value, at })), end: { kind: 'closed', at: 0 } }],
});

test('an unanswered write seen by a watcher happened at its resourceVersion, before the watcher saw it', () => {
  const ops = [
    op('a', { kind: 'create', value: 'a1' }, { kind: 'written', rv: 10, created: true }, 0, 1),
    op('a', { kind: 'write', value: 'a2', mustExist: true }, { kind: 'unknown' }, 2, 3),
  ];
  const reference = buildReference([watched(9, [['a', 10, 'a1', 'ADDED', 1], ['a', 11, 'a2', 'MODIFIED', 2.5]])], ops);
  const r = resolveUnanswered(ops, reference, () => Infinity, 11);
  assert.equal(r.happened, 1);
  assert.deepEqual(r.ops[1]!.output, { kind: 'written', rv: 11, created: false });
  assert.equal(r.ops[1]!.return, 2.5);
});

test('an unanswered write no watcher saw, though watched throughout, did not happen', () => {
  // Its revision would be above the 9 answered before it was invoked; watches covered (9, 10], the last revision.
  const ops = [
    op('b', { kind: 'create', value: 'b0' }, { kind: 'written', rv: 9, created: true }, 0, 1),
    op('a', { kind: 'create', value: 'a1' }, { kind: 'unknown' }, 2, 3),
  ];
  const r = resolveUnanswered(ops, buildReference([watched(9, [['b', 10, 'b1', 'MODIFIED', 1]])], ops), () => Infinity, 10);
  assert.equal(r.vanished, 1);
  assert.deepEqual(r.ops.map((o) => o.name), ['b']);
  // Had the watch ended at 9, the write might have happened at 10 unseen.
  assert.equal(resolveUnanswered(ops, buildReference([watched(8, [['b', 9, 'b0', 'ADDED', 1]])], ops), () => Infinity, 10).unknown, 1);
});

test('an unanswered write outside what was watched, and an unanswered delete, stay unknown with their deadline', () => {
  const ops = [
    op('a', { kind: 'create', value: 'a1' }, { kind: 'unknown' }, 2, 3),
    op('b', { kind: 'delete' }, { kind: 'unknown' }, 2, 3),
  ];
  const r = resolveUnanswered(ops, buildReference([watched(9, [['b', 10, 'b1', 'ADDED', 1]])], ops), () => 7, 20);
  assert.equal(r.unknown, 2);
  assert.deepEqual(r.ops.map((o) => [o.output.kind, o.return]), [['unknown', 7], ['unknown', 7]]);
});
