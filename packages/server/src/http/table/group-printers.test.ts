import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { columnDefinitions } from './printer.js';
import { printers } from './printers/index.js';
import { formatLabelSelector, selectorString } from './printers/selectors.js';
import { transformObject, type Conversion } from './transform.js';

const names = namesFor('svc');
const now = Date.parse('2024-01-10T00:00:00Z');
const created = '2024-01-09T23:00:00Z'; // one hour before now
const table: Conversion = { kind: 'Table', group: 'meta.svc.io', version: 'v1' };

type Column = { name: string; type: string; format: string; priority: number; description: string };
type TableJson = { columnDefinitions: Column[]; rows: { cells: unknown[] }[] };

function tableOf(object: Record<string, unknown>): TableJson {
  const out = transformObject(object, table, { names, now });
  assert.ok(out.ok, out.ok ? '' : out.error.message);
  return out.value as TableJson;
}
const cells = (apiVersion: string, kind: string, rest: Record<string, unknown> = {}) =>
  tableOf({ apiVersion, kind, ...rest, metadata: { name: 'n', creationTimestamp: created, ...(rest['metadata'] as object | undefined) } }).rows[0]!.cells;
const headers = (apiVersion: string, kind: string) => tableOf({ apiVersion, kind, metadata: { name: 'n' } }).columnDefinitions.map((c) => c.priority ? `${c.name}*` : c.name);
const column = (apiVersion: string, kind: string, name: string) => tableOf({ apiVersion, kind, metadata: { name: 'n' } }).columnDefinitions.find((c) => c.name === name)!;

const containers = { containers: [{ name: 'a', image: 'i1' }, { name: 'b', image: 'i2' }] };

test('every column taken from a schema field resolves to that field\'s documentation', () => {
  for (const [kind, printer] of printers) {
    const defs = columnDefinitions(printer);
    printer.columns.forEach((c, i) => {
      if (typeof c.description !== 'string') assert.notEqual(defs[i]!.description, '', `${kind} ${c.name}: ${c.description.schema}.${c.description.field}`);
    });
  }
});

test('label selectors print as apimachinery formats them', () => {
  assert.equal(formatLabelSelector({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }, { key: 'aa', operator: 'DoesNotExist' }] }), 'a=1,!aa,b=2,c in (x,y)');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'k', operator: 'NotIn', values: ['v'] }, { key: 'e', operator: 'Exists' }] }), 'e,k notin (v)');
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector(undefined), '<none>');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'k', operator: 'Bogus' }] }), '<error>');
  assert.equal(selectorString({}), '');
});

test('apps: deployments, replicasets, statefulsets, daemonsets, controllerrevisions', () => {
  assert.deepEqual(headers('apps/v1', 'Deployment'), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*']);
  assert.deepEqual(cells('apps/v1', 'Deployment', { spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { spec: containers } }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 1 } }),
    ['n', '2/3', 3, 1, '60m', 'a,b', 'i1,i2', 'app=web']);
  assert.equal(cells('apps/v1', 'Deployment', { spec: { replicas: 1, selector: {} } })[7], '', 'an empty selector prints as the empty string');
  assert.equal(cells('apps/v1', 'Deployment', { spec: { replicas: 1, selector: { matchExpressions: [{ key: 'k', operator: 'In' }] } } })[7], '<invalid>');

  assert.deepEqual(headers('apps/v1', 'ReplicaSet'), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*']);
  assert.deepEqual(column('apps/v1', 'ReplicaSet', 'Desired').type, 'integer');
  assert.deepEqual(cells('apps/v1', 'ReplicaSet', { spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, template: { spec: containers } }, status: { replicas: 3, readyReplicas: 2 } }),
    ['n', 4, 3, 2, '60m', 'a,b', 'i1,i2', 'app=web']);

  assert.deepEqual(headers('apps/v1', 'StatefulSet'), ['Name', 'Ready', 'Age', 'Containers*', 'Images*']);
  assert.deepEqual(cells('apps/v1', 'StatefulSet', { spec: { replicas: 3, template: { spec: containers } }, status: { readyReplicas: 1 } }), ['n', '1/3', '60m', 'a,b', 'i1,i2']);

  assert.deepEqual(headers('apps/v1', 'DaemonSet'), ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers*', 'Images*', 'Selector*']);
  assert.deepEqual(cells('apps/v1', 'DaemonSet', {
    spec: { selector: { matchLabels: { app: 'd' } }, template: { spec: { ...containers, nodeSelector: { 'svc.io/os': 'linux' } } } },
    status: { desiredNumberScheduled: 5, currentNumberScheduled: 4, numberReady: 3, updatedNumberScheduled: 2, numberAvailable: 1 },
  }), ['n', 5, 4, 3, 2, 1, 'svc.io/os=linux', '60m', 'a,b', 'i1,i2', 'app=d']);
  assert.equal(cells('apps/v1', 'DaemonSet', {})[6], '<none>');

  assert.deepEqual(headers('apps/v1', 'ControllerRevision'), ['Name', 'Controller', 'Revision', 'Age']);
  assert.deepEqual(cells('apps/v1', 'ControllerRevision', { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', controller: true }] }, revision: 2 }),
    ['n', 'statefulset.apps/web', 2, '60m']);
  assert.equal(cells('apps/v1', 'ControllerRevision', { revision: 1 })[1], '<none>');
  assert.equal(cells('apps/v1', 'ControllerRevision', { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', controller: true }] }, revision: 1 })[1], 'pod/p');
});

test('batch: jobs and cronjobs', () => {
  assert.deepEqual(headers('batch/v1', 'Job'), ['Name', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*']);
  const selector = { matchLabels: { 'controller-uid': 'u' } };
  assert.deepEqual(cells('batch/v1', 'Job', {
    spec: { completions: 3, selector, template: { spec: containers } },
    status: { succeeded: 2, startTime: '2024-01-09T23:10:00Z', completionTime: '2024-01-09T23:12:30Z' },
  }), ['n', '2/3', '2m30s', '60m', 'a,b', 'i1,i2', 'controller-uid=u']);
  assert.deepEqual(cells('batch/v1', 'Job', { spec: { parallelism: 4 }, status: { startTime: '2024-01-09T23:30:00Z' } }).slice(1, 3), ['0/1 of 4', '30m']);
  assert.deepEqual(cells('batch/v1', 'Job', { spec: { parallelism: 1 }, status: {} }).slice(1, 3), ['0/1', '']);

  assert.deepEqual(headers('batch/v1', 'CronJob'), ['Name', 'Schedule', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers*', 'Images*', 'Selector*']);
  assert.equal(column('batch/v1', 'CronJob', 'Suspend').type, 'boolean');
  assert.deepEqual(cells('batch/v1', 'CronJob', {
    spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template: { spec: containers } } } },
    status: { active: [{ name: 'j1' }], lastScheduleTime: '2024-01-09T23:55:00Z' },
  }), ['n', '*/5 * * * *', 'False', 1, '5m', '60m', 'a,b', 'i1,i2', '<none>']);
  assert.deepEqual(cells('batch/v1', 'CronJob', { spec: { schedule: '@daily' } }).slice(2, 5), ['<unset>', 0, '<none>']);
});

test('autoscaling: horizontalpodautoscalers in v2 and v1', () => {
  const columns = ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'];
  assert.deepEqual(headers('autoscaling/v2', 'HorizontalPodAutoscaler'), columns);
  assert.deepEqual(headers('autoscaling/v1', 'HorizontalPodAutoscaler'), columns);
  const metrics = [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '5' } } },
  ];
  assert.deepEqual(cells('autoscaling/v2', 'HorizontalPodAutoscaler', {
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics },
    status: { currentReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45 } } }] },
  }), ['n', 'Deployment/web', '45%/80%, <unknown>/10 + 1 more...', '2', 10, 3, '60m']);
  assert.equal(cells('autoscaling/v2', 'HorizontalPodAutoscaler', { spec: { metrics: [{ type: 'Object', object: { target: { averageValue: '2' } } }] } })[2], '<unknown>/2 (avg)');
  assert.equal(cells('autoscaling/v2', 'HorizontalPodAutoscaler', { spec: { metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization' } } }] } })[2], '<unknown>/<auto>');
  assert.deepEqual(cells('autoscaling/v2', 'HorizontalPodAutoscaler', { spec: { maxReplicas: 1 } }).slice(2, 4), ['<none>', '<unset>']);
  assert.deepEqual(cells('autoscaling/v1', 'HorizontalPodAutoscaler', {
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
    status: { currentReplicas: 2, currentCPUUtilizationPercentage: 30 },
  }), ['n', 'Deployment/web', '30%/70%', '1', 5, 2, '60m']);
});

test('networking: ingresses, ingressclasses, networkpolicies', () => {
  const ing = 'networking.svc.io/v1';
  assert.deepEqual(headers(ing, 'Ingress'), ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
  assert.deepEqual(cells(ing, 'Ingress', {
    spec: { ingressClassName: 'nginx', rules: [{ host: 'a.example' }, {}, { host: 'b.example' }], tls: [{ hosts: ['a.example'] }] },
    status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example' }, { ip: '10.0.0.1' }] } },
  }), ['n', 'nginx', 'a.example,b.example', '10.0.0.1,10.0.0.2,lb.example', '80, 443', '60m']);
  assert.deepEqual(cells(ing, 'Ingress', { spec: {} }).slice(1, 5), ['<none>', '*', '', '80']);
  const five = { rules: ['h1', 'h2', 'h3', 'h4', 'h5'].map((host) => ({ host })) };
  assert.equal(cells(ing, 'Ingress', { spec: five })[2], 'h1,h2,h3 + 2 more...');

  assert.deepEqual(headers(ing, 'IngressClass'), ['Name', 'Controller', 'Parameters', 'Age']);
  assert.deepEqual(cells(ing, 'IngressClass', { spec: { controller: 'example.com/ctl', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } } }),
    ['n', 'example.com/ctl', 'Params.k8s.example.com/p', '60m']);
  assert.equal(cells(ing, 'IngressClass', { spec: { controller: 'c' } })[2], '<none>');

  assert.deepEqual(headers(ing, 'NetworkPolicy'), ['Name', 'Pod-Selector', 'Age']);
  assert.deepEqual(cells(ing, 'NetworkPolicy', { spec: { podSelector: { matchLabels: { role: 'db' } } } }), ['n', 'role=db', '60m']);
  assert.equal(cells(ing, 'NetworkPolicy', { spec: { podSelector: {} } })[1], '<none>');
});

test('policy: poddisruptionbudgets', () => {
  assert.deepEqual(headers('policy/v1', 'PodDisruptionBudget'), ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
  assert.deepEqual(cells('policy/v1', 'PodDisruptionBudget', { spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } }), ['n', '2', 'N/A', 1, '60m']);
  assert.deepEqual(cells('policy/v1', 'PodDisruptionBudget', { spec: { maxUnavailable: '25%' } }).slice(1, 4), ['N/A', '25%', 0]);
});

test('rbac: bindings print their role and subjects; roles and clusterroles keep the default table', () => {
  const rbac = 'rbac.authorization.svc.io/v1';
  const wide = ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*'];
  assert.deepEqual(headers(rbac, 'RoleBinding'), wide);
  assert.deepEqual(headers(rbac, 'ClusterRoleBinding'), wide);
  assert.match(column(rbac, 'ClusterRoleBinding', 'Users').description, /clusterRoleBinding/);
  const subjects = [
    { kind: 'User', name: 'alice' }, { kind: 'User', name: 'bob' }, { kind: 'Group', name: 'devs' },
    { kind: 'ServiceAccount', namespace: 'ns', name: 'robot' },
  ];
  assert.deepEqual(cells(rbac, 'RoleBinding', { roleRef: { kind: 'Role', name: 'reader' }, subjects }), ['n', 'Role/reader', '60m', 'alice, bob', 'devs', 'ns/robot']);
  assert.deepEqual(cells(rbac, 'ClusterRoleBinding', { roleRef: { kind: 'ClusterRole', name: 'admin' } }), ['n', 'ClusterRole/admin', '60m', '', '', '']);
  assert.deepEqual(headers(rbac, 'Role'), ['Name', 'Created At']);
  assert.deepEqual(headers(rbac, 'ClusterRole'), ['Name', 'Created At']);
  assert.deepEqual(headers('apiextensions.svc.io/v1', 'CustomResourceDefinition'), ['Name', 'Created At']);
});

test('storage: storageclasses, csidrivers, csinodes, volumeattachments, csistoragecapacities', () => {
  const st = 'storage.svc.io/v1';
  assert.deepEqual(headers(st, 'StorageClass'), ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
  assert.deepEqual(cells(st, 'StorageClass', { metadata: { annotations: { 'storageclass.svc.io/is-default-class': 'true' } }, provisioner: 'csi.example.com' }),
    ['n (default)', 'csi.example.com', 'Delete', 'Immediate', false, '60m']);
  assert.deepEqual(cells(st, 'StorageClass', {
    metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'p', reclaimPolicy: 'Retain',
    volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true,
  }), ['n', 'p', 'Retain', 'WaitForFirstConsumer', true, '60m'], 'only the renamed annotation marks the default');
  assert.equal(cells(st, 'StorageClass', { metadata: { annotations: { 'storageclass.beta.svc.io/is-default-class': 'true' } } })[0], 'n (default)');

  assert.deepEqual(headers(st, 'CSIDriver'), ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age']);
  assert.deepEqual(cells(st, 'CSIDriver', { spec: {} }), ['n', true, false, false, '<unset>', false, '<none>', '60m']);
  assert.deepEqual(cells(st, 'CSIDriver', { spec: { attachRequired: false, podInfoOnMount: true, storageCapacity: true, tokenRequests: [{ audience: 'a' }, { audience: 'b' }], requiresRepublish: true, volumeLifecycleModes: ['Persistent', 'Ephemeral'] } }),
    ['n', false, true, true, 'a,b', true, 'Persistent,Ephemeral', '60m']);

  assert.deepEqual(headers(st, 'CSINode'), ['Name', 'Drivers', 'Age']);
  assert.deepEqual(cells(st, 'CSINode', { spec: { drivers: [{ name: 'd1' }, { name: 'd2' }] } }), ['n', 2, '60m']);

  assert.deepEqual(headers(st, 'VolumeAttachment'), ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']);
  assert.equal(column(st, 'VolumeAttachment', 'Attacher').format, 'name');
  assert.deepEqual(cells(st, 'VolumeAttachment', { spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv1' }, nodeName: 'node1' }, status: { attached: true } }),
    ['n', 'csi.example.com', 'pv1', 'node1', true, '60m']);

  assert.deepEqual(headers(st, 'CSIStorageCapacity'), ['Name', 'StorageClassName', 'Capacity']);
  assert.deepEqual(cells(st, 'CSIStorageCapacity', { storageClassName: 'fast', capacity: '10Gi' }), ['n', 'fast', '10Gi']);
  assert.deepEqual(cells(st, 'CSIStorageCapacity', { storageClassName: 'fast' }), ['n', 'fast', '<unset>']);
});

test('scheduling, node, discovery, certificates', () => {
  assert.deepEqual(headers('scheduling.svc.io/v1', 'PriorityClass'), ['Name', 'Value', 'Global-Default', 'Age']);
  assert.deepEqual(cells('scheduling.svc.io/v1', 'PriorityClass', { value: 1000, globalDefault: true }), ['n', 1000, true, '60m']);
  assert.deepEqual(cells('scheduling.svc.io/v1', 'PriorityClass', { value: -5 }), ['n', -5, false, '60m']);

  assert.deepEqual(headers('node.svc.io/v1', 'RuntimeClass'), ['Name', 'Handler', 'Age']);
  assert.deepEqual(cells('node.svc.io/v1', 'RuntimeClass', { handler: 'runc' }), ['n', 'runc', '60m']);

  const disc = 'discovery.svc.io/v1';
  assert.deepEqual(headers(disc, 'EndpointSlice'), ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
  assert.deepEqual(cells(disc, 'EndpointSlice', {
    addressType: 'IPv4', ports: [{ port: 80 }, { name: 'http' }, {}, { port: 8080 }],
    endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }, { addresses: ['10.0.0.4'] }],
  }), ['n', 'IPv4', '80,http,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...', '60m']);
  assert.deepEqual(cells(disc, 'EndpointSlice', { addressType: 'IPv6' }).slice(2, 4), ['<unset>', '<unset>']);

  const cert = 'certificates.svc.io/v1';
  assert.deepEqual(headers(cert, 'CertificateSigningRequest'), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
  assert.deepEqual(cells(cert, 'CertificateSigningRequest', {
    spec: { signerName: 'svc.io/kube-apiserver-client', username: 'alice', expirationSeconds: 86400 },
    status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'LS0t' },
  }), ['n', '60m', 'svc.io/kube-apiserver-client', 'alice', '24h', 'Approved,Issued']);
  assert.deepEqual(cells(cert, 'CertificateSigningRequest', { spec: { username: 'bob' } }).slice(2), ['<none>', 'bob', '<none>', 'Pending']);
  assert.equal(cells(cert, 'CertificateSigningRequest', { spec: {}, status: { conditions: [{ type: 'Approved' }, { type: 'Denied' }, { type: 'Failed' }] } })[5], 'Denied,Failed');
});

test('admissionregistration, apiregistration, flowcontrol, componentstatuses', () => {
  const adm = 'admissionregistration.svc.io/v1';
  for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
    assert.deepEqual(headers(adm, kind), ['Name', 'Webhooks', 'Age']);
    assert.deepEqual(cells(adm, kind, { webhooks: [{ name: 'a' }, { name: 'b' }] }), ['n', 2, '60m']);
  }

  const reg = 'apiregistration.svc.io/v1';
  assert.deepEqual(headers(reg, 'APIService'), ['Name', 'Service', 'Available', 'Age']);
  assert.deepEqual(cells(reg, 'APIService', { spec: {}, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } }), ['n', 'Local', 'True', '60m']);
  assert.deepEqual(cells(reg, 'APIService', { spec: { service: { namespace: 'svc-system', name: 'metrics' } }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] } }).slice(1, 3),
    ['svc-system/metrics', 'False (MissingEndpoints)']);
  assert.equal(cells(reg, 'APIService', { spec: {} })[2], 'Unknown');

  const fc = 'flowcontrol.apiserver.svc.io/v1beta3';
  assert.deepEqual(headers(fc, 'FlowSchema'), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
  assert.deepEqual(cells(fc, 'FlowSchema', { spec: { priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence: 9000, distinguisherMethod: { type: 'ByUser' } }, status: { conditions: [{ type: 'Dangling', status: 'False' }] } }),
    ['n', 'workload-low', 9000, 'ByUser', '60m', 'False']);
  assert.deepEqual(cells(fc, 'FlowSchema', { spec: { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 1 } }).slice(3), ['<none>', '60m', '?']);

  assert.deepEqual(headers(fc, 'PriorityLevelConfiguration'), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
  assert.deepEqual(cells(fc, 'PriorityLevelConfiguration', { spec: { type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } } }),
    ['n', 'Limited', 30, 64, 6, 50, '60m']);
  assert.deepEqual(cells(fc, 'PriorityLevelConfiguration', { spec: { type: 'Exempt' } }).slice(1, 6), ['Exempt', '<none>', '<none>', '<none>', '<none>']);
  assert.deepEqual(cells('flowcontrol.apiserver.svc.io/v1beta2', 'PriorityLevelConfiguration', { spec: { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } }).slice(1, 6),
    ['Limited', 5, '<none>', '<none>', '<none>']);

  assert.deepEqual(headers('v1', 'ComponentStatus'), ['Name', 'Status', 'Message', 'Error']);
  assert.deepEqual(cells('v1', 'ComponentStatus', { conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }), ['n', 'Healthy', 'ok', '']);
  assert.deepEqual(cells('v1', 'ComponentStatus', { conditions: [{ type: 'Healthy', status: 'False', error: 'down' }] }), ['n', 'Unhealthy', '', 'down']);
  assert.deepEqual(cells('v1', 'ComponentStatus', {}), ['n', 'Unknown', '', '']);
});
