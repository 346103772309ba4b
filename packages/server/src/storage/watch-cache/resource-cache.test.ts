import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BackendEvent, KeyValue } from '../backend.js';
import { createResourceCache, type CacheEvent, type CacheWatchSink } from './resource-cache.js';
import { objectCodec } from './stored-object.js';

const prefix = '/registry/core/configmaps/';
const codec = objectCodec('v1', 'ConfigMap');

function kv(ns: string, name: string, rev: number, created = rev, data: Record<string, string> = {}): KeyValue {
  return {
    key: `${prefix}${ns}/${name}`,
    value: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data }),
    createRevision: created,
    modRevision: rev,
  };
}
const put = (k: KeyValue, prev?: KeyValue): BackendEvent => ({ type: 'put', kv: k, ...(prev ? { prevKv: prev } : {}) });

/** A sink recording `type key@revision` per event, bookmarks and the close. */
function recorder() {
  const seen: string[] = [];
  const sink: CacheWatchSink = {
    event: (e: CacheEvent) => void seen.push(`${e.type} ${e.key.slice(prefix.length)}@${e.revision}${e.previous ? ' prev' : ''}`),
    bookmark: (r) => void seen.push(`bookmark ${r}`),
    closed: () => void seen.push('closed'),
  };
  return { seen, sink };
}

test('resource cache: lists in key order across namespaces, per namespace, and after changes', () => {
  const initial = [kv('a-b', 'x', 3), kv('a', 'y', 2), kv('a', 'b', 1)].map((k) => codec.decode(k));
  const c = createResourceCache(prefix, codec, initial, 3, { windowMs: 60_000, maxEvents: 100, seenRevision: () => 0 });
  // `a/` sorts after `a-b/` ('/' > '-'), as storage orders the keys.
  assert.deepEqual(c.list(prefix).map((o) => o.key.slice(prefix.length)), ['a-b/x', 'a/b', 'a/y']);
  const first = c.list(`${prefix}a/`);
  assert.deepEqual(first.map((o) => o.key.slice(prefix.length)), ['a/b', 'a/y']);
  // A repeated list of an unchanged namespace shares its array; a change makes a new one.
  assert.equal(c.list(`${prefix}a/`), first);
  c.apply(put(kv('a', 'b', 4, 1, { k: 'v' }), kv('a', 'b', 1)));
  c.apply(put(kv('a', 'a', 5)));
  c.apply({ type: 'delete', kv: kv('a', 'y', 6, 2), prevKv: kv('a', 'y', 2) });
  const after = c.list(`${prefix}a/`);
  assert.notEqual(after, first);
  assert.deepEqual(after.map((o) => `${o.key.slice(prefix.length)}@${o.revision}`), ['a/a@5', 'a/b@4']);
  assert.deepEqual(JSON.parse(c.get(`${prefix}a/b`)!.itemJson()).data, { k: 'v' });
  assert.equal(c.get(`${prefix}a/y`), undefined);
  assert.equal(c.revision(), 6);
  // An event at or below the applied revision (a replay) changes nothing.
  c.apply(put(kv('a', 'zz', 6)));
  assert.equal(c.get(`${prefix}a/zz`), undefined);
});

test('resource cache: keys stay in order through creations and deletions in any order; a list keeps its snapshot', () => {
  const c = createResourceCache(prefix, codec, [], 0, { windowMs: 60_000, maxEvents: 10_000, seenRevision: () => 0 });
  const names = Array.from({ length: 300 }, (_, i) => `n${(i * 7919) % 300}`);
  let rev = 0;
  for (const n of names) c.apply(put(kv('ns', n, ++rev)));
  const snapshot = c.list(`${prefix}ns/`);
  const inOrder = [...names].sort();
  assert.deepEqual(snapshot.map((o) => o.key.slice(`${prefix}ns/`.length)), inOrder);
  // Deletions, updates and creations after a list do not show in the array that list returned.
  for (const n of names.slice(0, 100)) c.apply({ type: 'delete', kv: kv('ns', n, ++rev), prevKv: kv('ns', n, 1) });
  for (const n of names.slice(100, 150)) c.apply(put(kv('ns', n, ++rev, 1, { v: '2' }), kv('ns', n, 1)));
  c.apply(put(kv('ns', 'n0000', ++rev)));
  assert.deepEqual(snapshot.map((o) => o.key.slice(`${prefix}ns/`.length)), inOrder, 'the earlier page is unchanged');
  const now = c.list(`${prefix}ns/`).map((o) => o.key.slice(`${prefix}ns/`.length));
  assert.deepEqual(now, ['n0000', ...names.slice(100)].sort());
  assert.equal(c.get(`${prefix}ns/${names[120]!}`)?.revision, c.list(`${prefix}ns/`).find((o) => o.key.endsWith(`/${names[120]!}`))?.revision);
});

test('resource cache: the window evicts by count and by age; watches older than it are refused', () => {
  let now = 1_000;
  const c = createResourceCache(prefix, codec, [], 10, { windowMs: 5_000, maxEvents: 3, seenRevision: () => 0, now: () => now });
  for (let r = 11; r <= 15; r++) c.apply(put(kv('ns', `o${r}`, r)));
  // Three events kept (13, 14, 15): a watch after 12 replays them all, after 11 would miss 12.
  assert.equal(c.windowStart(), 12);
  const replay = recorder();
  const w = c.watch(prefix, { kind: 'after', revision: 12 }, replay.sink);
  assert.ok(w);
  assert.deepEqual(replay.seen, ['put ns/o13@13', 'put ns/o14@14', 'put ns/o15@15']);
  assert.equal(c.watch(prefix, { kind: 'after', revision: 11 }, recorder().sink), undefined);
  w.cancel();
  // Past the age limit the old events go too, at the next change.
  now += 6_000;
  c.apply(put(kv('ns', 'o16', 16)));
  assert.equal(c.windowStart(), 15);
  assert.equal(c.watch(prefix, { kind: 'after', revision: 14 }, recorder().sink), undefined);
  const late = recorder();
  assert.ok(c.watch(prefix, { kind: 'after', revision: 15 }, late.sink));
  assert.deepEqual(late.seen, ['put ns/o16@16']);
});

test('resource cache: state watches, sub-prefix filtering, bookmarks only when asked, cancel and reset', () => {
  const c = createResourceCache(prefix, codec, [codec.decode(kv('a', 'one', 1)), codec.decode(kv('b', 'two', 2))], 2, {
    windowMs: 60_000, maxEvents: 100, seenRevision: () => 0,
  });
  const all = recorder();
  const onlyA = recorder();
  const wAll = c.watch(prefix, { kind: 'state' }, all.sink, { bookmarks: true })!;
  const wA = c.watch(`${prefix}a/`, { kind: 'state' }, onlyA.sink)!;
  assert.deepEqual(wAll.state.map((o) => o.key.slice(prefix.length)), ['a/one', 'b/two']);
  assert.deepEqual(wA.state.map((o) => o.key.slice(prefix.length)), ['a/one']);
  assert.equal(wA.revision, 2);
  assert.equal(c.watcherCount(), 2);
  c.apply(put(kv('b', 'two', 3, 2), kv('b', 'two', 2)));
  c.apply(put(kv('a', 'three', 4)));
  c.bookmark(4);
  wA.cancel();
  c.apply(put(kv('a', 'four', 5)));
  assert.equal(c.watcherCount(), 1);
  assert.deepEqual(onlyA.seen, ['put a/three@4']);
  c.reset();
  assert.deepEqual(all.seen, ['put b/two@3 prev', 'put a/three@4', 'bookmark 4', 'put a/four@5', 'closed']);
  assert.equal(c.watcherCount(), 0);
});

test('resource cache: a deletion shows the last state at the delete revision; one event object is shared by every watcher', () => {
  const c = createResourceCache(prefix, codec, [codec.decode(kv('a', 'x', 1, 1, { k: 'last' }))], 1, { windowMs: 60_000, maxEvents: 100, seenRevision: () => 0 });
  const got: CacheEvent[][] = [[], []];
  for (const list of got) c.watch(prefix, { kind: 'after', revision: 1 }, { event: (e) => void list.push(e), closed: () => {} });
  c.apply({ type: 'delete', kv: kv('a', 'x', 2, 1), prevKv: kv('a', 'x', 1, 1, { k: 'last' }) });
  assert.equal(got[0]![0], got[1]![0]);
  const e = got[0]![0]!;
  assert.equal(e.type, 'delete');
  assert.equal(e.object.revision, 2);
  assert.equal(e.object.parsed().metadata?.resourceVersion, '2');
  assert.deepEqual(e.object.parsed()['data'], { k: 'last' });
  assert.equal(e.previous?.revision, 1);
});

test('stored objects: their bytes are their JSON with kind and apiVersion first, between what a get or a watch frame puts around them', () => {
  const o = codec.decode(kv('ns', 'x', 7, 5, { k: 'é' }));
  const head = Buffer.from('{"type":"ADDED","object":');
  const tail = Buffer.from('}\n');
  assert.equal(o.objectBytes().toString(), o.objectJson());
  assert.equal(o.objectBytes(head, tail).toString(), `{"type":"ADDED","object":${o.objectJson()}}\n`);
  assert.deepEqual(JSON.parse(o.objectBytes(undefined, Buffer.from('\n')).toString()), {
    kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', namespace: 'ns', resourceVersion: '7' }, data: { k: 'é' },
  });
  // Each call is a buffer of its own: a response may hold it while the object is read again.
  assert.notEqual(o.objectBytes(), o.objectBytes());
  // A stored value without metadata, or with nothing at all, still gets its resourceVersion.
  for (const value of ['{"kind":"ConfigMap","apiVersion":"v1"}', '{}']) {
    const bare = codec.decode({ key: `${prefix}ns/y`, value, createRevision: 3, modRevision: 4 });
    assert.equal(bare.objectBytes().toString(), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"4"}}');
    assert.equal(bare.objectJson(), bare.objectBytes().toString());
  }
});

test('stored objects: a list item behind a type head is made once per head, and anew for another head', () => {
  const o = codec.decode(kv('ns', 'x', 7, 5, { k: 'é' }));
  const v1 = Buffer.from('{"kind":"Widget","apiVersion":"example.com/v1",');
  const item = o.itemBytesBehind(v1);
  assert.deepEqual(JSON.parse(item.toString()), {
    kind: 'Widget', apiVersion: 'example.com/v1', metadata: { name: 'x', namespace: 'ns', resourceVersion: '7' }, data: { k: 'é' },
  });
  assert.equal(o.itemBytesBehind(v1), item, 'kept for the same head');
  assert.equal(o.itemBytesBehind(Buffer.from(v1)), item, 'an equal head is the same head');
  const v2 = o.itemBytesBehind(Buffer.from('{"kind":"Widget","apiVersion":"example.com/v2",'));
  assert.equal((JSON.parse(v2.toString()) as { apiVersion: string }).apiVersion, 'example.com/v2');
  assert.notEqual(o.itemBytesBehind(v1), item, 'made again after another head');
  assert.equal(o.itemBytesBehind(v1).toString(), item.toString());
});

test('resource cache: an event leaving the window is released at once, not kept until the window array is compacted', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const c = createResourceCache(prefix, codec, [], 0, { windowMs: 60_000, maxEvents: 3, seenRevision: () => 0 });
  const seen: WeakRef<CacheEvent>[] = [];
  const w = c.watch(prefix, { kind: 'after', revision: 0 }, {
    event: (e) => void seen.push(new WeakRef(e)), bookmark: () => {}, closed: () => {},
  });
  assert.ok(w);
  // One object rewritten: each event's object is then held only by the events after it, in the window or not.
  for (let r = 1; r <= 20; r++) c.apply(put(kv('ns', 'big', r, 1, { v: String(r) }), r === 1 ? undefined : kv('ns', 'big', r - 1, 1, { v: String(r - 1) })));
  w.cancel();
  // A WeakRef holds its target until the current job ends.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const alive = seen.map((ref, i) => (ref.deref() === undefined ? undefined : i + 1)).filter((r) => r !== undefined);
  assert.deepEqual(alive, [18, 19, 20], 'only the three events of the window stay');
});
