import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { testPod } from '../testing/test-objects.js';

pluginConformance('NodeRestriction');

const node1 = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const message = (r: { body?: unknown }) => (r.body as { message: string }).message;

test('NodeRestriction: a node manages its own Node only: no other node, no taints, no restricted labels, no deletion', async () => {
  const rig = await admissionRig({ plugins: ['NodeRestriction'] });
  const node = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
  const other = await rig.call({ verb: 'create', resource: 'nodes', user: node1, body: node('n2') });
  assert.equal(other.code, 403);
  assert.equal(message(other), 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
  const restricted = await rig.call({ verb: 'create', resource: 'nodes', user: node1, body: node('n1', { 'node-restriction.svc.io/secure': 'yes' }) });
  assert.equal(message(restricted), 'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.svc.io/secure');
  const created = await rig.call({ verb: 'create', resource: 'nodes', user: node1, body: node('n1', { 'svc.io/hostname': 'n1', 'topology.svc.io/zone': 'a', 'node.svc.io/role': 'x', 'team': 'a' }) });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const stored = (await rig.get('nodes', '', 'n1'))!;
  const taint = await rig.call({ verb: 'update', resource: 'nodes', name: 'n1', user: node1, body: { ...stored, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } } });
  assert.equal(message(taint), 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
  const relabel = await rig.call({ verb: 'update', resource: 'nodes', name: 'n1', user: node1,
    body: { ...stored, metadata: { ...stored.metadata, labels: { ...stored.metadata!.labels, 'svc.io/role': 'master' } } } });
  assert.equal(message(relabel), 'nodes "n1" is forbidden: is not allowed to modify labels: svc.io/role');
  const deleted = await rig.call({ verb: 'delete', resource: 'nodes', name: 'n1', user: node1 });
  assert.equal(deleted.code, 403);
  assert.equal(await rig.call({ verb: 'delete', resource: 'nodes', name: 'n1', query: { dryRun: 'All' } }).then((r) => r.code), 200, 'others are not restricted');
  rig.close();
});

test('NodeRestriction: mirror pods bound to the node only; deletes and status of its own pods; its own lease', async () => {
  const rig = await admissionRig({ plugins: ['NodeRestriction'], namespaces: ['default', 'svc-node-lease'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'nodes', body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } } })).code, 201);
  const nodeUid = (await rig.get('nodes', '', 'n1'))!.metadata!.uid!;
  const mirror = (name: string, extra: Record<string, unknown> = {}) => testPod(name, { nodeName: 'n1', ...extra }, {
    annotations: { 'svc.io/config.mirror': 'hash' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: nodeUid, controller: true }],
  });
  const plain = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', user: node1, body: testPod('plain', { nodeName: 'n1' }) });
  assert.equal(message(plain), 'pods "plain" is forbidden: pod does not have "svc.io/config.mirror" annotation, node "n1" can only create mirror pods');
  const secret = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', user: node1,
    body: mirror('s', { volumes: [{ name: 'v', secret: { secretName: 'x' } }] }) });
  assert.equal(message(secret), 'pods "s" is forbidden: node "n1" can not create pods that reference secrets');
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', user: node1, body: mirror('m') })).code, 201);
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod('elsewhere', { nodeName: 'n2' }) })).code, 201);
  const foreign = await rig.call({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'elsewhere', user: node1 });
  assert.equal(message(foreign), 'pods "elsewhere" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself');
  const ownDelete = await rig.call({ verb: 'delete', resource: 'pods', namespace: 'default', name: 'm', user: node1, query: { dryRun: 'All' } });
  assert.equal(ownDelete.code, 200, JSON.stringify(ownDelete.body));
  const lease = (ns: string, name: string) => rig.call({ verb: 'create', group: 'coordination.svc.io', resource: 'leases', namespace: ns, user: node1,
    body: { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name } } });
  assert.equal(message(await lease('default', 'n1')), 'leases.coordination.svc.io "n1" is forbidden: can only access leases in the "svc-node-lease" system namespace');
  assert.equal(message(await lease('svc-node-lease', 'n2')), 'leases.coordination.svc.io "n2" is forbidden: can only access node lease with the same name as the requesting node');
  assert.equal((await lease('svc-node-lease', 'n1')).code, 201);
  rig.close();
});
