import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../../testing/test-registry.js';

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } });
const binding = (name: string, node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name, annotations: { a: 'b' } }, target: { kind: 'Node', name: node } });

test('pods/binding assigns an unassigned pod once; a second binding is 409', async () => {
  const { call } = await testRegistry();
  await call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('p') });
  const bound = await call({ verb: 'create', resource: 'pods', namespace: 'default', name: 'p', subresource: 'binding', body: binding('p', 'n1') });
  assert.equal(bound.code, 201, JSON.stringify(bound.body));
  assert.equal((bound.body as Status).status, 'Success');
  const got = await call({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p' });
  const p = got.body as { spec: { nodeName: string }; metadata: { annotations: Record<string, string> }; status: { conditions: { type: string; status: string }[] } };
  assert.equal(p.spec.nodeName, 'n1');
  assert.equal(p.metadata.annotations['a'], 'b');
  assert.ok(p.status.conditions.some((c) => c.type === 'PodScheduled' && c.status === 'True'));

  const again = await call({ verb: 'create', resource: 'pods', namespace: 'default', name: 'p', subresource: 'binding', body: binding('p', 'n2') });
  assert.equal(again.code, 409);
  assert.equal((again.body as Status).message, 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "n1"');
});

test('the bindings resource binds by the Binding name; bad targets and names are rejected', async () => {
  const { call } = await testRegistry();
  await call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod('q') });
  const noTarget = await call({ verb: 'create', resource: 'bindings', namespace: 'default', body: { metadata: { name: 'q' }, target: {} } });
  assert.equal(noTarget.code, 422);
  const mismatch = await call({ verb: 'create', resource: 'pods', namespace: 'default', name: 'q', subresource: 'binding', body: binding('other', 'n1') });
  assert.equal(mismatch.code, 400);
  const bound = await call({ verb: 'create', resource: 'bindings', namespace: 'default', body: binding('q', 'n3') });
  assert.equal(bound.code, 201, JSON.stringify(bound.body));
  const got = await call({ verb: 'get', resource: 'pods', namespace: 'default', name: 'q' });
  assert.equal((got.body as { spec: { nodeName: string } }).spec.nodeName, 'n3');
  const missing = await call({ verb: 'create', resource: 'bindings', namespace: 'default', body: binding('none', 'n3') });
  assert.equal(missing.code, 404);
});
