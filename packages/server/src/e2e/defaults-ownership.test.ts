/**
 * Who owns defaulted fields, against the real server as a child process. As in kube-apiserver 1.27 the kind's
 * defaults run when a body or a patched object is decoded, before the field manager: the manager of a create, an
 * update or a JSON, merge or strategic merge patch owns what defaulting filled in, and an apply by another manager
 * of such a field conflicts (409) unless forced. An apply owns only what it sent: the defaults of the object it
 * merged belong to nobody.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Reply } from './http.js';
import { serverForFile } from './server-process.js';
import { cronTabCrd, establish } from './crd-fixtures.js';
import { leaves, type Entry } from './managed-fields.js';

const ns = 'e2e-defaults';
const server = serverForFile({}, ns);
const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
const pods = `/api/v1/namespaces/${ns}/pods`;
const services = `/api/v1/namespaces/${ns}/services`;
const jobs = `/apis/batch/v1/namespaces/${ns}/jobs`;
const applyType = { 'content-type': 'application/apply-patch+yaml' };

/** The managedFields entry of `manager`. */
function entryOf(reply: Reply, manager: string): Entry {
  const entry = (reply.body.metadata.managedFields as Entry[]).find((e) => e.manager === manager);
  assert.ok(entry !== undefined, `no entry of ${manager} in ${JSON.stringify(reply.body.metadata.managedFields)}`);
  return entry;
}

/** The fields a kube-apiserver 1.27 create of a one-container pod spec records for the container `name`. */
const podSpecLeaves = (prefix: string, name: string): string[] => [
  `${prefix}f:containers k:{"name":"${name}"} f:image`, `${prefix}f:containers k:{"name":"${name}"} f:imagePullPolicy`,
  `${prefix}f:containers k:{"name":"${name}"} f:name`, `${prefix}f:containers k:{"name":"${name}"} f:resources`,
  `${prefix}f:containers k:{"name":"${name}"} f:terminationMessagePath`,
  `${prefix}f:containers k:{"name":"${name}"} f:terminationMessagePolicy`,
  `${prefix}f:dnsPolicy`, `${prefix}f:restartPolicy`, `${prefix}f:schedulerName`, `${prefix}f:securityContext`,
  `${prefix}f:terminationGracePeriodSeconds`,
];

const deployment = (name: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }] }] } },
  },
});

/** What kube-apiserver 1.27 records for `kubectl create` of {@link deployment}. */
const createdDeploymentLeaves = [
  'f:metadata f:labels f:app',
  'f:spec f:progressDeadlineSeconds', 'f:spec f:replicas', 'f:spec f:revisionHistoryLimit', 'f:spec f:selector',
  'f:spec f:strategy f:rollingUpdate f:maxSurge', 'f:spec f:strategy f:rollingUpdate f:maxUnavailable', 'f:spec f:strategy f:type',
  'f:spec f:template f:metadata f:labels f:app',
  ...podSpecLeaves('f:spec f:template f:spec ', 'nginx'),
  'f:spec f:template f:spec f:containers k:{"name":"nginx"} f:ports k:{"containerPort":80,"protocol":"TCP"} f:containerPort',
  'f:spec f:template f:spec f:containers k:{"name":"nginx"} f:ports k:{"containerPort":80,"protocol":"TCP"} f:protocol',
].sort();

test('create: the creator owns every field defaulting filled in (Deployment, Pod, Service, Job, custom resource)', async () => {
  const client = server().client;
  const made = await call(client, 'POST', `${deployments}?fieldManager=kubectl-create`, deployment('web'));
  assert.equal(made.status, 201, made.text);
  const entry = entryOf(made, 'kubectl-create');
  assert.equal(entry.operation, 'Update');
  assert.deepEqual(leaves(entry.fieldsV1), createdDeploymentLeaves);
  // The whole set as kube-apiserver 1.27 records it: a map, list or pointer struct the zero Deployment lacks is itself
  // added (`.`: labels, rollingUpdate, a new container and its ports); its non-pointer structs and the containers
  // list, always there in Go, are not.
  const k = (key: Record<string, unknown>): string => `k:${JSON.stringify(key)}`;
  assert.deepEqual(entry.fieldsV1, {
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': {
      'f:progressDeadlineSeconds': {}, 'f:replicas': {}, 'f:revisionHistoryLimit': {}, 'f:selector': {},
      'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
      'f:template': {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:containers': {
            [k({ name: 'nginx' })]: {
              '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {},
              'f:ports': { '.': {}, [k({ containerPort: 80, protocol: 'TCP' })]: { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
              'f:resources': {}, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {},
            },
          },
          'f:dnsPolicy': {}, 'f:restartPolicy': {}, 'f:schedulerName': {}, 'f:securityContext': {}, 'f:terminationGracePeriodSeconds': {},
        },
      },
    },
  });

  const pod = await call(client, 'POST', `${pods}?fieldManager=kubectl-run`,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } });
  assert.equal(pod.status, 201, pod.text);
  // Not serviceAccountName or tolerations: admission sets those after the field manager ran.
  assert.deepEqual(leaves(entryOf(pod, 'kubectl-run').fieldsV1), [...podSpecLeaves('f:spec ', 'nginx'), 'f:spec f:enableServiceLinks'].sort());
  assert.equal(pod.body.spec.serviceAccountName, 'default');

  const service = await call(client, 'POST', `${services}?fieldManager=kubectl-create`,
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  assert.equal(service.status, 201, service.text);
  // The cluster IP and the ip family fields are the service storage's, filled in after the field manager: nobody's.
  assert.deepEqual(leaves(entryOf(service, 'kubectl-create').fieldsV1), [
    'f:spec f:internalTrafficPolicy', 'f:spec f:ports k:{"port":80,"protocol":"TCP"} f:port',
    'f:spec f:ports k:{"port":80,"protocol":"TCP"} f:protocol', 'f:spec f:ports k:{"port":80,"protocol":"TCP"} f:targetPort',
    'f:spec f:selector', 'f:spec f:sessionAffinity', 'f:spec f:type',
  ]);
  assert.deepEqual(service.body.spec.ipFamilies, ['IPv4']);
  assert.equal(service.body.spec.ipFamilyPolicy, 'SingleStack');

  const job = await call(client, 'POST', `${jobs}?fieldManager=kubectl-create`, {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox' }] } } },
  });
  assert.equal(job.status, 201, job.text);
  // The generated selector and template labels come from validation, after the field manager: nobody's.
  assert.deepEqual(leaves(entryOf(job, 'kubectl-create').fieldsV1), [
    'f:spec f:backoffLimit', 'f:spec f:completionMode', 'f:spec f:completions', 'f:spec f:parallelism', 'f:spec f:suspend',
    ...podSpecLeaves('f:spec f:template f:spec ', 'work'),
  ].sort());
  assert.ok(job.body.spec.selector.matchLabels !== undefined);

  await establish(server(), cronTabCrd('defaults.example.com'));
  const crontab = await call(client, 'POST', `/apis/defaults.example.com/v1/namespaces/${ns}/crontabs?fieldManager=maker`,
    { apiVersion: 'defaults.example.com/v1', kind: 'CronTab', metadata: { name: 'c' }, spec: { cronSpec: '* * * * */5' } });
  assert.equal(crontab.status, 201, crontab.text);
  assert.deepEqual(crontab.body.spec, { cronSpec: '* * * * */5', image: 'busybox', replicas: 1 });
  assert.deepEqual(leaves(entryOf(crontab, 'maker').fieldsV1), ['f:spec f:cronSpec', 'f:spec f:image', 'f:spec f:replicas']);
  // A custom object is a map, not a Go struct: its spec did not exist before the create.
  assert.deepEqual(entryOf(crontab, 'maker').fieldsV1['f:spec']!['.'], {});
});

test('update and patches: the writer owns what defaulting of its body or patched object changed', async () => {
  const client = server().client;
  const made = await call(client, 'POST', `${deployments}?fieldManager=kubectl-create`, deployment('edited'));
  assert.equal(made.status, 201, made.text);

  // PUT: a new image tag without imagePullPolicy is defaulted to IfNotPresent on decode; the editor owns both.
  const body = structuredClone(made.body);
  const container = body.spec.template.spec.containers[0];
  container.image = 'nginx:1.25';
  delete container.imagePullPolicy;
  const put = await call(client, 'PUT', `${deployments}/edited?fieldManager=editor`, body);
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');
  assert.deepEqual(leaves(entryOf(put, 'editor').fieldsV1), [
    'f:spec f:template f:spec f:containers k:{"name":"nginx"} f:image',
    'f:spec f:template f:spec f:containers k:{"name":"nginx"} f:imagePullPolicy',
  ]);
  assert.ok(!leaves(entryOf(put, 'kubectl-create').fieldsV1).some((p) => p.endsWith('f:imagePullPolicy')));

  // Strategic merge patch: an added container's defaults belong to the patcher.
  const strategic = await call(client, 'PATCH', `${deployments}/edited?fieldManager=sidecar`,
    { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } } },
    { 'content-type': 'application/strategic-merge-patch+json' });
  assert.equal(strategic.status, 200, strategic.text);
  assert.deepEqual(leaves(entryOf(strategic, 'sidecar').fieldsV1),
    podSpecLeaves('f:spec f:template f:spec ', 'sidecar').filter((p) => p.includes('k:{')));

  const service = await call(client, 'POST', `${services}?fieldManager=kubectl-create`,
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'typed' }, spec: { selector: { app: 'x' }, ports: [{ port: 80 }] } });
  assert.equal(service.status, 201, service.text);
  // Merge patch: NodePort defaults externalTrafficPolicy on the patched object; the allocated node port is nobody's.
  const merge = await call(client, 'PATCH', `${services}/typed?fieldManager=merger`, { spec: { type: 'NodePort' } },
    { 'content-type': 'application/merge-patch+json' });
  assert.equal(merge.status, 200, merge.text);
  assert.equal(merge.body.spec.externalTrafficPolicy, 'Cluster');
  assert.equal(typeof merge.body.spec.ports[0].nodePort, 'number');
  assert.deepEqual(leaves(entryOf(merge, 'merger').fieldsV1), ['f:spec f:externalTrafficPolicy', 'f:spec f:type']);
  // JSON patch: LoadBalancer defaults allocateLoadBalancerNodePorts.
  const json = await call(client, 'PATCH', `${services}/typed?fieldManager=jsonpatcher`,
    [{ op: 'replace', path: '/spec/type', value: 'LoadBalancer' }], { 'content-type': 'application/json-patch+json' });
  assert.equal(json.status, 200, json.text);
  assert.equal(json.body.spec.allocateLoadBalancerNodePorts, true);
  assert.deepEqual(leaves(entryOf(json, 'jsonpatcher').fieldsV1), ['f:spec f:allocateLoadBalancerNodePorts', 'f:spec f:type']);
  assert.deepEqual(leaves(entryOf(json, 'merger').fieldsV1), ['f:spec f:externalTrafficPolicy']);
});

const applyDeployment = (name: string, spec: string, query: string): Promise<Reply> =>
  call(server().client, 'PATCH', `${deployments}/${name}?${query}`,
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n${spec}`, applyType);

test('apply of a field another manager\'s create defaulted: 409 in kube\'s words, force takes it', async () => {
  const made = await call(server().client, 'POST', `${deployments}?fieldManager=kubectl-create`, deployment('contested'));
  assert.equal(made.status, 201, made.text);
  const clash = await applyDeployment('contested', '  revisionHistoryLimit: 5\n', 'fieldManager=applier');
  assert.equal(clash.status, 409, clash.text);
  assert.equal(clash.body.reason, 'Conflict');
  assert.equal(clash.body.message, 'Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.revisionHistoryLimit');
  assert.deepEqual(clash.body.details.causes,
    [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-create" using apps/v1', field: '.spec.revisionHistoryLimit' }]);
  // The same value is shared ownership, not a conflict.
  const same = await applyDeployment('contested', '  progressDeadlineSeconds: 600\n', 'fieldManager=sharer');
  assert.equal(same.status, 200, same.text);
  const forced = await applyDeployment('contested', '  revisionHistoryLimit: 5\n', 'fieldManager=applier&force=true');
  assert.equal(forced.status, 200, forced.text);
  assert.equal(forced.body.spec.revisionHistoryLimit, 5);
  assert.deepEqual(leaves(entryOf(forced, 'applier').fieldsV1), ['f:spec f:revisionHistoryLimit']);
  assert.ok(!leaves(entryOf(forced, 'kubectl-create').fieldsV1).includes('f:spec f:revisionHistoryLimit'));
});

test('apply owns what it sent, never the defaults filled in after its merge', async () => {
  const spec = [
    '  selector:\n    matchLabels:\n      app: applied\n',
    '  template:\n    metadata:\n      labels:\n        app: applied\n',
    '    spec:\n      containers:\n      - name: nginx\n        image: nginx\n',
  ].join('');
  const created = await applyDeployment('applied', spec, 'fieldManager=alice');
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.spec.revisionHistoryLimit, 10);
  assert.equal(created.body.spec.template.spec.containers[0].imagePullPolicy, 'Always');
  assert.deepEqual(leaves(entryOf(created, 'alice').fieldsV1), [
    'f:spec f:selector', 'f:spec f:template f:metadata f:labels f:app',
    'f:spec f:template f:spec f:containers k:{"name":"nginx"} f:image',
    'f:spec f:template f:spec f:containers k:{"name":"nginx"} f:name',
  ]);
  // Nobody owns the defaults: another manager sets them without a conflict, and alice's next apply keeps them.
  const other = await applyDeployment('applied', '  revisionHistoryLimit: 3\n', 'fieldManager=bob');
  assert.equal(other.status, 200, other.text);
  const again = await applyDeployment('applied', spec, 'fieldManager=alice');
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.spec.revisionHistoryLimit, 3);
  // An applier sending a defaulted field's default value owns it like any field it sent.
  const explicit = await applyDeployment('applied', `${spec}  progressDeadlineSeconds: 600\n`, 'fieldManager=alice');
  assert.equal(explicit.status, 200, explicit.text);
  assert.ok(leaves(entryOf(explicit, 'alice').fieldsV1).includes('f:spec f:progressDeadlineSeconds'));
});
