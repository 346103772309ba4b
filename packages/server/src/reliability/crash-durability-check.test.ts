/**
 * The durability check on hand-made crash histories: the last acknowledged write of each object must be there with
 * its resourceVersion, a last acknowledged delete must stay deleted, and a write cut off by the crash may or may not
 * have happened.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDurability } from './crash-durability-check.js';
import type { ListOutput, RecordedOperation } from './history-operation.js';
import type { RegisterInput, RegisterOutput } from './linearizability-register-model.js';

let nextId = 0;
const op = (name: string, input: RegisterInput, output: RegisterOutput, call: number, ret: number): RecordedOperation =>
  ({ id: nextId++, client: 'c', replica: 'r', generation: 0, verb: input.kind === 'delete' ? 'delete' : 'update', name, input, output, call, return: ret });
const put = (name: string, value: string, rv: number, call: number, ret: number): RecordedOperation =>
  op(name, { kind: 'write', value, mustExist: false }, { kind: 'written', rv, created: false }, call, ret);
const after = (...items: [string, number, string][]): ListOutput => ({ kind: 'list', rv: 100, items: items.map(([name, rv, value]) => ({ name, rv, value })) });
const noDeadline = (): number => Infinity;

test('every last acknowledged write survived, and an unanswered write may have happened or not', () => {
  const ops = [
    put('a', 'a1', 10, 0, 1),
    put('a', 'a2', 11, 2, 3),
    put('b', 'b1', 12, 0, 1),
    op('b', { kind: 'write', value: 'b2', mustExist: true }, { kind: 'unknown' }, 4, 5),
    op('c', { kind: 'create', value: 'c1' }, { kind: 'written', rv: 13, created: true }, 0, 1),
    op('c', { kind: 'delete' }, { kind: 'deleted' }, 2, 3),
  ];
  assert.deepEqual(checkDurability(ops, after(['a', 11, 'a2'], ['b', 12, 'b1']), ['a', 'b', 'c'], noDeadline), []);
  assert.deepEqual(checkDurability(ops, after(['a', 11, 'a2'], ['b', 14, 'b2']), ['a', 'b', 'c'], noDeadline), []);
});

test('a lost write, a write at another resourceVersion, a resurrected delete and a value nobody wrote', () => {
  const ops = [
    put('a', 'a1', 10, 0, 1),
    put('a', 'a2', 11, 2, 3),
    op('c', { kind: 'create', value: 'c1' }, { kind: 'written', rv: 13, created: true }, 0, 1),
    op('c', { kind: 'delete' }, { kind: 'deleted' }, 2, 3),
  ];
  const names = ['a', 'c', 'z'];
  assert.match(checkDurability(ops, after(['a', 10, 'a1']), names, noDeadline).join('\n'), /acknowledged update of a \(a2@11, by c\) is lost: found a1@10/);
  assert.match(checkDurability(ops, after(), names, noDeadline).join('\n'), /a2@11, by c\) is lost: the object is gone/);
  assert.match(checkDurability(ops, after(['a', 12, 'a2']), names, noDeadline).join('\n'), /holds a2 at resourceVersion 12, but c's update was acknowledged at 11/);
  assert.match(checkDurability(ops, after(['a', 11, 'a2'], ['c', 13, 'c1']), names, noDeadline).join('\n'), /c was deleted .* and is back after the restart as c1@13/);
  assert.match(checkDurability(ops, after(['a', 11, 'a2'], ['z', 20, 'zz']), names, noDeadline).join('\n'), /z is there with zz@20, which no write of the run set/);
});

test('a write cut off by the crash cannot have happened after a write acknowledged later', () => {
  // With the server owning its store, the cut-off write's deadline is the crash, before the later write was invoked.
  const ops = [
    put('a', 'a1', 10, 0, 1),
    op('a', { kind: 'write', value: 'a2', mustExist: true }, { kind: 'unknown' }, 2, 3),
    put('a', 'a3', 12, 5, 6),
  ];
  const crashAt = (o: RecordedOperation): number => (o.output.kind === 'unknown' ? 4 : Infinity);
  assert.match(checkDurability(ops, after(['a', 11, 'a2']), ['a'], crashAt).join('\n'), /a3@12, by c\) is lost: found a2@11/);
  // Without a deadline (an etcd may commit it late) nothing can be said.
  assert.deepEqual(checkDurability(ops, after(['a', 13, 'a2']), ['a'], noDeadline), []);
});
