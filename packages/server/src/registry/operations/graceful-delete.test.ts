import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';
import { beforeDelete } from './delete-object.js';

type Pod = KubeObject & { spec: Record<string, unknown> };
const podBody = (name: string, spec: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

async function setup() {
  const t = await testRegistry();
  const create = async (name: string, spec: Record<string, unknown> = {}): Promise<Pod> => {
    const res = await t.call({ verb: 'create', resource: 'pods', namespace: 'default', body: podBody(name, spec) });
    assert.equal(res.code, 201, JSON.stringify(res.body));
    return res.body as Pod;
  };
  const del = (name: string, grace?: number, resource = 'pods') =>
    t.call({ verb: 'delete', resource, namespace: 'default', name, ...(grace !== undefined ? { query: { gracePeriodSeconds: String(grace) } } : {}) });
  const get = (name: string, resource = 'pods') => t.call({ verb: 'get', resource, namespace: 'default', name });
  return { t, create, del, get };
}

const seconds = (ts: string | undefined): number => Date.parse(ts ?? '') / 1000;

test('a bound pod is deleted gracefully with its terminationGracePeriodSeconds; a second delete only shortens', async () => {
  const { create, del, get } = await setup();
  await create('bound', { nodeName: 'node-1' });
  const started = Date.now() / 1000;
  const first = await del('bound');
  assert.equal(first.code, 200, JSON.stringify(first.body));
  const marked = first.body as Pod;
  assert.equal(marked.kind, 'Pod');
  assert.equal(marked.metadata?.deletionGracePeriodSeconds, 30);
  const deadline = seconds(marked.metadata?.deletionTimestamp);
  assert.ok(Math.abs(deadline - (started + 30)) <= 2, `deadline ${marked.metadata?.deletionTimestamp} about now + 30 s`);
  assert.equal((await get('bound')).code, 200, 'kept for the node agent');

  // Longer or equal, or none: nothing changes, the object is answered as it is.
  for (const grace of [60, 30, undefined]) {
    const again = await del('bound', grace);
    assert.equal(again.code, 200);
    assert.equal((again.body as Pod).metadata?.resourceVersion, marked.metadata?.resourceVersion, `grace ${grace}`);
    assert.equal((again.body as Pod).metadata?.deletionGracePeriodSeconds, 30);
  }
  // Shorter: the deadline moves back by the difference.
  const shorter = await del('bound', 10);
  assert.equal(shorter.code, 200);
  const short = shorter.body as Pod;
  assert.equal(short.metadata?.deletionGracePeriodSeconds, 10);
  assert.equal(seconds(short.metadata?.deletionTimestamp), deadline - 20);
  assert.notEqual(short.metadata?.resourceVersion, marked.metadata?.resourceVersion);
  // Zero (kubectl delete --grace-period=0 --force): removed now, 200 with the object.
  const forced = await del('bound', 0);
  assert.equal(forced.code, 200);
  assert.equal((forced.body as Pod).kind, 'Pod');
  assert.equal((await get('bound')).code, 404);
});

test('grace period 0, an unbound pod and other kinds are deleted at once; the pod spec default and negatives', async () => {
  const { t, create, del, get } = await setup();
  await create('zero', { nodeName: 'node-1' });
  assert.equal((await del('zero', 0)).code, 200);
  assert.equal((await get('zero')).code, 404);

  await create('unbound');
  const unbound = await del('unbound', 30);
  assert.equal(unbound.code, 200);
  assert.equal((await get('unbound')).code, 404, 'no node, nothing to wait for');

  await create('custom', { nodeName: 'node-1', terminationGracePeriodSeconds: 5 });
  assert.equal(((await del('custom')).body as Pod).metadata?.deletionGracePeriodSeconds, 5);
  await create('negative', { nodeName: 'node-1' });
  assert.equal(((await del('negative', -3)).body as Pod).metadata?.deletionGracePeriodSeconds, 1, 'negative counts as 1 s');

  const cm = await t.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } });
  assert.equal(cm.code, 201);
  const gone = await del('c', 30, 'configmaps');
  assert.equal(gone.code, 200);
  assert.equal((gone.body as { kind: string }).kind, 'Status');
  assert.equal((await get('c', 'configmaps')).code, 404, 'configmaps have no graceful deletion');
});

test('a bound pod with finalizers: grace 0 keeps it for the finalizers; dry run stores nothing', async () => {
  const { t, del, get } = await setup();
  const res = await t.call({ verb: 'create', resource: 'pods', namespace: 'default',
    body: { ...podBody('fin', { nodeName: 'node-1' }), metadata: { name: 'fin', finalizers: ['example.com/hold'] } } });
  assert.equal(res.code, 201);
  const dry = await t.call({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'fin', query: { dryRun: 'All' } });
  assert.equal(dry.code, 200);
  assert.equal((dry.body as Pod).metadata?.deletionGracePeriodSeconds, 30);
  assert.equal(((await get('fin')).body as Pod).metadata?.deletionTimestamp, undefined, 'dry run left it alone');
  const zero = await del('fin', 0);
  assert.equal(zero.code, 200);
  assert.equal((zero.body as Pod).metadata?.deletionGracePeriodSeconds, 0);
  assert.equal((await get('fin')).code, 200, 'the finalizer keeps it');
});

test('beforeDelete: no graceful deletion without the strategy hook; generation bumps when marking', async () => {
  const t = await testRegistry();
  const cmDef = t.registry.lookup('', 'v1', 'configmaps')!;
  const podDef = t.registry.lookup('', 'v1', 'pods')!;
  assert.deepEqual(beforeDelete(cmDef, { metadata: { name: 'c' } }, 30), { graceful: false, pending: false, period: 0 });
  const pod: KubeObject = { metadata: { name: 'p', generation: 2 }, spec: { nodeName: 'n' } };
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.deepEqual(beforeDelete(podDef, pod, undefined, now), { graceful: true, pending: false, period: 0 });
  assert.equal(pod.metadata?.deletionTimestamp, '2026-01-01T00:00:00Z', 'no terminationGracePeriodSeconds: 0');
  assert.equal(pod.metadata?.generation, 3);
  const marked: KubeObject = { metadata: { name: 'p', deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 0 } };
  assert.equal(beforeDelete(podDef, marked, 10).graceful, false, 'already at zero: delete now');
});

test('an object kept by finalizers is marked once: generation moves with the mark, not with a repeated delete', async () => {
  const { t } = await setup();
  const body = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'held', finalizers: ['example.com/hold'] },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  const created = await t.call({ verb: 'create', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', body });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  assert.equal((created.body as KubeObject).metadata?.generation, 1);
  const del = () => t.call({ verb: 'delete', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', name: 'held' });
  const first = await del();
  assert.equal(first.code, 200);
  const marked = first.body as KubeObject;
  assert.equal(marked.metadata?.generation, 2);
  assert.equal(marked.metadata?.deletionGracePeriodSeconds, 0);
  assert.ok(marked.metadata?.deletionTimestamp);
  const again = await del();
  assert.equal((again.body as KubeObject).metadata?.generation, 2, 'already marked');
  // ConfigMaps carry no generation: none appears.
  const cm = await t.call({ verb: 'create', resource: 'configmaps', namespace: 'default', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
  assert.equal(cm.code, 201);
  const cmDel = await t.call({ verb: 'delete', resource: 'configmaps', namespace: 'default', name: 'held' });
  assert.equal((cmDel.body as KubeObject).metadata?.generation, undefined);
});
