import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { KubeObject, OwnerReference } from '@svc-apiserver/api';
import { testRegistry } from '../testing/test-registry.js';
import { startGarbageCollector } from './garbage-collector.js';

type Call = Awaited<ReturnType<typeof testRegistry>>['call'];

async function until(what: string, cond: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const ref = (owner: KubeObject, block = false): OwnerReference => ({
  apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata!.name!, uid: owner.metadata!.uid!, ...(block ? { blockOwnerDeletion: true } : {}),
});

async function make(call: Call, name: string, owners: OwnerReference[] = [], finalizers: string[] = []): Promise<KubeObject> {
  const r = await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: {
    metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}), ...(finalizers.length ? { finalizers } : {}) },
  } });
  assert.equal(r.code, 201, JSON.stringify(r.body));
  return r.body as KubeObject;
}

const get = async (call: Call, name: string) => call({ verb: 'get', resource: 'configmaps', namespace: 'default', name });
const gone = (call: Call, name: string) => async () => (await get(call, name)).code === 404;

async function withCollector(fn: (call: Call) => Promise<void>): Promise<void> {
  const { registry, call } = await testRegistry();
  const gc = startGarbageCollector(registry, { retryMs: 20, debounceMs: 1 });
  try {
    await fn(call);
  } finally {
    await gc.stop();
  }
}

test('Background: dependents are deleted after the owner, along a chain', () => withCollector(async (call) => {
  const a = await make(call, 'a');
  const b = await make(call, 'b', [ref(a)]);
  await make(call, 'c', [ref(b)]);
  const keep = await make(call, 'keep');
  await make(call, 'shared', [ref(a), ref(keep)]);
  const del = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'a', query: { propagationPolicy: 'Background' } });
  assert.equal(del.code, 200);
  await until('a gone', gone(call, 'a'));
  await until('b gone', gone(call, 'b'));
  await until('c gone', gone(call, 'c'));
  // A dependent with another, live owner stays and loses the reference to the gone one.
  await until('shared keeps only keep', async () => {
    const s = (await get(call, 'shared')).body as KubeObject;
    return s.metadata?.ownerReferences?.length === 1 && s.metadata.ownerReferences[0]!.name === 'keep';
  });
}));

test('Foreground: the owner waits with foregroundDeletion until blocking dependents are gone (chain)', () => withCollector(async (call) => {
  const a = await make(call, 'a');
  const b = await make(call, 'b', [ref(a, true)]);
  await make(call, 'c', [ref(b, true)], ['example.com/hold']);
  const del = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'a', query: { propagationPolicy: 'Foreground' } });
  assert.equal(del.code, 200);
  const marked = del.body as KubeObject;
  assert.ok(marked.metadata?.deletionTimestamp);
  assert.deepEqual(marked.metadata?.finalizers, ['foregroundDeletion']);
  // c is held by its own finalizer: b waits in the foreground, and so does a.
  await until('b marked foreground', async () => {
    const got = (await get(call, 'b')).body as KubeObject;
    return (got.metadata?.finalizers ?? []).includes('foregroundDeletion');
  });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal((await get(call, 'a')).code, 200, 'a still waits');
  const c = (await get(call, 'c')).body as KubeObject;
  assert.ok(c.metadata?.deletionTimestamp, 'c is being deleted');
  await call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'c', body: { ...c, metadata: { ...c.metadata, finalizers: [] } } });
  await until('c gone', gone(call, 'c'));
  await until('b gone', gone(call, 'b'));
  await until('a gone', gone(call, 'a'));
}));

test('Orphan: dependents lose the owner reference and stay; the orphan finalizer goes', () => withCollector(async (call) => {
  const a = await make(call, 'a');
  await make(call, 'b', [ref(a)]);
  const del = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'a', query: { propagationPolicy: 'Orphan' } });
  assert.equal(del.code, 200);
  assert.deepEqual((del.body as KubeObject).metadata?.finalizers, ['orphan']);
  await until('a gone', gone(call, 'a'));
  const b = (await get(call, 'b')).body as KubeObject;
  assert.equal(b.metadata?.ownerReferences, undefined);
}));

test('legacy orphanDependents=false answers 202 while the owner waits; dangling references are collected', () => withCollector(async (call) => {
  const a = await make(call, 'a', [], ['example.com/hold']);
  const del = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'a', query: { orphanDependents: 'false' } });
  assert.equal(del.code, 202);
  await make(call, 'orphaned', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: '00000000-0000-0000-0000-000000000000' }]);
  await until('dangling dependent gone', gone(call, 'orphaned'));
  assert.equal((await get(call, 'a')).code, 200);
}));

test('delete options: both orphanDependents and propagationPolicy, or an unknown policy, are 422', async () => {
  const { call } = await testRegistry();
  await make(call, 'x');
  const both = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'x', query: { orphanDependents: 'true', propagationPolicy: 'Orphan' } });
  assert.equal(both.code, 422);
  assert.equal((both.body as { message: string }).message,
    'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
  const bad = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'x', query: { propagationPolicy: 'Sideways' } });
  assert.equal(bad.code, 422);
  const dry = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'x', query: { dryRun: 'Some' } });
  assert.equal(dry.code, 422);
  assert.equal((dry.body as { message: string }).message,
    'DeleteOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
});

test('incremental: with many unrelated objects stored, a write reads none of them (no list, a few gets)', async () => {
  const { registry, call } = await testRegistry();
  const def = registry.all().find((d) => d.group === '' && d.resource === 'configmaps')!;
  const put = async (name: string, owners: OwnerReference[] = []): Promise<KubeObject> => {
    const r = await registry.store.create(def, {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name, namespace: 'default', uid: randomUUID(), creationTimestamp: new Date().toISOString(), ...(owners.length ? { ownerReferences: owners } : {}) },
    }, { dryRun: false, retryGenerateName: false });
    assert.ok(r.ok);
    return r.value;
  };
  for (let i = 0; i < 3000; i++) await put(`unrelated-${i}`);
  const counts = { list: 0, listPage: 0, get: 0 };
  const store = registry.store as { -readonly [K in keyof typeof registry.store]: (typeof registry.store)[K] };
  const { list, listPage, get: read } = store;
  store.list = (...a) => (counts.list++, list(...a));
  store.listPage = (...a) => (counts.listPage++, listPage(...a));
  store.get = (...a) => (counts.get++, read(...a));
  const gc = startGarbageCollector(registry, { retryMs: 20 });
  try {
    await gc.idle();
    counts.list = counts.listPage = counts.get = 0;
    const owner = await put('owner');
    await put('dependent', [ref(owner)]);
    await put('unrelated-write');
    await new Promise((r) => setTimeout(r, 20));
    await gc.idle();
    // The old full pass listed every served resource on each change.
    assert.deepEqual(counts, { list: 0, listPage: 0, get: 0 }, 'writes with live owners cost no reads');
    const del = await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'owner', query: { propagationPolicy: 'Background' } });
    assert.equal(del.code, 200);
    await until('dependent gone', gone(call, 'dependent'));
    await gc.idle();
    assert.equal(counts.list + counts.listPage, 0, 'collection lists nothing');
    assert.ok(counts.get < 20, `collection reads only the objects involved (${counts.get} gets)`);
  } finally {
    await gc.stop();
  }
});
