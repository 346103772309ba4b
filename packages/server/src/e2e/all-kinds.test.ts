/**
 * Every served kind end to end: for each resource discovery lists with create, get, list and delete, one object is
 * created, read back in JSON and in protobuf, found in a list and deleted. Defaults the strategies fill are checked
 * for the kinds users rely on them for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { protobufCodec, protobufPrefix } from '@svc-apiserver/protobuf/codec';
import { call } from './http.js';
import { serverForFile } from './server-process.js';

const names = namesFor('svc');
const ns = 'allkinds';
const server = serverForFile({ storage: 'memory' }, ns);

const podSpec = { containers: [{ name: 'c', image: 'nginx:1.25' }] };
const template = { metadata: { labels: { app: 'x' } }, spec: podSpec };
const jobTemplate = { metadata: { labels: { app: 'x' } }, spec: { ...podSpec, restartPolicy: 'Never' } };
const selector = { matchLabels: { app: 'x' } };
const subjects = [{ kind: 'User', name: 'alice', apiGroup: names.group('rbac.authorization') }];
const roleRef = (kind: string) => ({ apiGroup: names.group('rbac.authorization'), kind, name: 'r' });
const plSpec = { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } };
const webhook = (name: string) => ({ name, clientConfig: { url: 'https://example.com/hook' }, sideEffects: 'None', admissionReviewVersions: ['v1'] });
const csrRequest = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIS01IRUNBUUF3RHpFTk1Bc0dBMVVFQXd3RWRHVnpkREJaTUJNR0J5cUdTTTQ5QWdFR0NDcUdTTTQ5QXdFSApBMElBQkF4eWxDc3A0SXNxdWo0RmVLOTUvc3FTVU9yRmtpTENNK1FJQVp1Q3N3NWJFSDNobTN4VEYweDIvRnN0CjRDUVRFaWlqNXlsdkowZFA5MWtZeFVuNG1iNmdBREFLQmdncWhrak9QUVFEQWdOSkFEQkdBaUVBa1ZtWG4vOUMKZUp1UG5MYWNibGt0ekxYUjFLZmNQaVg2emc1ZEp0TG1MK1FDSVFEa2UybU9YU2drN2VGaXg2M0liY01mV0J3Nwo4NHV4MWlyZkVJRThYUVFCRVE9PQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K';

/** The body of one object per kind beyond metadata (by `<groupKey>/<kind>`); kinds absent need nothing more. */
const bodies: Record<string, Record<string, unknown>> = {
  '/Pod': { spec: podSpec },
  '/Service': { spec: { ports: [{ port: 80 }] } },
  '/Binding': { target: { kind: 'Node', name: 'n' } },
  '/PodTemplate': { template },
  '/ReplicationController': { spec: { selector: { app: 'x' }, template } },
  '/PersistentVolume': { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp' } } },
  '/PersistentVolumeClaim': { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  '/Event': { involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'R', message: 'm', type: 'Normal' },
  'events/Event': { eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'c', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: ns } },
  'apps/Deployment': { spec: { selector, template } },
  'apps/ReplicaSet': { spec: { selector, template } },
  'apps/DaemonSet': { spec: { selector, template } },
  'apps/StatefulSet': { spec: { selector, template, serviceName: 's' } },
  'apps/ControllerRevision': { revision: 1, data: {} },
  'batch/Job': { spec: { template: jobTemplate } },
  'batch/CronJob': { spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: jobTemplate } } } },
  'autoscaling/HorizontalPodAutoscaler': { spec: { scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' }, maxReplicas: 3 } },
  'policy/PodDisruptionBudget': { spec: { minAvailable: 1, selector } },
  'rbac.authorization/RoleBinding': { subjects, roleRef: roleRef('Role') },
  'rbac.authorization/ClusterRoleBinding': { subjects, roleRef: roleRef('ClusterRole') },
  'networking/Ingress': { spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } },
  'networking/NetworkPolicy': { spec: { podSelector: {} } },
  'networking/IngressClass': { spec: { controller: 'example.com/ingress' } },
  'node/RuntimeClass': { handler: 'runc' },
  'scheduling/PriorityClass': { value: 1000 },
  'storage/StorageClass': { provisioner: 'example.com/p' },
  'storage/CSIDriver': { spec: {} },
  'storage/CSINode': { spec: { drivers: [] } },
  'storage/CSIStorageCapacity': { storageClassName: 'sc' },
  'storage/VolumeAttachment': { spec: { attacher: 'a', nodeName: 'n', source: { persistentVolumeName: 'pv' } } },
  'certificates/CertificateSigningRequest': { spec: { request: csrRequest, signerName: names.domain('api-client'), usages: ['client auth'] } },
  'coordination/Lease': { spec: { holderIdentity: 'h' } },
  'discovery/EndpointSlice': { addressType: 'IPv4', endpoints: [] },
  'admissionregistration/MutatingWebhookConfiguration': { webhooks: [webhook('m.example.com')] },
  'admissionregistration/ValidatingWebhookConfiguration': { webhooks: [webhook('v.example.com')] },
  'apiextensions/CustomResourceDefinition': {
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
  },
  'apiregistration/APIService': { spec: { group: 'example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 } },
  'flowcontrol.apiserver/FlowSchema': { spec: { priorityLevelConfiguration: { name: 'p' } } },
  'flowcontrol.apiserver/PriorityLevelConfiguration': { spec: plSpec },
};

/** Names of kinds whose name rule is stricter than a subdomain, or that need a special name. */
const specialNames: Record<string, string> = {
  'apiextensions/CustomResourceDefinition': 'widgets.example.com',
  'apiregistration/APIService': 'v1.example.com',
};

interface DiscoveredResource {
  readonly groupKey: string;
  readonly path: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

async function discover(): Promise<DiscoveredResource[]> {
  const out: DiscoveredResource[] = [];
  const groupVersions: { path: string; apiVersion: string; groupKey: string }[] = [{ path: '/api/v1', apiVersion: 'v1', groupKey: '' }];
  const groups = await call(server().client, 'GET', '/apis');
  for (const g of groups.body.groups) {
    for (const v of g.versions) groupVersions.push({ path: `/apis/${v.groupVersion}`, apiVersion: v.groupVersion, groupKey: names.groupKey(g.name) });
  }
  for (const gv of groupVersions) {
    const list = await call(server().client, 'GET', gv.path);
    for (const r of list.body.resources) {
      if (r.name.includes('/')) continue;
      out.push({ groupKey: gv.groupKey, path: gv.path, apiVersion: gv.apiVersion, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs });
    }
  }
  return out;
}

test('every served kind: create, get (JSON and protobuf), list, delete', async () => {
  const resources = await discover();
  const codec = protobufCodec(names);
  const crud = resources.filter((r) => ['create', 'get', 'list', 'delete'].every((v) => r.verbs.includes(v)));
  assert.ok(crud.length >= 50, `expected every built-in kind, found ${crud.length}`);
  const failures: string[] = [];
  let protobufReads = 0;
  for (const r of crud) {
    const key = `${r.groupKey}/${r.kind}`;
    const name = specialNames[key] ?? `x-${r.resource.slice(0, 20)}`;
    const collection = `${r.path}${r.namespaced ? `/namespaces/${ns}` : ''}/${r.resource}`;
    const body = { apiVersion: r.apiVersion, kind: r.kind, metadata: { name }, ...(bodies[key] ?? {}) };
    const created = await call(server().client, 'POST', collection, body);
    if (created.status !== 201) {
      failures.push(`${r.apiVersion} ${r.resource}: create ${created.status} ${created.body?.message ?? created.text}`);
      continue;
    }
    const got = await call(server().client, 'GET', `${collection}/${name}`);
    if (got.status !== 200 || got.body.kind !== r.kind || got.body.apiVersion !== r.apiVersion || got.body.metadata.uid !== created.body.metadata.uid) {
      failures.push(`${r.apiVersion} ${r.resource}: get ${got.status} ${got.body?.kind} ${got.body?.apiVersion}`);
    }
    const pb = await server().client.raw({ method: 'GET', path: `${collection}/${name}`, headers: { accept: `${names.name('protobufMediaType')}, application/json` } });
    if (!pb.ok || pb.value.status !== 200) failures.push(`${r.apiVersion} ${r.resource}: protobuf get failed`);
    else if (String(pb.value.headers['content-type']).startsWith(names.name('protobufMediaType'))) {
      const bytes = new Uint8Array(pb.value.body);
      assert.deepEqual(bytes.subarray(0, 4), protobufPrefix);
      protobufReads++;
      const decoded = codec.decode(bytes);
      if (!decoded.ok || decoded.value.metadata?.name !== name || decoded.value.kind !== r.kind) failures.push(`${r.apiVersion} ${r.resource}: protobuf decode`);
    }
    const listed = await call(server().client, 'GET', collection);
    if (listed.status !== 200 || !listed.body.items.some((i: { metadata: { name: string } }) => i.metadata.name === name)) {
      failures.push(`${r.apiVersion} ${r.resource}: list ${listed.status}`);
    }
    const deleted = await call(server().client, 'DELETE', `${collection}/${name}`);
    if (deleted.status !== 200 && deleted.status !== 202) failures.push(`${r.apiVersion} ${r.resource}: delete ${deleted.status} ${deleted.text}`);
  }
  assert.deepEqual(failures, []);
  assert.equal(protobufReads, crud.length, 'every built-in kind answers protobuf');
});

test('defaults: pods, services (allocated cluster IP and node port), deployments, jobs', async () => {
  const pod = await call(server().client, 'POST', `/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dp' }, spec: { containers: [{ name: 'a', image: 'nginx' }, { name: 'b', image: 'nginx:1.2' }] } });
  assert.equal(pod.status, 201, pod.text);
  assert.equal(pod.body.spec.restartPolicy, 'Always');
  assert.equal(pod.body.spec.dnsPolicy, 'ClusterFirst');
  assert.equal(pod.body.spec.terminationGracePeriodSeconds, 30);
  assert.equal(pod.body.spec.schedulerName, 'default-scheduler');
  assert.deepEqual(pod.body.spec.securityContext, {});
  assert.equal(pod.body.spec.containers[0].imagePullPolicy, 'Always');
  assert.equal(pod.body.spec.containers[1].imagePullPolicy, 'IfNotPresent');
  assert.equal(pod.body.spec.containers[0].terminationMessagePath, '/dev/termination-log');
  assert.equal(pod.body.status.qosClass, 'BestEffort');

  const svc = await call(server().client, 'POST', `/api/v1/namespaces/${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
  assert.equal(svc.status, 201, svc.text);
  assert.match(svc.body.spec.clusterIP, /^10\.0\.0\.\d+$/);
  assert.deepEqual(svc.body.spec.clusterIPs, [svc.body.spec.clusterIP]);
  assert.deepEqual(svc.body.spec.ipFamilies, ['IPv4']);
  assert.equal(svc.body.spec.sessionAffinity, 'None');
  assert.equal(svc.body.spec.ports[0].targetPort, 80);
  const port = svc.body.spec.ports[0].nodePort;
  assert.ok(port >= 30000 && port <= 32767);
  const clash = await call(server().client, 'POST', `/api/v1/namespaces/${ns}/services`, {
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'np2' }, spec: { type: 'NodePort', clusterIP: svc.body.spec.clusterIP, ports: [{ port: 80, nodePort: port }] },
  });
  assert.equal(clash.status, 422);
  assert.match(clash.body.message, /provided IP is already allocated/);
  assert.match(clash.body.message, /provided port is already allocated/);
  const changed = await call(server().client, 'PUT', `/api/v1/namespaces/${ns}/services/np`, { ...svc.body, spec: { ...svc.body.spec, clusterIP: '10.0.0.250', clusterIPs: ['10.0.0.250'] } });
  assert.equal(changed.status, 422, changed.text);
  // A deleted service's address and port are free again.
  assert.equal((await call(server().client, 'DELETE', `/api/v1/namespaces/${ns}/services/np`)).status, 200);
  let reused = { status: 0, text: '' } as Awaited<ReturnType<typeof call>>;
  for (let i = 0; i < 50 && reused.status !== 201; i++) {
    reused = await call(server().client, 'POST', `/api/v1/namespaces/${ns}/services`, {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'np3' }, spec: { type: 'NodePort', clusterIP: svc.body.spec.clusterIP, ports: [{ port: 80, nodePort: port }] },
    });
    if (reused.status !== 201) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(reused.status, 201, reused.text);

  const dep = await call(server().client, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector, template } });
  assert.equal(dep.status, 201, dep.text);
  assert.equal(dep.body.spec.replicas, 1);
  assert.deepEqual(dep.body.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(dep.body.spec.revisionHistoryLimit, 10);
  assert.equal(dep.body.spec.progressDeadlineSeconds, 600);
  assert.equal(dep.body.spec.template.spec.restartPolicy, 'Always');
  const moved = await call(server().client, 'PUT', `/apis/apps/v1/namespaces/${ns}/deployments/d`, {
    ...dep.body, spec: { ...dep.body.spec, selector: { matchLabels: { app: 'x', b: 'c' } }, template: { ...template, metadata: { labels: { app: 'x', b: 'c' } } } },
  });
  assert.equal(moved.status, 422);
  assert.match(moved.body.message, /spec\.selector: Invalid value: .*field is immutable/);
  const bad = await call(server().client, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd2' }, spec: { selector: { matchLabels: { app: 'y' } }, template } });
  assert.equal(bad.status, 422);
  assert.match(bad.body.message, /`selector` does not match template `labels`/);

  const job = await call(server().client, 'POST', `/apis/batch/v1/namespaces/${ns}/jobs`, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: jobTemplate } });
  assert.equal(job.status, 201, job.text);
  assert.equal(job.body.spec.backoffLimit, 6);
  assert.equal(job.body.spec.completions, 1);
  assert.deepEqual(job.body.spec.selector, { matchLabels: { 'batch.svc.io/controller-uid': job.body.metadata.uid } });
  assert.equal(job.body.spec.template.metadata.labels['job-name'], 'j');
});

test('deprecated versions warn; discovery follows the default-on rules', async () => {
  const r = await call(server().client, 'GET', '/apis/flowcontrol.apiserver.svc.io/v1beta2/flowschemas');
  assert.equal(r.status, 200);
  assert.equal(r.headers['warning'], '299 - "flowcontrol.apiserver.svc.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.svc.io/v1beta3 FlowSchema"');
  const fresh = await call(server().client, 'GET', '/apis/flowcontrol.apiserver.svc.io/v1beta3/flowschemas');
  assert.equal(fresh.headers['warning'], undefined);
  const groups = await call(server().client, 'GET', '/apis');
  const versions = groups.body.groups.flatMap((g: { versions: { groupVersion: string }[] }) => g.versions.map((v) => v.groupVersion));
  for (const gv of ['apps/v1', 'batch/v1', 'autoscaling/v2', 'autoscaling/v1', 'policy/v1', 'flowcontrol.apiserver.svc.io/v1beta3', 'storage.svc.io/v1', 'networking.svc.io/v1']) {
    assert.ok(versions.includes(gv), gv);
  }
  for (const gv of ['admissionregistration.svc.io/v1alpha1', 'resource.svc.io/v1alpha2', 'authentication.svc.io/v1beta1', 'internal.apiserver.svc.io/v1alpha1']) {
    assert.ok(!versions.includes(gv), gv);
  }
  const index = await call(server().client, 'GET', '/openapi/v3');
  const paths = Object.keys(index.body.paths);
  assert.ok(paths.includes('apis/apps/v1'));
  assert.ok(!paths.includes('apis/resource.svc.io/v1alpha2'));
});
