import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conflict, optimisticLockMessage, type KubeObject, type Status } from '@svc-apiserver/api';
import { testRegistry, type TestRegistry } from '../../testing/test-registry.js';
import type { ResourceDef } from '../resource-def.js';
import type { Store } from '../store.js';
import { guaranteedUpdate, maxWriteAttempts, retryOnConflict } from './guaranteed-update.js';

const lost = (attempt: number): Status => conflict({ group: '', resource: 'configmaps' }, 'x', `lost ${attempt}`);

test('retryOnConflict: conflicts are retried up to the limit, then the last one is answered', async () => {
  let attempts = 0;
  const result = await retryOnConflict(async () => ({ ok: false, error: lost(++attempts), conflict: true }));
  assert.equal(attempts, maxWriteAttempts);
  assert.deepEqual(result, { ok: false, error: lost(maxWriteAttempts) });
});

test('retryOnConflict: a final failure is not retried; a conflict that clears succeeds', async () => {
  let attempts = 0;
  const failed = await retryOnConflict(async () => ({ ok: false, error: lost(++attempts), conflict: false }));
  assert.equal(attempts, 1);
  assert.equal(failed.ok, false);
  attempts = 0;
  const cleared = await retryOnConflict(async () => (++attempts < 3 ? { ok: false, error: lost(attempts), conflict: true } : { ok: true, value: attempts }));
  assert.deepEqual(cleared, { ok: true, value: 3 });
});

/**
 * Makes every compare-and-swap of the store lose: just before each of its writes another writer changes the
 * object it is about (a real write, so the real store answers the conflict). Counts the writes that lost.
 */
function rivalWriter(t: TestRegistry): { readonly lost: () => number } {
  const store = t.registry.store as { -readonly [K in keyof Store]: Store[K] };
  const { update, remove } = store;
  let writes = 0;
  let rivalry = 0;
  const rival = async (def: ResourceDef, object: KubeObject): Promise<void> => {
    writes++;
    const got = await store.get(def, object.metadata?.namespace ?? '', object.metadata?.name ?? '');
    assert.ok(got.ok);
    const meta = got.value.metadata ?? {};
    const bumped = await update(def, { ...got.value, metadata: { ...meta, annotations: { ...meta.annotations, rival: String(++rivalry) } } }, { dryRun: false });
    assert.ok(bumped.ok);
  };
  store.update = async (def, object, options) => {
    await rival(def, object);
    return update(def, object, options);
  };
  store.remove = async (def, current, options) => {
    await rival(def, current);
    return remove(def, current, options);
  };
  return { lost: () => writes };
}

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } };

async function seeded(): Promise<TestRegistry> {
  const t = await testRegistry();
  for (const [group, resource, body] of [
    ['', 'configmaps', { metadata: { name: 'x' }, data: { a: '1' } }],
    ['', 'pods', { metadata: { name: 'p' }, spec: template.spec }],
    ['apps', 'deployments', { metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template } }],
  ] as const) {
    const created = await t.call({ verb: 'create', group, resource, namespace: 'default', body });
    assert.equal(created.code, 201, JSON.stringify(created.body));
  }
  return t;
}

test('update, patch, delete and subresource writes give up after the same limit with kube\'s 409', async () => {
  const t = await seeded();
  const writes = rivalWriter(t);
  const cases = [
    { verb: 'update', resource: 'configmaps', name: 'x', body: { metadata: { name: 'x' }, data: { a: '2' } } },
    { verb: 'patch', resource: 'configmaps', name: 'x', contentType: 'application/merge-patch+json', body: { data: { a: '3' } } },
    { verb: 'patch', resource: 'configmaps', name: 'x', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'm', force: 'true' },
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '4' } } },
    { verb: 'delete', resource: 'configmaps', name: 'x' },
    { verb: 'update', group: 'apps', resource: 'deployments', name: 'web', subresource: 'scale', body: { metadata: { name: 'web' }, spec: { replicas: 3 } } },
    { verb: 'create', resource: 'pods', name: 'p', subresource: 'binding', body: { metadata: { name: 'p' }, target: { name: 'n1' } } },
  ];
  for (const c of cases) {
    const before = writes.lost();
    const res = await t.call({ namespace: 'default', ...c });
    const label = `${c.verb} ${c.resource}/${c.subresource ?? ''} ${c.contentType ?? ''}`;
    assert.equal(res.code, 409, `${label}: ${JSON.stringify(res.body)}`);
    const qualified = c.group === 'apps' ? 'deployments.apps' : c.resource;
    assert.equal((res.body as Status).message, `Operation cannot be fulfilled on ${qualified} "${c.name}": ${optimisticLockMessage}`, label);
    assert.equal(writes.lost() - before, maxWriteAttempts, label);
  }
});

test('the preconditions are checked on every read, before any write', async () => {
  const t = await seeded();
  const writes = rivalWriter(t);
  const stale = await t.call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'x', body: { preconditions: { uid: 'other' } } });
  assert.equal(stale.code, 409);
  assert.match((stale.body as Status).message ?? '', /^Operation cannot be fulfilled on configmaps "x": Precondition failed: UID in precondition: other, UID in object meta: /);
  assert.equal(writes.lost(), 0);

  const def = t.registry.lookup('', 'v1', 'configmaps')!;
  let reads = 0;
  const result = await guaranteedUpdate(t.registry, def, { namespace: 'default', name: 'x', preconditions: { resourceVersion: '1' } }, async () => {
    reads++;
    return { ok: true, value: undefined };
  });
  assert.equal(result.ok, false);
  assert.equal(reads, 0);
  const missing = await guaranteedUpdate(t.registry, def, { namespace: 'default', name: 'none' }, async () => ({ ok: true, value: 'never' }));
  assert.equal(!missing.ok && missing.error.code, 404);
  const created = await guaranteedUpdate(t.registry, def, { namespace: 'default', name: 'none', ignoreNotFound: true }, async (current) => ({ ok: true, value: current }));
  assert.deepEqual(created, { ok: true, value: undefined });
});
