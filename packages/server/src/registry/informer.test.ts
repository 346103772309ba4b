import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../testing/test-registry.js';
import type { StoredObject } from '../storage/watch-cache/stored-object.js';
import { startInformer, type InformerChange } from './informer.js';
import { parseSelection, selectsStored } from './selection.js';

async function until(what: string, cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('an informer holds the current objects and tells its listeners of each change in order', async () => {
  const { registry, call } = await testRegistry(['a', 'b']);
  await call({ verb: 'create', resource: 'configmaps', namespace: 'a', body: { metadata: { name: 'before' } } });
  const def = registry.lookup('', 'v1', 'configmaps')!;
  const informer = startInformer(registry, def, { retryMs: 10 });
  try {
    await informer.synced();
    assert.ok(informer.hasSynced());
    assert.deepEqual(informer.list().map((o) => o.metadata?.name), ['before']);
    const seen: [InformerChange, string, string | undefined][] = [];
    informer.onChange((change, object, old) => seen.push([change, object.metadata?.name ?? '', (old?.data as Record<string, string> | undefined)?.k]));

    await call({ verb: 'create', resource: 'configmaps', namespace: 'b', body: { metadata: { name: 'x' }, data: { k: '1' } } });
    await call({ verb: 'update', resource: 'configmaps', namespace: 'b', name: 'x', body: { metadata: { name: 'x' }, data: { k: '2' } } });
    await call({ verb: 'delete', resource: 'configmaps', namespace: 'a', name: 'before' });
    await until('three changes', () => seen.length === 3);
    assert.deepEqual(seen, [['ADDED', 'x', undefined], ['MODIFIED', 'x', '1'], ['DELETED', 'before', undefined]]);
    assert.equal((informer.get('b', 'x')?.data as Record<string, string>).k, '2');
    assert.equal(informer.get('a', 'before'), undefined);
    assert.deepEqual(informer.listIn('b').map((o: KubeObject) => o.metadata?.name), ['x']);
    assert.deepEqual(informer.listIn('a'), []);
  } finally {
    informer.stop();
  }
});

test('a listener added with replay is told of the objects held first; the namespace index follows deletes; isWatching', async () => {
  const { registry, call } = await testRegistry(['a', 'b']);
  for (const [namespace, name] of [['a', 'one'], ['a', 'two'], ['b', 'three']]) {
    await call({ verb: 'create', resource: 'configmaps', namespace, body: { metadata: { name } } });
  }
  const def = registry.lookup('', 'v1', 'configmaps')!;
  const informer = startInformer(registry, def, { retryMs: 10 });
  assert.equal(informer.isWatching(), false, 'not watching before the watch has started');
  assert.equal(informer.def, def);
  try {
    await informer.synced();
    assert.ok(informer.isWatching());
    const replayed: string[] = [];
    const remove = informer.onChange((change, o) => replayed.push(`${change} ${o.metadata?.namespace}/${o.metadata?.name}`), { replay: true });
    assert.deepEqual(replayed.sort(), ['ADDED a/one', 'ADDED a/two', 'ADDED b/three']);
    remove();
    const plain: string[] = [];
    informer.onChange((change, o) => plain.push(`${change} ${o.metadata?.name}`));
    assert.deepEqual(plain, [], 'without replay only later changes are told');

    await call({ verb: 'delete', resource: 'configmaps', namespace: 'b', name: 'three' });
    await call({ verb: 'delete', resource: 'configmaps', namespace: 'a', name: 'one' });
    await until('two deletions', () => plain.length === 2);
    assert.equal(replayed.length, 3, 'a removed listener is told nothing more');
    assert.deepEqual(informer.listIn('a').map((o) => o.metadata?.name), ['two']);
    assert.deepEqual(informer.listIn('b'), []);
    assert.deepEqual(informer.list().map((o) => o.metadata?.name), ['two']);
  } finally {
    informer.stop();
  }
  assert.equal(informer.isWatching(), false, 'not watching once stopped');
});

test('an informer with a selection holds and tells only the objects it selects, and decodes no other', async () => {
  const { registry, call } = await testRegistry(['a', 'b']);
  await call({ verb: 'create', resource: 'configmaps', namespace: 'a', body: { metadata: { name: 'wanted' }, data: { k: '0' } } });
  await call({ verb: 'create', resource: 'configmaps', namespace: 'a', body: { metadata: { name: 'other' } } });
  const def = registry.lookup('', 'v1', 'configmaps')!;
  const selection = parseSelection(def, null, 'metadata.name=wanted');
  assert.ok(selection.ok);
  const informer = startInformer(registry, def, { retryMs: 10, selection: selection.value });
  try {
    await informer.synced();
    assert.deepEqual(informer.list().map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`), ['a/wanted']);
    const seen: string[] = [];
    informer.onChange((change, o) => seen.push(`${change} ${o.metadata?.namespace}/${o.metadata?.name}`));
    await call({ verb: 'create', resource: 'configmaps', namespace: 'b', body: { metadata: { name: 'other' } } });
    await call({ verb: 'create', resource: 'configmaps', namespace: 'b', body: { metadata: { name: 'wanted' } } });
    await call({ verb: 'update', resource: 'configmaps', namespace: 'a', name: 'wanted', body: { metadata: { name: 'wanted' }, data: { k: '1' } } });
    await call({ verb: 'delete', resource: 'configmaps', namespace: 'a', name: 'other' });
    await call({ verb: 'delete', resource: 'configmaps', namespace: 'b', name: 'wanted' });
    await until('three changes', () => seen.length === 3);
    assert.deepEqual(seen, ['ADDED b/wanted', 'MODIFIED a/wanted', 'DELETED b/wanted']);
    assert.equal((informer.get('a', 'wanted')?.data as Record<string, string>).k, '1');
    // The objects it does not select were judged by their keys: none of them was decoded for it.
    const other = await registry.store.getStored(def, 'b', 'other');
    assert.ok(other.ok);
    assert.equal(other.value.memo, undefined);
  } finally {
    informer.stop();
  }
});

test('selection by name and namespace from the storage key agrees with the decoded object', async () => {
  const { registry, call } = await testRegistry(['a', 'b']);
  for (const [namespace, name] of [['a', 'x'], ['b', 'x'], ['b', 'y']]) {
    await call({ verb: 'create', resource: 'configmaps', namespace, body: { metadata: { name, labels: { l: name } } } });
  }
  const def = registry.lookup('', 'v1', 'configmaps')!;
  const read = async (): Promise<StoredObject[]> => Promise.all([['a', 'x'], ['b', 'x'], ['b', 'y']].map(async ([namespace, name]) => {
    const got = await registry.store.getStored(def, namespace!, name!);
    assert.ok(got.ok);
    return got.value;
  }));
  const stored = await read();
  for (const selector of ['metadata.name=x', 'metadata.namespace=b', 'metadata.namespace=b,metadata.name!=x', 'metadata.name!=y']) {
    const byKey = parseSelection(def, null, selector);
    // The same selection plus a label requirement every object meets: it decodes each object.
    const decoding = parseSelection(def, 'l', selector);
    assert.ok(byKey.ok && decoding.ok);
    const fresh = (await read()).map((o) => o.at(o.revision + 1));
    assert.deepEqual(stored.map((o) => selectsStored(def, byKey.value, o)), fresh.map((o) => selectsStored(def, decoding.value, o)), selector);
  }
});
