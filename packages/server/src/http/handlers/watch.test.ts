import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject, Status } from '@svc-apiserver/api';
import { fakeContext, type FakeRequest, type FakeResponse } from '../../testing/fake-context.js';
import { resourceHandler } from './resource-handler.js';
import { testRegistry } from '../../testing/test-registry.js';

/** Starts a watch; returns its response record, a way to wait for n events, and a stop. */
function startWatch(handle: (ctx: ReturnType<typeof fakeContext>['ctx']) => Promise<void>, req: Omit<FakeRequest, 'verb' | 'signal'>) {
  const abort = new AbortController();
  const { ctx, response } = fakeContext({ ...req, verb: 'watch', signal: abort.signal });
  const done = handle(ctx);
  const waitFor = (n: number): Promise<void> => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(response.events.map((e) => e.type))}`)), 2000);
    const check = () => {
      if (response.events.length >= n) {
        clearTimeout(timer);
        resolve();
      }
    };
    response.onEvent = check;
    check();
  });
  const stop = async (): Promise<FakeResponse> => {
    abort.abort();
    await done;
    return response;
  };
  return { response, waitFor, stop, done };
}

const summary = (r: FakeResponse) => r.events.map((e) => `${e.type} ${(e.object as KubeObject).metadata?.name ?? ''}`);

test('watch: initial ADDED events, then changes; selectors turn leaving into DELETED and entering into ADDED', async () => {
  const { registry, call } = await testRegistry();
  const handle = resourceHandler(registry);
  await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'pre', labels: { w: 'yes' } } } });
  await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'other' } } });
  const w = startWatch(handle, { resource: 'configmaps', namespace: 'default', query: { watch: '1', labelSelector: 'w=yes' } });
  await w.waitFor(1);
  const a = (await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'a' } } })).body as KubeObject;
  await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'a', contentType: 'application/merge-patch+json', body: { metadata: { labels: { w: 'yes' } } } });
  await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'a', contentType: 'application/merge-patch+json', body: { data: { k: 'v' } } });
  await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'a', contentType: 'application/merge-patch+json', body: { metadata: { labels: { w: null } } } });
  await call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'pre' });
  await w.waitFor(5);
  const r = await w.stop();
  assert.deepEqual(summary(r), ['ADDED pre', 'ADDED a', 'MODIFIED a', 'DELETED a', 'DELETED pre']);
  assert.equal(r.watchEnded, true);
  assert.equal((r.events[1]!.object as KubeObject).kind, 'ConfigMap');
  assert.ok(Number((r.events[1]!.object as KubeObject).metadata?.resourceVersion) > Number(a.metadata?.resourceVersion));
});

test('watch from a resourceVersion sends only later changes; one object by name; timeoutSeconds ends it', async () => {
  const { registry, call } = await testRegistry();
  const handle = resourceHandler(registry);
  const first = (await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'one' } } })).body as KubeObject;
  await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: 'two' } } });
  const w = startWatch(handle, { resource: 'configmaps', namespace: 'default', name: 'one', query: { watch: '1', resourceVersion: first.metadata!.resourceVersion! } });
  await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'two', contentType: 'application/merge-patch+json', body: { data: { x: '1' } } });
  await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'one', contentType: 'application/merge-patch+json', body: { data: { x: '1' } } });
  await w.waitFor(1);
  assert.deepEqual(summary(await w.stop()), ['MODIFIED one']);

  const t = startWatch(handle, { resource: 'configmaps', namespace: 'default', query: { watch: '1', timeoutSeconds: '1' } });
  await t.done;
  assert.equal(t.response.watchEnded, true);
  assert.deepEqual(summary(t.response), ['ADDED one', 'ADDED two']);
});

test('watch from a compacted resourceVersion ends with an ERROR event carrying 410 Expired', async () => {
  const { registry, backend, call } = await testRegistry();
  const handle = resourceHandler(registry);
  for (let i = 0; i < 3; i++) await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: `c${i}` } } });
  await backend.compact(await backend.currentRevision());
  const w = startWatch(handle, { resource: 'configmaps', namespace: 'default', query: { watch: '1', resourceVersion: '1' } });
  await w.done;
  assert.equal(w.response.events.length, 1);
  assert.equal(w.response.events[0]!.type, 'ERROR');
  const status = w.response.events[0]!.object as unknown as Status;
  assert.equal(status.code, 410);
  assert.equal(status.reason, 'Expired');
  assert.match(status.message ?? '', /^too old resource version: 1 \(\d+\)$/);
});

test('watch: a watcher that does not read is cut off by the bytes waiting for it, and dropped when it does not take the end', async (t) => {
  const { registry, call } = await testRegistry(['default'], { maxWatchBacklog: 10_000, maxWatchBacklogBytes: 64 * 1024 });
  const handle = resourceHandler(registry);
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const slow = startWatch(handle, { resource: 'configmaps', namespace: 'default', query: { watch: '1' }, slowWatch: true });
  const fast = startWatch(handle, { resource: 'configmaps', namespace: 'default', query: { watch: '1' } });
  // Ten events of 10 KB: far below the event limit, but the bytes pass 64 KiB after the seventh waits.
  for (let i = 0; i < 10; i++) {
    await call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { metadata: { name: `big-${i}` }, data: { a: 'x'.repeat(10_000) } } });
  }
  await slow.done;
  assert.deepEqual(slow.response.events.map((e) => e.type), ['ADDED', 'ERROR']);
  assert.equal((slow.response.events[1]!.object as unknown as Status).reason, 'Expired');
  assert.equal(slow.response.watchAborted, undefined, 'the client gets a while to read the ERROR');
  t.mock.timers.tick(10_000);
  assert.equal(slow.response.watchAborted, true, 'a client that did not take the end of its watch loses the response');
  await fast.waitFor(10);
  const r = await fast.stop();
  assert.equal(r.events.length, 10);
  assert.equal(r.watchAborted, undefined, 'a reading client is never dropped');
});
