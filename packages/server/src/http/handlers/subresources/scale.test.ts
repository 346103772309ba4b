import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject, Status } from '@svc-apiserver/api';
import { testRegistry } from '../../../testing/test-registry.js';
import { selectorString } from './scale.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } };
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template } };

test('selectorString prints selectors as labels.Selector.String() does', () => {
  assert.equal(selectorString({ matchLabels: { b: '2', a: '1' } }), 'a=1,b=2');
  assert.equal(selectorString({ app: 'x' }), 'app=x');
  assert.equal(selectorString({ matchLabels: { z: '1' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }, { key: 'gone', operator: 'DoesNotExist' }] }),
    'env in (dev,prod),!gone,z=1');
});

test('deployments/scale: get, update and patch read and write spec.replicas', async () => {
  const { call } = await testRegistry();
  assert.equal((await call({ verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default', body: deployment })).code, 201);
  const got = await call({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale' });
  assert.equal(got.code, 200);
  const scale = got.body as KubeObject & { spec: { replicas: number }; status: { replicas: number; selector: string } };
  assert.equal(scale.kind, 'Scale');
  assert.equal(scale.apiVersion, 'autoscaling/v1');
  assert.equal(scale.spec.replicas, 2);
  assert.deepEqual(scale.status, { replicas: 0, selector: 'app=web' });

  const put = await call({ verb: 'update', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale',
    body: { ...scale, spec: { replicas: 5 } } });
  assert.equal(put.code, 200, JSON.stringify(put.body));
  assert.equal((put.body as { spec: { replicas: number } }).spec.replicas, 5);
  const dep = await call({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' });
  const depSpec = (dep.body as { spec: Record<string, unknown>; metadata: { generation: number } });
  assert.equal(depSpec.spec['replicas'], 5);
  assert.equal(depSpec.metadata.generation, 2);

  const stale = await call({ verb: 'update', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale',
    body: { ...scale, spec: { replicas: 1 } } });
  assert.equal(stale.code, 409);

  const patched = await call({ verb: 'patch', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale',
    contentType: 'application/merge-patch+json', body: { spec: { replicas: 0 } } });
  assert.equal(patched.code, 200, JSON.stringify(patched.body));
  assert.deepEqual((patched.body as { spec: unknown }).spec, {});

  const negative = await call({ verb: 'patch', group: 'apps', resource: 'deployments', namespace: 'default', name: 'web', subresource: 'scale',
    contentType: 'application/merge-patch+json', body: { spec: { replicas: -1 } } });
  assert.equal(negative.code, 422);
  assert.equal((negative.body as Status).message, 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');

  const missing = await call({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'default', name: 'nope', subresource: 'scale' });
  assert.equal(missing.code, 404);
});

test('replicationcontrollers/scale prints the map selector', async () => {
  const { call } = await testRegistry();
  const rc = { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { replicas: 1, selector: { app: 'web' }, template } };
  assert.equal((await call({ verb: 'create', resource: 'replicationcontrollers', namespace: 'default', body: rc })).code, 201);
  const got = await call({ verb: 'get', resource: 'replicationcontrollers', namespace: 'default', name: 'rc', subresource: 'scale' });
  assert.equal((got.body as { status: { selector: string } }).status.selector, 'app=web');
});
