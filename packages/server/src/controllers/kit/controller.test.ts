import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';
import { done, retry, retryAfter, runController, type SyncResult } from './controller.js';
import { createInformerFactory } from './informer-factory.js';
import { itemExponentialFailureRateLimiter } from './rate-limiter.js';
import { createWorkQueue } from './work-queue.js';

const keyOf = (o: KubeObject): string => `${o.metadata?.namespace}/${o.metadata?.name}`;

async function configMaps() {
  const t = await testRegistry(['default']);
  const def = t.registry.lookup('', 'v1', 'configmaps')!;
  const create = async (name: string): Promise<void> => {
    const r = await t.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name }, data: { k: 'v' } } });
    assert.equal(r.code, 201);
  };
  return { ...t, def, create };
}

test('a late listener is told of the objects held; workers start after the sync; shared informers, whole or metadata', async () => {
  const { registry, def, create } = await configMaps();
  await create('before');
  const informers = createInformerFactory(registry, { retryMs: 10 });
  const informer = informers.informerFor(def);
  assert.equal(informers.informerFor(registry.lookup('', 'v1', 'configmaps')!), informer, 'one informer per resource');
  await informer.synced();
  const synced: string[] = [];
  const queue = createWorkQueue();
  const controller = runController('example', { registry, informers }, () => ({
    handlers: [{ informer, listener: (_change, o) => queue.add(keyOf(o)) }],
    loops: [{ queue, sync: async (key) => (synced.push(key), done) }],
  }));
  try {
    await controller.idle();
    assert.deepEqual(synced, ['default/before']);
    await create('after');
    await sleep(20);
    await controller.idle();
    assert.deepEqual(synced, ['default/before', 'default/after']);
    assert.equal(await controller.checks[0]!.check(), undefined);
    assert.equal(controller.checks[0]!.name, 'example');

    const metadata = informers.metadataInformerFor(def);
    assert.notEqual(metadata, informer, 'a metadata view is another informer');
    assert.equal(informers.metadataInformerFor(def), metadata);
    await metadata.synced();
    const held = metadata.get('default', 'before')!;
    assert.deepEqual(Object.keys(held).sort(), ['apiVersion', 'kind', 'metadata']);
    assert.ok(informer.get('default', 'before')!.metadata?.managedFields, 'the whole object has managedFields');
    assert.equal(held.metadata?.managedFields, undefined, 'the metadata view drops them');
    assert.equal(held.metadata?.uid, informer.get('default', 'before')!.metadata?.uid);
  } finally {
    await controller.stop();
    informers.stop();
  }
});

test('retry backs off per key and is logged, a throw is retried like a failure, retryAfter waits, done forgets', async () => {
  const { registry, def, create } = await configMaps();
  const attempts = new Map<string, number[]>();
  const logged: string[] = [];
  const queue = createWorkQueue({ rateLimiter: itemExponentialFailureRateLimiter(20, 40) });
  const outcomes: Record<string, (n: number) => SyncResult> = {
    'default/flaky': (n) => (n < 3 ? retry(`attempt ${n} failed`) : done),
    'default/waiting': (n) => (n < 2 ? retryAfter(30) : done),
    'default/buggy': (n) => {
      if (n < 2) throw new Error('a bug');
      return done;
    },
  };
  const started = Date.now();
  const controller = runController('example', { registry, retryMs: 10, log: (m) => logged.push(m) }, (informers) => {
    const informer = informers.informerFor(def);
    return {
      handlers: [{ informer, listener: (_change, o) => queue.add(keyOf(o)) }],
      loops: [{
        queue,
        workers: 3,
        async sync(key) {
          const times = attempts.get(key) ?? [];
          attempts.set(key, [...times, Date.now() - started]);
          return outcomes[key]?.(times.length + 1) ?? done;
        },
      }],
    };
  });
  try {
    await Promise.all([create('flaky'), create('waiting'), create('buggy')]);
    await sleep(10);
    await controller.idle();
    const flaky = attempts.get('default/flaky')!;
    assert.equal(flaky.length, 3);
    assert.ok(flaky[1]! - flaky[0]! >= 15, `first back-off ${flaky[1]! - flaky[0]!}ms`);
    assert.ok(flaky[2]! - flaky[1]! >= 35, `second back-off ${flaky[2]! - flaky[1]!}ms`);
    assert.equal(queue.numRequeues('default/flaky'), 0, 'done forgot the back-off');
    const waiting = attempts.get('default/waiting')!;
    assert.equal(waiting.length, 2);
    assert.ok(waiting[1]! - waiting[0]! >= 25);
    assert.equal(attempts.get('default/buggy')!.length, 2);
    assert.deepEqual(logged.filter((m) => m.includes('flaky')), [
      'example: syncing default/flaky failed (retry 1): attempt 1 failed',
      'example: syncing default/flaky failed (retry 2): attempt 2 failed',
    ]);
    assert.ok(logged.some((m) => m.startsWith('example: syncing default/buggy failed (retry 1): Error: a bug')));
    assert.ok(!logged.some((m) => m.includes('waiting')), 'waiting is not failing');
  } finally {
    await controller.stop();
  }
});

test('stop waits for the syncs under way, then no listener, queue or informer of the controller is left', async () => {
  const { registry, def, create } = await configMaps();
  let release!: () => void;
  const blocked = new Promise<void>((resolve) => (release = resolve));
  const synced: string[] = [];
  const queue = createWorkQueue();
  const controller = runController('example', { registry, retryMs: 10 }, (informers) => ({
    handlers: [{ informer: informers.informerFor(def), listener: (_change, o) => queue.add(keyOf(o)) }],
    loops: [{
      queue,
      async sync(key) {
        synced.push(key);
        if (key === 'default/slow') await blocked;
        return done;
      },
    }],
  }));
  await create('slow');
  while (synced.length === 0) await sleep(5);
  await create('queued');
  await sleep(10);
  let stopped = false;
  const stopping = controller.stop().then(() => (stopped = true));
  await sleep(10);
  assert.equal(stopped, false, 'the sync under way is waited for');
  release();
  await stopping;
  assert.deepEqual(synced, ['default/slow'], 'the queued key was dropped');
  assert.ok(queue.isShuttingDown());
  assert.equal(await controller.checks[0]!.check(), 'not watching configmaps', 'its own informer is stopped');
  await controller.idle();
});

test('idle covers every queue of a controller, and keys one queue hands to another', async () => {
  const { registry, def, create } = await configMaps();
  const first = createWorkQueue();
  const second = createWorkQueue();
  const seen: string[] = [];
  const controller = runController('example', { registry }, (informers) => ({
    handlers: [{ informer: informers.informerFor(def), listener: (_change, o) => first.add(keyOf(o)) }],
    loops: [
      { queue: first, sync: async (key) => (seen.push(`first ${key}`), second.addAfter(key, 20), done) },
      { queue: second, sync: async (key) => (seen.push(`second ${key}`), done) },
    ],
    healthCheckName: 'example-check',
  }));
  try {
    await create('x');
    await sleep(10);
    await controller.idle();
    assert.deepEqual(seen, ['first default/x', 'second default/x']);
    assert.equal(controller.checks[0]!.name, 'example-check');
  } finally {
    await controller.stop();
  }
});
