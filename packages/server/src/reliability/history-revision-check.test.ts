/**
 * The global revision checks on hand-made histories: one counter that never recedes in real time, one change per
 * resourceVersion, lists no older than what they hold.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ListedObject, RecordedOperation } from './history-operation.js';
import { checkRevisions } from './history-revision-check.js';

let nextId = 0;
const write = (name: string, rv: number, call: number, ret: number, replica = 'r', generation = 0): RecordedOperation => ({
  id: nextId++, client: `c${nextId}`, replica, generation, verb: 'update', name,
  input: { kind: 'write', value: `${name}${rv}`, mustExist: false }, output: { kind: 'written', rv, created: false }, call, return: ret,
});
const list = (rv: number, items: ListedObject[], call: number, ret: number, generation = 0): RecordedOperation => ({
  id: nextId++, client: 'lister', replica: 'r', generation, verb: 'list', output: { kind: 'list', rv, items }, call, return: ret,
});

test('a history whose revisions grow with real time passes', () => {
  assert.deepEqual(checkRevisions([
    write('a', 5, 0, 1),
    write('b', 7, 0.5, 3), // concurrent with the next one: either order is fine
    write('a', 6, 2, 4),
    list(7, [{ name: 'a', rv: 6, value: 'a6' }, { name: 'b', rv: 7, value: 'b7' }], 5, 6),
    write('b', 8, 7, 8),
  ]), []);
});

test('a write after a restart that gets an older revision than one acknowledged before it', () => {
  const out = checkRevisions([write('a', 50, 0, 1, 'r', 0), write('b', 40, 2, 3, 'r', 1)]);
  assert.match(out.join('\n'), /resourceVersion went back: .* of b on r life 1 got 40 after .* of a on r life 0 had been answered with 50/);
});

test('a list older than a write answered before it, and a list holding an object newer than itself', () => {
  assert.match(checkRevisions([write('a', 9, 0, 1), list(8, [], 2, 3)]).join('\n'), /lister's list on r life 0 got 8 after .* answered with 9/);
  assert.match(checkRevisions([list(8, [{ name: 'a', rv: 9, value: 'a9' }], 0, 1)]).join('\n'), /a list at resourceVersion 8 .* holds a at 9/);
});

test('two writes acknowledged at one resourceVersion', () => {
  assert.match(checkRevisions([write('a', 9, 0, 1), write('b', 9, 0, 1)]).join('\n'), /were both acknowledged at resourceVersion 9/);
});
