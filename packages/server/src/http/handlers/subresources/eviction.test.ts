import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../../testing/test-registry.js';

const pod = (name: string, labels: Record<string, string> = { app: 'web' }) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } });
const eviction = (name: string) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } });
const ready = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };

async function setup() {
  const t = await testRegistry();
  const { call } = t;
  const runningPod = async (name: string, labels?: Record<string, string>) => {
    const created = await call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod(name, labels) });
    const status = await call({ verb: 'update', resource: 'pods', namespace: 'default', name, subresource: 'status', body: { ...(created.body as object), status: ready } });
    assert.equal(status.code, 200, JSON.stringify(status.body));
  };
  const evict = (name: string) => call({ verb: 'create', resource: 'pods', namespace: 'default', name, subresource: 'eviction', body: eviction(name) });
  const exists = async (name: string) => (await call({ verb: 'get', resource: 'pods', namespace: 'default', name })).code === 200;
  const pdb = async (disruptionsAllowed: number, observedGeneration = 1) => {
    const existing = await call({ verb: 'get', group: 'policy', resource: 'poddisruptionbudgets', namespace: 'default', name: 'budget' });
    const base = existing.code === 200 ? existing.body as object
      : (await call({ verb: 'create', group: 'policy', resource: 'poddisruptionbudgets', namespace: 'default',
        body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'budget' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } } })).body as object;
    const r = await call({ verb: 'update', group: 'policy', resource: 'poddisruptionbudgets', namespace: 'default', name: 'budget', subresource: 'status',
      body: { ...base, status: { observedGeneration, disruptionsAllowed, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 } } });
    assert.equal(r.code, 200, JSON.stringify(r.body));
  };
  return { ...t, runningPod, evict, exists, pdb };
}

test('eviction without a budget deletes the pod (201 Success)', async () => {
  const { runningPod, evict, exists } = await setup();
  await runningPod('p');
  const r = await evict('p');
  assert.equal(r.code, 201, JSON.stringify(r.body));
  assert.equal((r.body as Status).status, 'Success');
  assert.equal(await exists('p'), false);
  assert.equal((await evict('p')).code, 404);
});

test('a budget allowing no disruption answers 429 and keeps the pod; one allowing it takes a disruption', async () => {
  const { runningPod, evict, exists, pdb, call } = await setup();
  await runningPod('p');
  await pdb(0);
  const refused = await evict('p');
  assert.equal(refused.code, 429);
  const s = refused.body as Status;
  assert.equal(s.reason, 'TooManyRequests');
  assert.equal(s.message, "Cannot evict pod as it would violate the pod's disruption budget.");
  assert.deepEqual(s.details?.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget budget needs 1 healthy pods and has 1 currently' }]);
  assert.equal(await exists('p'), true);

  await pdb(1, 0);
  const stale = await evict('p');
  assert.equal(stale.code, 429);
  assert.match(JSON.stringify(stale.body), /still being processed/);

  await pdb(1);
  const allowed = await evict('p');
  assert.equal(allowed.code, 201, JSON.stringify(allowed.body));
  assert.equal(await exists('p'), false);
  const budget = await call({ verb: 'get', group: 'policy', resource: 'poddisruptionbudgets', namespace: 'default', name: 'budget' });
  const status = (budget.body as { status: { disruptionsAllowed: number; disruptedPods: Record<string, string> } }).status;
  assert.equal(status.disruptionsAllowed, 0);
  assert.ok(status.disruptedPods['p']);
});

test('pending pods and pods outside the budget are evicted regardless', async () => {
  const { runningPod, evict, exists, pdb, call } = await setup();
  await pdb(0);
  await call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('pending') });
  assert.equal((await evict('pending')).code, 201);
  assert.equal(await exists('pending'), false);
  await runningPod('other', { app: 'db' });
  assert.equal((await evict('other')).code, 201);
  const mismatch = await call({ verb: 'create', resource: 'pods', namespace: 'default', name: 'x', subresource: 'eviction', body: eviction('y') });
  assert.equal(mismatch.code, 400);
});
