import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeList, KubeObject, Status, WatchEvent } from '@svc-apiserver/api';
import { namesFor } from '@svc-apiserver/api';
import { createAdmissionChain } from '../admission/chain.js';
import { identityAdmissionPlugins } from '../admission/plugins/identity-plugins.js';
import { fakeContext, type FakeRequest, type FakeResponse } from '../testing/fake-context.js';
import { resourceHandler } from '../http/handlers/resource-handler.js';
import { loadCatalog } from '../schema/load-catalog.js';
import { openMemoryBackend } from '../storage/memory/memory-backend.js';
import { createRegistry } from './registry.js';
import type { StoreOptions } from './store.js';

const names = namesFor('svc');
const catalog = loadCatalog(names);

/** A registry over memory with fast waits, and a caller. */
async function setup(store: StoreOptions = {}) {
  const backend = openMemoryBackend();
  // Pods are created here without service accounts or a server to read them: the ServiceAccount plugin is left out.
  const admission = createAdmissionChain({ names, disable: identityAdmissionPlugins });
  if (!admission.ok) throw new Error('admission');
  const registry = createRegistry({ backend, catalog, names, admission: admission.value, store: { tooLargeWaitMs: 200, ...store } });
  const handle = resourceHandler(registry);
  const call = async (req: FakeRequest): Promise<FakeResponse> => {
    const { ctx, response } = fakeContext(req);
    await handle(ctx);
    return response;
  };
  const created = await call({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'default' } } });
  assert.equal(created.code, 201);
  const cm = async (name: string, labels: Record<string, string> = {}, ns = 'default'): Promise<KubeObject> => {
    const r = await call({ verb: 'create', resource: 'configmaps', namespace: ns, body: { metadata: { name, labels } } });
    assert.equal(r.code, 201, JSON.stringify(r.body));
    return r.body as KubeObject;
  };
  const list = async (query: Record<string, string>, extra: Partial<FakeRequest> = {}) =>
    call({ verb: 'list', resource: 'configmaps', namespace: 'default', query, ...extra });
  const watch = (query: Record<string, string>, extra: Partial<FakeRequest> = {}) => {
    const abort = new AbortController();
    const { ctx, response } = fakeContext({ verb: 'watch', resource: 'configmaps', namespace: 'default', query: { watch: '1', ...query }, signal: abort.signal, ...extra });
    const done = handle(ctx);
    const waitFor = (n: number, ms = 3000): Promise<void> => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out with ${JSON.stringify(response.events.map((e) => e.type))}`)), ms);
      const check = () => {
        if (response.events.length >= n) {
          clearTimeout(timer);
          resolve();
        }
      };
      response.onEvent = check;
      check();
    });
    return { response, waitFor, done, stop: async () => { abort.abort(); await done; return response; } };
  };
  return { backend, registry, call, cm, list, watch, close: () => registry.store.close() };
}

const namesOf = (l: unknown) => (l as KubeList).items.map((i) => i.metadata?.name);
const summary = (events: readonly WatchEvent[]) => events.map((e) => `${e.type} ${(e.object as KubeObject).metadata?.name ?? ''}`);

test('pagination: one snapshot across chunks under concurrent writes, remainingItemCount, empty continue at the end', async () => {
  const s = await setup();
  for (let i = 0; i < 7; i++) await s.cm(`c${i}`);
  const first = await s.list({ limit: '3' });
  assert.equal(first.code, 200);
  const meta = (first.body as KubeList).metadata;
  assert.deepEqual(namesOf(first.body), ['c0', 'c1', 'c2']);
  assert.equal(meta.remainingItemCount, 4);
  assert.ok(meta.continue);
  // Writes after the first chunk do not show in later chunks.
  await s.cm('c3a');
  await s.call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'c5' });
  const second = await s.list({ limit: '3', continue: meta.continue! });
  assert.deepEqual(namesOf(second.body), ['c3', 'c4', 'c5']);
  assert.equal((second.body as KubeList).metadata.resourceVersion, meta.resourceVersion);
  assert.equal((second.body as KubeList).metadata.remainingItemCount, 1);
  const third = await s.list({ limit: '3', continue: (second.body as KubeList).metadata.continue! });
  assert.deepEqual(namesOf(third.body), ['c6']);
  assert.equal((third.body as KubeList).metadata.continue, undefined);
  assert.equal((third.body as KubeList).metadata.remainingItemCount, undefined);
  // Selectors: no remainingItemCount.
  const selected = await s.list({ limit: '2', labelSelector: '!missing' });
  assert.equal((selected.body as KubeList).metadata.remainingItemCount, undefined);
  assert.ok((selected.body as KubeList).metadata.continue);
  s.close();
});

test('continue tokens: tampered or malformed → 400; compacted → 410 Expired with a token to continue inconsistently', async () => {
  const s = await setup();
  for (let i = 0; i < 4; i++) await s.cm(`c${i}`);
  const first = await s.list({ limit: '2' });
  const token = (first.body as KubeList).metadata.continue!;
  for (const bad of ['not-a-token!', 'eyJ2IjoxLCJydiI6MSwic3RhcnQiOiJ4In0', token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA')]) {
    const r = await s.list({ limit: '2', continue: bad });
    assert.equal(r.code, 400, bad);
    assert.match((r.body as Status).message ?? '', /^invalid continue token: continue key is not valid/);
  }
  const withRv = await s.list({ limit: '2', continue: token, resourceVersion: '5' });
  assert.equal(withRv.code, 400);
  assert.equal((withRv.body as Status).message, 'specifying resource version is not allowed when using continue');
  const withRv0 = await s.list({ limit: '2', continue: token, resourceVersion: '0' });
  assert.equal(withRv0.code, 200, 'rv=0 with a token is treated as the token');
  await s.cm('c9');
  await s.backend.compact(await s.backend.currentRevision());
  const expired = await s.list({ limit: '2', continue: token });
  assert.equal(expired.code, 410);
  const status = expired.body as Status & { metadata: { continue?: string } };
  assert.equal(status.reason, 'Expired');
  assert.match(status.message ?? '', /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response/);
  const resumed = await s.list({ limit: '10', continue: status.metadata.continue! });
  assert.equal(resumed.code, 200);
  assert.deepEqual(namesOf(resumed.body), ['c2', 'c3', 'c9']);
  s.close();
});

test('resourceVersion table for list: every cell', async () => {
  const s = await setup();
  const a = await s.cm('a');
  const rvA = Number(a.metadata!.resourceVersion);
  await s.cm('b');
  const current = Number(((await s.list({})).body as KubeList).metadata.resourceVersion);
  const cases: [Record<string, string>, number, string[] | RegExp, string?][] = [
    [{}, 200, ['a', 'b'], String(current)],
    [{ resourceVersion: '0' }, 200, ['a', 'b']],
    [{ resourceVersion: String(rvA) }, 200, ['a', 'b'], String(current)],
    [{ resourceVersion: String(rvA), limit: '5' }, 200, ['a'], String(rvA)],
    [{ resourceVersion: String(rvA), resourceVersionMatch: 'Exact' }, 200, ['a'], String(rvA)],
    [{ resourceVersion: String(rvA), resourceVersionMatch: 'NotOlderThan', limit: '5' }, 200, ['a', 'b']],
    [{ resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, 200, ['a', 'b']],
    // Any, from the watch cache, which ignores the limit as kube's does.
    [{ resourceVersion: '0', limit: '1' }, 200, ['a', 'b'], String(current)],
    [{ resourceVersion: '0', resourceVersionMatch: 'NotOlderThan', limit: '1' }, 200, ['a', 'b']],
    [{ resourceVersionMatch: 'Exact' }, 422, /^ListOptions\.meta\.svc\.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided$/],
    [{ resourceVersionMatch: 'NotOlderThan', limit: '2' }, 422, /forbidden unless resourceVersion is provided/],
    [{ resourceVersion: '0', resourceVersionMatch: 'Exact' }, 422, /resourceVersionMatch "exact" is forbidden for resourceVersion "0"/],
    [{ resourceVersion: '1', resourceVersionMatch: 'Sometimes' }, 422, /Unsupported value: "Sometimes": supported values: "Exact", "NotOlderThan", ""/],
    [{ resourceVersion: 'x1' }, 400, /^invalid resource version/],
    [{ sendInitialEvents: 'true' }, 422, /sendInitialEvents is forbidden for list/],
  ];
  for (const [query, code, expect, rv] of cases) {
    const r = await s.list(query);
    assert.equal(r.code, code, `${JSON.stringify(query)}: ${JSON.stringify(r.body)}`);
    if (Array.isArray(expect)) assert.deepEqual(namesOf(r.body), expect, JSON.stringify(query));
    else assert.match((r.body as Status).message ?? '', expect, JSON.stringify(query));
    if (rv !== undefined) assert.equal((r.body as KubeList).metadata.resourceVersion, rv, JSON.stringify(query));
    if (code === 200 && query.resourceVersion === '0') assert.equal((r.body as KubeList).metadata.continue, undefined, JSON.stringify(query));
  }
  // Too large: a brief wait, then 504 with Retry-After's seconds in details.
  const far = String(current + 1000);
  for (const query of [{ resourceVersion: far }, { resourceVersion: far, limit: '1' }, { resourceVersion: far, resourceVersionMatch: 'Exact' }]) {
    const r = await s.list(query);
    assert.equal(r.code, 504, JSON.stringify(query));
    assert.match((r.body as Status).message ?? '', /^Timeout: Too large resource version: \d+, current: \d+$/);
    assert.equal((r.body as Status).details?.retryAfterSeconds, 1);
  }
  // Exact after compaction: 410.
  await s.cm('c');
  await s.backend.compact(await s.backend.currentRevision());
  const gone = await s.list({ resourceVersion: String(rvA), resourceVersionMatch: 'Exact' });
  assert.equal(gone.code, 410);
  assert.equal((gone.body as Status).reason, 'Expired');
  // A not-older-than read of an old revision is served (from the cache) whatever the history.
  assert.equal((await s.list({ resourceVersion: String(rvA) })).code, 200);
  s.close();
});

test('resourceVersion table for get; YAML lists are whole objects', async () => {
  const s = await setup();
  const a = await s.cm('a');
  const get = (query: Record<string, string>) => s.call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'a', query });
  assert.equal((await get({})).code, 200);
  assert.equal(((await get({ resourceVersion: '0' })).body as KubeObject).metadata?.name, 'a');
  assert.equal((await get({ resourceVersion: a.metadata!.resourceVersion! })).code, 200);
  const far = await get({ resourceVersion: String(Number(a.metadata!.resourceVersion) + 100) });
  assert.equal(far.code, 504);
  assert.equal((await s.call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'zz', query: { resourceVersion: '0' } })).code, 404);
  const whole = await s.list({}, { accept: 'application/yaml' });
  assert.equal(whole.code, 200);
  assert.deepEqual(namesOf(whole.body), ['a']);
  s.close();
});

test('a get without resourceVersion is served from the watch cache once it has caught up with storage, else from storage', async () => {
  const s = await setup();
  await s.cm('a');
  const def = s.registry.lookup('', 'v1', 'configmaps')!;
  const first = await s.registry.store.getStored(def, 'default', 'a');
  const again = await s.registry.store.getStored(def, 'default', 'a');
  assert.ok(first.ok && again.ok);
  assert.equal(again.value, first.value, 'the cache\'s own object version, not a fresh read of storage');
  const any = await s.registry.store.getStored(def, 'default', 'a', '0');
  assert.ok(any.ok);
  assert.equal(any.value, first.value);
  // A write is seen by the next get, and the body is the object's JSON with kind and apiVersion first.
  const updated = await s.call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'a', body: { metadata: { name: 'a' }, data: { k: 'v' } } });
  assert.equal(updated.code, 200);
  const got = await s.call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'a' });
  assert.equal(got.code, 200);
  assert.deepEqual(got.body, updated.body);
  assert.deepEqual(Object.keys(got.body as object).slice(0, 2), ['kind', 'apiVersion']);
  // With the caches stopped, gets read storage.
  s.close();
  const fromStorage = await s.registry.store.getStored(def, 'default', 'a');
  assert.ok(fromStorage.ok);
  assert.notEqual(fromStorage.value, first.value);
  assert.deepEqual(fromStorage.value.copy().data, { k: 'v' });
});

test('APIListChunking off: limit and continue are ignored', async () => {
  const s = await setup({ apiListChunking: false });
  for (let i = 0; i < 3; i++) await s.cm(`c${i}`);
  const r = await s.list({ limit: '1' });
  assert.deepEqual(namesOf(r.body), ['c0', 'c1', 'c2']);
  assert.equal((r.body as KubeList).metadata.continue, undefined);
  s.close();
});

test('field selectors per type: supported fields filter, others are 400', async () => {
  const s = await setup();
  const pod = (name: string, spec: Record<string, unknown>) => s.call({
    verb: 'create', resource: 'pods', namespace: 'default',
    body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } },
  });
  assert.equal((await pod('p1', { nodeName: 'n1', restartPolicy: 'Never' })).code, 201);
  assert.equal((await pod('p2', { nodeName: 'n2', hostNetwork: true })).code, 201);
  const podList = (fieldSelector: string) => s.call({ verb: 'list', resource: 'pods', namespace: 'default', query: { fieldSelector } });
  assert.deepEqual(namesOf((await podList('spec.nodeName=n1')).body), ['p1']);
  assert.deepEqual(namesOf((await podList('spec.nodeName!=n1')).body), ['p2']);
  assert.deepEqual(namesOf((await podList('status.phase=Pending,spec.restartPolicy=Never')).body), ['p1']);
  assert.deepEqual(namesOf((await podList('spec.hostNetwork=false')).body), ['p1']);
  assert.deepEqual(namesOf((await podList('metadata.name==p2')).body), ['p2']);
  const bad = await podList('spec.containers=x');
  assert.equal(bad.code, 400);
  assert.equal((bad.body as Status).message, 'field label not supported: spec.containers');
  const secret = await s.call({ verb: 'create', resource: 'secrets', namespace: 'default', body: { metadata: { name: 's' }, type: 'Opaque' } });
  assert.equal(secret.code, 201);
  assert.deepEqual(namesOf((await s.call({ verb: 'list', resource: 'secrets', namespace: 'default', query: { fieldSelector: 'type=Opaque' } })).body), ['s']);
  await s.call({ verb: 'create', resource: 'nodes', body: { metadata: { name: 'n1' } } });
  assert.deepEqual(namesOf((await s.call({ verb: 'list', resource: 'nodes', query: { fieldSelector: 'spec.unschedulable=false' } })).body), ['n1']);
  assert.equal((await s.call({ verb: 'list', resource: 'nodes', query: { fieldSelector: 'metadata.namespace=x' } })).code, 400);
  assert.deepEqual(namesOf((await s.call({ verb: 'list', resource: 'namespaces', query: { fieldSelector: 'status.phase=Active' } })).body), ['default']);
  s.close();
});

test('label selector operators on list and watch', async () => {
  const s = await setup();
  await s.cm('a', { app: 'web', tier: 'front' });
  await s.cm('b', { app: 'db', tier: 'back' });
  await s.cm('c', { app: 'web' });
  const sel = async (labelSelector: string) => namesOf((await s.list({ labelSelector })).body);
  assert.deepEqual(await sel('app=web'), ['a', 'c']);
  assert.deepEqual(await sel('app==web'), ['a', 'c']);
  assert.deepEqual(await sel('app!=web'), ['b']);
  assert.deepEqual(await sel('tier in (front,back)'), ['a', 'b']);
  assert.deepEqual(await sel('tier notin (front)'), ['b', 'c']);
  assert.deepEqual(await sel('tier'), ['a', 'b']);
  assert.deepEqual(await sel('!tier'), ['c']);
  assert.deepEqual(await sel('app=web,tier'), ['a']);
  const bad = await s.list({ labelSelector: 'a in (' });
  assert.equal(bad.code, 400);
  s.close();
});

test('watch: Start at Exact, selector transitions, bookmarks and a bookmark-free stream without the flag', async () => {
  const s = await setup({ cache: { bookmarkIntervalMs: 50 } });
  const a = await s.cm('a');
  const w = s.watch({ resourceVersion: a.metadata!.resourceVersion!, labelSelector: 'w=1', allowWatchBookmarks: 'true' });
  const plain = s.watch({ resourceVersion: a.metadata!.resourceVersion! });
  await s.call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'a', contentType: 'application/merge-patch+json', body: { metadata: { labels: { w: '1' } } } });
  await s.call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'a', contentType: 'application/merge-patch+json', body: { data: { x: 'y' } } });
  await s.call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'a', contentType: 'application/merge-patch+json', body: { metadata: { labels: { w: '2' } } } });
  await s.cm('other');
  await new Promise((r) => setTimeout(r, 200));
  const events = (await w.stop()).events;
  const changes = events.filter((e) => e.type !== 'BOOKMARK');
  assert.deepEqual(summary(changes), ['ADDED a', 'MODIFIED a', 'DELETED a']);
  const bookmark = events.find((e) => e.type === 'BOOKMARK');
  assert.ok(bookmark, 'a periodic bookmark arrived');
  assert.deepEqual(Object.keys(bookmark.object), ['kind', 'apiVersion', 'metadata']);
  assert.deepEqual(Object.keys((bookmark.object as KubeObject).metadata!), ['resourceVersion']);
  const last = events.filter((e) => e.type === 'BOOKMARK').at(-1)!;
  assert.ok(Number((last.object as KubeObject).metadata!.resourceVersion) >= Number((changes.at(-1)!.object as KubeObject).metadata!.resourceVersion));
  const plainEvents = (await plain.stop()).events;
  assert.deepEqual(summary(plainEvents), ['MODIFIED a', 'MODIFIED a', 'MODIFIED a', 'ADDED other']);
  s.close();
});

test('watch: invalid WatchList combinations are 422; WatchList sends initial events then the annotated bookmark', async () => {
  const off = await setup();
  const r1 = off.watch({ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' });
  await r1.done;
  assert.equal(r1.response.code, 422);
  assert.match((r1.response.body as Status).message ?? '', /sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled/);
  const r2 = off.watch({ resourceVersionMatch: 'NotOlderThan' });
  await r2.done;
  assert.equal(r2.response.code, 422);
  assert.match((r2.response.body as Status).message ?? '', /resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided/);
  off.close();

  const s = await setup({ watchList: true });
  const r3 = s.watch({ sendInitialEvents: 'true' });
  await r3.done;
  assert.equal(r3.response.code, 422);
  assert.match((r3.response.body as Status).message ?? '', /sendInitialEvents requires setting resourceVersionMatch to NotOlderThan/);
  await s.cm('a');
  await s.cm('b');
  const w = s.watch({ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' });
  await w.waitFor(3);
  await s.cm('c');
  await w.waitFor(4);
  const events = (await w.stop()).events;
  assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED', 'BOOKMARK', 'ADDED']);
  const mark = events[2]!.object as KubeObject;
  assert.deepEqual(mark.metadata?.annotations, { 'svc.io/initial-events-end': 'true' });
  assert.ok(Number(mark.metadata?.resourceVersion) >= Number((events[1]!.object as KubeObject).metadata?.resourceVersion));
  // Without initial events: only changes.
  const n = s.watch({ sendInitialEvents: 'false', resourceVersionMatch: 'NotOlderThan' });
  await s.cm('d');
  await n.waitFor(1);
  assert.deepEqual(summary((await n.stop()).events), ['ADDED d']);
  s.close();
});

test('watch: a too-old resourceVersion is an ERROR 410 even when the cache window is short', async () => {
  const s = await setup({ cache: { maxEvents: 2 }, maxWatchBacklog: 3 });
  const a = await s.cm('a');
  for (let i = 0; i < 5; i++) await s.cm(`x${i}`);
  // Out of the cache's window but still in storage's history: served from storage.
  const old = s.watch({ resourceVersion: a.metadata!.resourceVersion! });
  await old.waitFor(5);
  assert.deepEqual(summary((await old.stop()).events), ['ADDED x0', 'ADDED x1', 'ADDED x2', 'ADDED x3', 'ADDED x4']);
  await s.backend.compact(await s.backend.currentRevision());
  const gone = s.watch({ resourceVersion: a.metadata!.resourceVersion! });
  await gone.done;
  assert.equal(gone.response.events.length, 1);
  assert.equal(gone.response.events[0]!.type, 'ERROR');
  assert.equal((gone.response.events[0]!.object as unknown as Status).code, 410);
  s.close();
});

test('watch: a watcher that does not read is closed with an ERROR 410 past its backlog; the others get every event', async () => {
  const s = await setup({ maxWatchBacklog: 3 });
  const slow = s.watch({}, { slowWatch: true });
  const fast = s.watch({});
  const fastFromRv = s.watch({ resourceVersion: String(await s.backend.currentRevision()) });
  for (let i = 0; i < 10; i++) await s.cm(`c${i}`);
  await slow.done;
  // The first event filled its buffer; three more waited; the fifth went past the limit: the watch ends there.
  assert.deepEqual(slow.response.events.map((e) => e.type), ['ADDED', 'ERROR']);
  const status = slow.response.events[1]!.object as unknown as Status;
  assert.equal(status.code, 410);
  assert.equal(status.reason, 'Expired');
  assert.equal(slow.response.watchEnded, true);
  await fast.waitFor(10);
  await fastFromRv.waitFor(10);
  const expected = Array.from({ length: 10 }, (_, i) => `ADDED c${i}`);
  assert.deepEqual(summary((await fast.stop()).events), expected);
  assert.deepEqual(summary((await fastFromRv.stop()).events), expected);
  s.close();
});

test('field selectors of events/v1: regarding.*, reason, type, reportingController and metadata.*; the core spellings are 400', async () => {
  const s = await setup();
  const group = names.group('events');
  const event = (name: string, regarding: string, reason: string, type: string, controller: string) => s.call({
    verb: 'create', group, resource: 'events', namespace: 'default',
    body: {
      metadata: { name }, eventTime: '2024-01-01T00:00:00.000000Z', action: 'Pull', reason, type,
      reportingController: controller, reportingInstance: `${controller}-1`,
      regarding: { kind: 'Pod', namespace: 'default', name: regarding, apiVersion: 'v1' },
    },
  });
  assert.equal((await event('e1', 'pod-a', 'Pulled', 'Normal', 'example.com/kubelet')).code, 201);
  assert.equal((await event('e2', 'pod-b', 'BackOff', 'Warning', 'example.com/kubelet')).code, 201);
  assert.equal((await event('e3', 'pod-a', 'BackOff', 'Warning', 'other')).code, 201);
  const list = (fieldSelector: string) => s.call({ verb: 'list', group, resource: 'events', namespace: 'default', query: { fieldSelector } });
  assert.deepEqual(namesOf((await list('regarding.name=pod-a')).body), ['e1', 'e3']);
  assert.deepEqual(namesOf((await list('regarding.kind=Pod,reason=BackOff')).body), ['e2', 'e3']);
  assert.deepEqual(namesOf((await list('type=Warning,reportingController=example.com/kubelet')).body), ['e2']);
  assert.deepEqual(namesOf((await list('metadata.name!=e1,metadata.namespace=default')).body), ['e2', 'e3']);
  const core = await list('involvedObject.name=pod-a');
  assert.equal(core.code, 400);
  assert.equal((core.body as Status).message, 'field label not supported: involvedObject.name');
  assert.equal((await list('note=x')).code, 400);
  // The same events through the core version answer the core names.
  const coreList = await s.call({ verb: 'list', resource: 'events', namespace: 'default', query: { fieldSelector: 'involvedObject.name=pod-a,reportingComponent=other' } });
  assert.deepEqual(namesOf(coreList.body), ['e3']);
  // A watch applies the same selector.
  const w = s.watch({ fieldSelector: 'regarding.name=pod-b' }, { group, resource: 'events' });
  await w.waitFor(1);
  assert.deepEqual(summary((await w.stop()).events), ['ADDED e2']);
  s.close();
});

test('watch: the bookmark before a timeout comes once the cache moved past the start, whether its changes were sent or filtered out', async () => {
  const s = await setup();
  const start = (await s.list({})).body as KubeList;
  const from = start.metadata!.resourceVersion!;
  const query = { resourceVersion: from, allowWatchBookmarks: 'true', timeoutSeconds: '3' };
  const selective = s.watch({ ...query, labelSelector: 'w=1' });
  const everything = s.watch(query);
  // Another namespace sees none of the changes; kube's bookmarks are not filtered by namespace either.
  const quiet = s.watch(query, { namespace: 'elsewhere' });
  const other = await s.cm('unselected');
  const rv = other.metadata!.resourceVersion!;
  const bookmarksOf = (events: readonly WatchEvent[]) => events.filter((e) => e.type === 'BOOKMARK').map((e) => (e.object as KubeObject).metadata!.resourceVersion);
  await Promise.all([selective.done, everything.done, quiet.done]);
  assert.deepEqual(summary(selective.response.events.filter((e) => e.type !== 'BOOKMARK')), []);
  assert.deepEqual(bookmarksOf(selective.response.events), [rv], 'filtered out, yet the bookmark moves the client on');
  assert.deepEqual(summary(everything.response.events), ['ADDED unselected', 'BOOKMARK ']);
  assert.deepEqual(bookmarksOf(everything.response.events), [rv]);
  assert.deepEqual(summary(quiet.response.events), ['BOOKMARK ']);
  assert.deepEqual(bookmarksOf(quiet.response.events), [rv]);
  s.close();
});
