/**
 * The watch checks on hand-made chains: a correct chain passes, and each way a watch can break (a gap, a duplicate,
 * an event out of order or back in time after a restart, a reconnection from the wrong resourceVersion, a 410 with
 * no compaction, a DELETED event with the wrong last state, an event nobody caused, an acknowledged delete no watcher
 * saw) is reported.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RecordedOperation } from './history-operation.js';
import { buildReference } from './history-reference.js';
import { checkWatchChains } from './history-watch-check.js';
import type { SegmentEnd, WatchChain, WatchEventRecord, WatchSegment } from './history-watcher.js';
import type { RegisterInput, RegisterOutput } from './linearizability-register-model.js';

type EventSpec = [WatchEventRecord['type'], string, number, string];

const ev = ([type, name, rv, value]: EventSpec): WatchEventRecord => ({ type, name, rv, value, at: rv });
const segment = (from: number, events: EventSpec[], end: SegmentEnd = { kind: 'closed', at: 0 }, generation = 0): WatchSegment =>
  ({ replica: 'r', generation, from, opened: 0, events: events.map(ev), end });
const chain = (id: string, start: number, segments: WatchSegment[], initial: [string, number, string][] = []): WatchChain =>
  ({ id, kind: 'main', replica: 'r', start, segments, initial: new Map(initial.map(([n, rv, value]) => [n, { rv, value }])) });

let nextId = 0;
const op = (name: string, input: RegisterInput, output: RegisterOutput, call: number, ret: number): RecordedOperation =>
  ({ id: nextId++, client: 'c', replica: 'r', generation: 0, verb: input.kind === 'delete' ? 'delete' : 'update', name, input, output, call, return: ret });

const check = (chains: WatchChain[], ops: RecordedOperation[] = [], compaction = false): readonly string[] =>
  checkWatchChains(chains, buildReference(chains, ops), ops, { compaction }).violations;

/** A run: a created at 10, b at 11, a updated at 12, b deleted at 13. */
const history: EventSpec[] = [['ADDED', 'a', 10, 'a1'], ['ADDED', 'b', 11, 'b1'], ['MODIFIED', 'a', 12, 'a2'], ['DELETED', 'b', 13, 'b1']];

describe('correct chains pass', () => {
  test('one chain over reconnections, a restart and a bookmark, and a probe resuming it', () => {
    const main = chain('m', 9, [
      segment(9, history.slice(0, 2)),
      segment(11, [['BOOKMARK', '', 11, '']], { kind: 'broken', at: 0, message: 'the server died' }),
      segment(11, history.slice(2), { kind: 'closed', at: 0 }, 1),
    ]);
    const probe: WatchChain = { ...chain('p', 11, [segment(11, history.slice(2))], [['a', 10, 'a1'], ['b', 11, 'b1']]), kind: 'probe' };
    assert.deepEqual(check([main, probe]), []);
  });

  test('a 410 for a compacted resourceVersion, when compaction runs', () => {
    const expired = chain('m', 9, [segment(9, [], { kind: 'expired', at: 0, message: 'too old resource version: 9 (12)' })]);
    assert.deepEqual(check([expired], [], true), []);
  });
});

describe('broken chains are reported', () => {
  const full = chain('full', 9, [segment(9, history)]);

  test('a gap', () => {
    const gap = chain('gap', 9, [segment(9, [history[0]!, history[2]!, history[3]!])]);
    assert.match(check([full, gap]).join('\n'), /chain gap: missed ADDED b=b1@11/);
  });

  test('a duplicate across a reconnection', () => {
    const dup = chain('dup', 9, [segment(9, history.slice(0, 2)), segment(11, [history[1]!, ...history.slice(2)])]);
    assert.match(check([full, dup]).join('\n'), /chain dup: ADDED b=b1@11 after 11 was delivered \(duplicate/);
  });

  test('an event back in time after a restart', () => {
    const back = chain('back', 9, [segment(9, history.slice(0, 3)), segment(12, [history[1]!], { kind: 'closed', at: 0 }, 1)]);
    assert.match(check([back]).join('\n'), /chain back: ADDED b=b1@11 after 12 was delivered \(out of order, connection 1, replica r life 1\)/);
  });

  test('a bookmark behind what was delivered, and an event at or below a bookmark', () => {
    const bookmark = chain('bm', 9, [segment(9, [history[0]!, history[1]!, ['BOOKMARK', '', 10, '']])]);
    assert.match(check([bookmark]).join('\n'), /BOOKMARK at 10 after 11 was delivered/);
    const after = chain('after', 9, [segment(9, [history[0]!, ['BOOKMARK', '', 11, ''], history[1]!])]);
    assert.match(check([after]).join('\n'), /ADDED b=b1@11 after 11 was delivered/);
  });

  test('a reconnection that does not resume from the last delivered resourceVersion', () => {
    const skip = chain('skip', 9, [segment(9, history.slice(0, 2)), segment(12, history.slice(3))]);
    assert.match(check([skip]).join('\n'), /connection 1 asked for resourceVersion 12, not the last delivered 11/);
  });

  test('410 Expired with no compaction, or for a resourceVersion the server says is not compacted', () => {
    const expired = chain('x', 9, [segment(9, [], { kind: 'expired', at: 0, message: 'too old resource version: 9 (5)' })]);
    assert.match(check([expired]).join('\n'), /410 Expired for resourceVersion 9 with no compaction/);
    assert.match(check([expired], [], true).join('\n'), /not below the compacted 5/);
  });

  test('a refusal that says the server went back in time', () => {
    const refused = chain('r', 9, [segment(9, [], { kind: 'refused', at: 0, code: 504, message: 'Too large resource version: 20, current: 15' })]);
    assert.match(check([refused]).join('\n'), /watch from 9 refused on replica r: 504/);
  });

  test('incoherent events for one object', () => {
    const twice = chain('twice', 9, [segment(9, [history[0]!, ['ADDED', 'a', 11, 'a9']])]);
    assert.match(check([twice]).join('\n'), /ADDED a=a9@11 for an object present since 10/);
    const ghost = chain('ghost', 9, [segment(9, [['MODIFIED', 'z', 10, 'z1']])]);
    assert.match(check([ghost]).join('\n'), /MODIFIED z=z1@10 for an object the chain knows absent/);
    const stale = chain('stale', 9, [segment(9, [...history.slice(0, 3), ['DELETED', 'a', 13, 'a1']])]);
    assert.match(check([stale]).join('\n'), /DELETED a=a1@13 carries a1, but the last state seen was a2@12/);
  });

  test('two accounts of one resourceVersion', () => {
    const other = chain('other', 9, [segment(9, [history[0]!, ['ADDED', 'c', 11, 'c1']])]);
    assert.match(check([full, other]).join('\n'), /resourceVersion 11 is two changes/);
  });

  test('an acknowledged write every watcher missed', () => {
    const missing = chain('m', 9, [segment(9, [history[0]!, history[2]!])]);
    const ops = [op('b', { kind: 'create', value: 'b1' }, { kind: 'written', rv: 11, created: true }, 1, 2)];
    assert.match(check([missing], ops).join('\n'), /chain m: missed ADDED b=b1@11/);
  });

  test('an acknowledged delete no watcher saw', () => {
    const noDelete = chain('nd', 9, [segment(9, [...history.slice(0, 3), ['MODIFIED', 'a', 14, 'a3']])]);
    const ops = [
      op('a', { kind: 'write', value: 'a2', mustExist: true }, { kind: 'written', rv: 12, created: false }, 1, 2),
      op('b', { kind: 'delete' }, { kind: 'deleted' }, 3, 4),
      op('a', { kind: 'write', value: 'a3', mustExist: true }, { kind: 'written', rv: 14, created: false }, 5, 6),
    ];
    assert.match(check([noDelete], ops).join('\n'), /the acknowledged delete of b by c \(between resourceVersions 12 and 14\) never appeared/);
    const withDelete = chain('wd', 9, [segment(9, [...history, ['MODIFIED', 'a', 14, 'a3']])]);
    assert.deepEqual(check([withDelete], ops), []);
  });
});
