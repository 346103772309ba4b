import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { humanDuration } from './format.js';
import { transformObject, watchTransformer, type Conversion } from './transform.js';

const names = namesFor('svc');
const now = Date.parse('2024-01-10T00:00:00Z');
const created = '2024-01-09T23:00:00Z'; // one hour before now
const table: Conversion = { kind: 'Table', group: 'meta.svc.io', version: 'v1' };

type TableJson = { kind: string; apiVersion: string; metadata: Record<string, unknown>; columnDefinitions: { name: string; type: string; format: string; priority: number; description: string }[] | null; rows: { cells: unknown[]; object?: any; conditions?: unknown[] }[] };

function tableOf(object: Record<string, unknown>, includeObject?: string): TableJson {
  const out = transformObject(object, table, { names, now, ...(includeObject !== undefined ? { includeObject } : {}) });
  assert.ok(out.ok, out.ok ? '' : out.error.message);
  return out.value as TableJson;
}
const cells = (apiVersion: string, kind: string, rest: Record<string, unknown>) =>
  tableOf({ apiVersion, kind, ...rest, metadata: { name: 'n', creationTimestamp: created, ...(rest['metadata'] as object | undefined) } }).rows[0]!.cells;
const headers = (apiVersion: string, kind: string) => tableOf({ apiVersion, kind, metadata: { name: 'n' } }).columnDefinitions!.map((c) => c.priority ? `${c.name}*` : c.name);

test('HumanDuration as apimachinery prints ages', () => {
  const s = 1000;
  assert.deepEqual([0, 45 * s, 119 * s, 200 * s, 600 * s, 179 * 60 * s, 5 * 3600 * s + 3 * 60 * s, 20 * 3600 * s, 76 * 3600 * s, 200 * 86400 * s, 800 * 86400 * s, 3000 * 86400 * s].map(humanDuration),
    ['0s', '45s', '119s', '3m20s', '10m', '179m', '5h3m', '20h', '3d4h', '200d', '2y70d', '8y']);
  assert.equal(humanDuration(-5000), '<invalid>');
});

test('pods: columns, ready count, status reasons, restarts with the last restart age, wide cells', () => {
  assert.deepEqual(headers('v1', 'Pod'), ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*']);
  const running = {
    spec: { containers: [{ name: 'a' }, { name: 'b' }], nodeName: 'node1', readinessGates: [{ conditionType: 'x' }] },
    status: {
      phase: 'Running', podIPs: [{ ip: '10.0.0.5' }], conditions: [{ type: 'x', status: 'True' }],
      containerStatuses: [
        { name: 'a', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { finishedAt: '2024-01-09T23:55:00Z' } } },
        { name: 'b', ready: false, restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    },
  };
  assert.deepEqual(cells('v1', 'Pod', running), ['n', '1/2', 'CrashLoopBackOff', '3 (5m ago)', '60m', '10.0.0.5', 'node1', '<none>', '1/1']);
  assert.deepEqual(cells('v1', 'Pod', { spec: { containers: [{}] }, status: { phase: 'Pending' } }).slice(1, 4), ['0/1', 'Pending', '0']);
  const init = { spec: { initContainers: [{}, {}], containers: [{}] }, status: { phase: 'Pending', initContainerStatuses: [{ state: { terminated: { exitCode: 0 } } }, { state: { running: {} } }] } };
  assert.equal(cells('v1', 'Pod', init)[2], 'Init:1/2');
  const initFailed = { spec: { initContainers: [{}], containers: [{}] }, status: { initContainerStatuses: [{ state: { terminated: { exitCode: 3 } } }] } };
  assert.equal(cells('v1', 'Pod', initFailed)[2], 'Init:ExitCode:3');
  assert.equal(cells('v1', 'Pod', { metadata: { deletionTimestamp: created }, spec: { containers: [{}] }, status: { phase: 'Running' } })[2], 'Terminating');
  const done = tableOf({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'n' }, spec: { containers: [{}] }, status: { phase: 'Succeeded', containerStatuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] } });
  assert.equal(done.rows[0]!.cells[2], 'Completed');
  assert.deepEqual(done.rows[0]!.conditions, [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
});

test('services, namespaces, configmaps, secrets, serviceaccounts', () => {
  assert.deepEqual(headers('v1', 'Service'), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*']);
  assert.deepEqual(cells('v1', 'Service', { spec: { type: 'ClusterIP', clusterIPs: ['10.96.0.10'], ports: [{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }], selector: { k: 'v', a: 'b' } } }),
    ['n', 'ClusterIP', '10.96.0.10', '<none>', '53/UDP,53/TCP', '60m', 'a=b,k=v']);
  assert.deepEqual(cells('v1', 'Service', { spec: { type: 'NodePort', clusterIPs: ['10.0.0.1'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] } }).slice(2, 5), ['10.0.0.1', '<none>', '80:30080/TCP']);
  assert.equal(cells('v1', 'Service', { spec: { type: 'LoadBalancer' } })[3], '<pending>');
  assert.equal(cells('v1', 'Service', { spec: { type: 'LoadBalancer', externalIPs: ['1.1.1.1'] }, status: { loadBalancer: { ingress: [{ ip: '2.2.2.2' }] } } })[3], '2.2.2.2,1.1.1.1');
  assert.deepEqual(cells('v1', 'Service', { spec: { type: 'ExternalName', externalName: 'db.example.com' } }).slice(2, 5), ['<none>', 'db.example.com', '<none>']);
  assert.deepEqual(headers('v1', 'Namespace'), ['Name', 'Status', 'Age']);
  assert.deepEqual(cells('v1', 'Namespace', { status: { phase: 'Active' } }), ['n', 'Active', '60m']);
  assert.deepEqual(headers('v1', 'ConfigMap'), ['Name', 'Data', 'Age']);
  assert.deepEqual(cells('v1', 'ConfigMap', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), ['n', 3, '60m']);
  assert.deepEqual(headers('v1', 'Secret'), ['Name', 'Type', 'Data', 'Age']);
  assert.deepEqual(cells('v1', 'Secret', { type: 'Opaque', data: { a: 'AA==' } }), ['n', 'Opaque', 1, '60m']);
  assert.deepEqual(headers('v1', 'ServiceAccount'), ['Name', 'Secrets', 'Age']);
  assert.deepEqual(cells('v1', 'ServiceAccount', {}), ['n', 0, '60m']);
});

test('nodes, events (core and events.svc.io), endpoints', () => {
  assert.deepEqual(headers('v1', 'Node'), ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP*', 'External-IP*', 'OS-Image*', 'Kernel-Version*', 'Container-Runtime*']);
  assert.deepEqual(cells('v1', 'Node', {
    metadata: { labels: { 'node-role.svc.io/control-plane': '', 'node-role.svc.io/worker': '' } },
    spec: { unschedulable: true },
    status: { conditions: [{ type: 'Ready', status: 'False' }], nodeInfo: { kubeletVersion: 'v1.27.3' }, addresses: [{ type: 'InternalIP', address: '192.168.0.2' }] },
  }), ['n', 'NotReady,SchedulingDisabled', 'control-plane,worker', '60m', 'v1.27.3', '192.168.0.2', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  assert.equal(cells('v1', 'Node', {})[1], 'Unknown');
  assert.deepEqual(headers('v1', 'Event'), ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*']);
  assert.deepEqual(cells('v1', 'Event', {
    involvedObject: { kind: 'Pod', name: 'web', fieldPath: 'spec.containers{c}' }, type: 'Normal', reason: 'Pulled', message: ' pulled \n',
    source: { component: 'kubelet', host: 'node1' }, firstTimestamp: '2024-01-09T22:00:00Z', lastTimestamp: created, count: 4,
  }), ['60m', 'Normal', 'Pulled', 'pod/web', 'spec.containers{c}', 'kubelet, node1', 'pulled', '120m', 4, 'n']);
  assert.deepEqual(cells('events.svc.io/v1', 'Event', {
    regarding: { kind: 'Node', name: 'node1' }, type: 'Warning', reason: 'R', note: 'msg', reportingController: 'ctl', eventTime: '2024-01-09T23:30:00.000000Z',
  }), ['30m', 'Warning', 'R', 'node/node1', '', 'ctl', 'msg', '30m', 1, 'n']);
  const subsets = [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }, { port: 443 }] }];
  assert.deepEqual(cells('v1', 'Endpoints', { subsets }), ['n', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...', '60m']);
  assert.equal(cells('v1', 'Endpoints', {})[1], '<none>');
});

test('limitranges, resourcequotas, podtemplates, replicationcontrollers, volumes, claims, leases', () => {
  assert.deepEqual(headers('v1', 'LimitRange'), ['Name', 'Created At']);
  assert.deepEqual(cells('v1', 'LimitRange', {}), ['n', created]);
  assert.deepEqual(headers('v1', 'ResourceQuota'), ['Name', 'Age', 'Request', 'Limit']);
  assert.deepEqual(cells('v1', 'ResourceQuota', { status: { hard: { pods: '10', 'limits.cpu': '2', 'requests.memory': '1Gi' }, used: { pods: '3' } } }),
    ['n', '60m', 'pods: 3/10, requests.memory: 0/1Gi', 'limits.cpu: 0/2']);
  assert.deepEqual(headers('v1', 'PodTemplate'), ['Name', 'Containers', 'Images', 'Pod Labels']);
  assert.deepEqual(cells('v1', 'PodTemplate', { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'a', image: 'i1' }, { name: 'b', image: 'i2' }] } } }), ['n', 'a,b', 'i1,i2', 'app=x']);
  assert.deepEqual(headers('v1', 'ReplicationController'), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*']);
  assert.deepEqual(cells('v1', 'ReplicationController', { spec: { replicas: 3, selector: { app: 'x' }, template: { spec: { containers: [{ name: 'a', image: 'i' }] } } }, status: { replicas: 2, readyReplicas: 1 } }),
    ['n', 3, 2, 1, '60m', 'a', 'i', 'app=x']);
  assert.deepEqual(headers('v1', 'PersistentVolume'), ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'Reason', 'Age', 'VolumeMode*']);
  assert.deepEqual(cells('v1', 'PersistentVolume', { spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'd', name: 'c' }, storageClassName: 'fast' }, status: { phase: 'Bound' } }),
    ['n', '5Gi', 'RWO,RWX', 'Retain', 'Bound', 'd/c', 'fast', '', '60m', '<unset>']);
  assert.deepEqual(headers('v1', 'PersistentVolumeClaim'), ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'Age', 'VolumeMode*']);
  assert.deepEqual(cells('v1', 'PersistentVolumeClaim', { metadata: { annotations: { 'volume.beta.svc.io/storage-class': 'slow' } }, spec: { volumeName: 'pv1', volumeMode: 'Filesystem' }, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } }),
    ['n', 'Bound', 'pv1', '1Gi', 'RWO', 'slow', '60m', 'Filesystem']);
  assert.deepEqual(cells('v1', 'PersistentVolumeClaim', { spec: {}, status: { phase: 'Pending' } }).slice(1, 6), ['Pending', '', '', '', '']);
  assert.deepEqual(headers('coordination.svc.io/v1', 'Lease'), ['Name', 'Holder', 'Age']);
  assert.deepEqual(cells('coordination.svc.io/v1', 'Lease', { spec: { holderIdentity: 'me' } }), ['n', 'me', '60m']);
  assert.deepEqual(cells('coordination.svc.io/v1', 'Lease', { spec: {} }), ['n', '<unknown>', '60m']);
});

test('default table, includeObject, lists, metadata conversions, watch headers', () => {
  const role = { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name: 'r', creationTimestamp: created, resourceVersion: '9' }, rules: [] };
  const t = tableOf(role);
  assert.equal(t.kind, 'Table');
  assert.equal(t.apiVersion, 'meta.svc.io/v1');
  assert.deepEqual(t.metadata, { resourceVersion: '9' });
  assert.deepEqual(t.columnDefinitions!.map((c) => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Created At', 'date', '']]);
  assert.match(t.columnDefinitions![0]!.description, /^Name must be unique within a namespace/);
  assert.deepEqual(t.rows[0]!.cells, ['r', created]);
  assert.deepEqual(t.rows[0]!.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1', metadata: role.metadata });
  assert.deepEqual(tableOf(role, 'Object').rows[0]!.object, role);
  assert.equal('object' in tableOf(role, 'None').rows[0]!, false);
  const bad = transformObject(role, table, { names, includeObject: 'Everything' });
  assert.ok(!bad.ok && bad.error.code === 400);
  const list = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '20', continue: 'tok', remainingItemCount: 4 }, items: [{ metadata: { name: 'a' }, data: { x: '1' } }, { metadata: { name: 'b' } }] };
  const lt = tableOf(list);
  assert.deepEqual(lt.metadata, { resourceVersion: '20', continue: 'tok', remainingItemCount: 4 });
  assert.deepEqual(lt.rows.map((r) => r.cells.slice(0, 2)), [['a', 1], ['b', 0]]);
  assert.deepEqual(tableOf(list, 'Object').rows[1]!.object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'b' } });
  const status = { kind: 'Status', apiVersion: 'v1', status: 'Success' };
  assert.deepEqual(transformObject(status, table, { names }), { ok: true, value: status });

  const pom: Conversion = { kind: 'PartialObjectMetadata', group: 'meta.svc.io', version: 'v1beta1' };
  assert.deepEqual(transformObject(role, pom, { names }), { ok: true, value: { kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1beta1', metadata: role.metadata } });
  const notOne = transformObject(list, pom, { names });
  assert.ok(!notOne.ok && notOne.error.code === 406);
  const poml: Conversion = { kind: 'PartialObjectMetadataList', group: 'meta.svc.io', version: 'v1' };
  assert.deepEqual(transformObject(list, poml, { names }), { ok: true, value: {
    kind: 'PartialObjectMetadataList', apiVersion: 'meta.svc.io/v1', metadata: { resourceVersion: '20', continue: 'tok', remainingItemCount: 4 },
    items: [{ kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1', metadata: { name: 'a' } }, { kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1', metadata: { name: 'b' } }],
  } });
  const notList = transformObject(role, poml, { names });
  assert.ok(!notList.ok && notList.error.code === 406);

  const watch = watchTransformer(table, { names });
  const first = watch(role);
  const second = watch(role);
  assert.ok(first.ok && second.ok);
  assert.equal((first.value as TableJson).columnDefinitions!.length, 2);
  assert.equal((second.value as TableJson).columnDefinitions, null, 'only the first event carries the columns');
  assert.equal((second.value as TableJson).rows.length, 1);
});
