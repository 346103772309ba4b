import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../../testing/test-registry.js';

const pod = (name: string, containers = ['c'], nodeName?: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: containers.map((c) => ({ name: c, image: 'nginx:1.25' })), ...(nodeName ? { nodeName } : {}) },
});

test('log, exec, attach, portforward and proxy answer the Status kube gives without a reachable node agent', async () => {
  const { call } = await testRegistry();
  await call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('unscheduled') });
  await call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('two', ['a', 'b'], 'n1') });
  await call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('placed', ['c'], 'n1') });
  const sub = (name: string, subresource: string, verb = 'get', query: Record<string, string> = {}) =>
    call({ verb, resource: 'pods', namespace: 'default', name, subresource, query });

  const log = await sub('unscheduled', 'log');
  assert.equal(log.code, 400);
  assert.equal((log.body as Status).message, 'pod unscheduled does not have a host assigned');
  assert.equal((await sub('missing', 'log')).code, 404);
  const choose = await sub('two', 'log');
  assert.equal(choose.code, 400);
  assert.equal((choose.body as Status).message, 'a container name must be specified for pod two, choose one of: [a b]');
  assert.equal((await sub('two', 'log', 'get', { container: 'zz' })).code, 400);
  const placed = await sub('two', 'log', 'get', { container: 'a' });
  assert.equal(placed.code, 503);
  assert.equal((placed.body as Status).reason, 'ServiceUnavailable');
  assert.match((placed.body as Status).message ?? '', /node "n1"/);

  assert.equal((await sub('placed', 'exec', 'create')).code, 400, 'a command is required');
  assert.equal((await sub('placed', 'exec', 'create', { command: 'ls' })).code, 503);
  assert.equal((await sub('unscheduled', 'exec', 'create', { command: 'ls' })).code, 400);
  assert.equal((await sub('placed', 'attach', 'create')).code, 503);
  assert.equal((await sub('unscheduled', 'portforward', 'get')).code, 400);
  assert.equal((await sub('placed', 'portforward', 'get')).code, 503);
  assert.equal((await sub('placed', 'proxy', 'get')).code, 503);
  assert.equal((await sub('placed', 'log', 'update')).code, 405);
});

test('services/proxy and nodes/proxy answer 503 for objects that exist, 404 otherwise', async () => {
  const { call } = await testRegistry();
  await call({ verb: 'create', resource: 'services', namespace: 'default', body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } } });
  const svc = await call({ verb: 'get', resource: 'services', namespace: 'default', name: 's', subresource: 'proxy' });
  assert.equal(svc.code, 503);
  assert.equal((svc.body as Status).message, 'no endpoints available for service "s"');
  assert.equal((await call({ verb: 'get', resource: 'services', namespace: 'default', name: 'none', subresource: 'proxy' })).code, 404);
  await call({ verb: 'create', resource: 'nodes', body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } });
  assert.equal((await call({ verb: 'get', resource: 'nodes', name: 'n1', subresource: 'proxy' })).code, 503);
  assert.equal((await call({ verb: 'get', resource: 'nodes', name: 'n2', subresource: 'proxy' })).code, 404);
});
