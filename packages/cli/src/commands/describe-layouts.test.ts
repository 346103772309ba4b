/**
 * describe's layouts of the workload, node, storage, network and policy kinds against a real server: the same
 * objects (a Deployment with the ReplicaSets and Pods it owns, a StatefulSet, DaemonSet, Job and CronJob, a Node
 * with its Lease and Pods, claims and volumes, an Ingress before a Service and its Endpoints, quotas, limit ranges,
 * disruption budgets, autoscalers, and Events) seeded on a server of each flavour, the svc flavour's checked for its
 * renamed names, the k8s flavour's compared line by line with kubectl 1.27 (skipped without it). Each limit range
 * item names one resource: kubectl prints an item's resources in Go's random map order.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { startTestServer, type TestServer } from '@svc-apiserver/test-server';
import { run } from '../cli.js';

const kubectl = findKubectls(['1.27']).find((k) => k.label === 'kubectl.1.27');
const dir = tempDir({ after }, 'svcctl-describe-layouts-');
let svc: TestServer;
let k8s: TestServer;

type Out = { code: number; out: string; err: string };

async function svcctl(server: TestServer, argv: string[]): Promise<Out> {
  let out = '';
  let err = '';
  const code = await run(['--kubeconfig', server.kubeconfigPath, ...argv], { stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, readStdin: async () => '', env: {} });
  return { code, out, err };
}

async function create(server: TestServer, name: string, docs: readonly string[]): Promise<void> {
  const file = join(dir, `${server.flavour}-${name}.yaml`);
  writeFileSync(file, docs.join('\n---\n'));
  const created = await svcctl(server, ['create', '-f', file]);
  assert.equal(created.code, 0, created.err);
}

const uidOf = async (server: TestServer, ref: { group: string; version: string; resource: string; namespace?: string }, name: string): Promise<string> => {
  const got = await server.client.get(ref, name);
  assert.ok(got.ok);
  return got.value.metadata?.uid ?? '';
};

const ns = 'wl';
const core = (resource: string) => ({ group: '', version: 'v1', resource, namespace: ns });
const nodes = { group: '', version: 'v1', resource: 'nodes' };
const apps = (resource: string) => ({ group: 'apps', version: 'v1', resource, namespace: ns });
const ago = (ms: number): string => new Date(Date.now() - ms).toISOString().replace(/\.\d+Z$/, 'Z');
const day = 24 * 3600_000;

const template = `
    metadata: {labels: {app: web%HASH%}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports: [{containerPort: 80}]
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: "0.5", memory: 128Mi}}
        env:
        - {name: MODE, value: prod}
        - name: PASSWORD
          valueFrom: {secretKeyRef: {name: s1, key: password}}
        - name: POD_NAME
          valueFrom: {fieldRef: {fieldPath: metadata.name}}
        livenessProbe: {httpGet: {path: /healthz, port: 80}}`;

/** The same workloads, storage, network and policy objects on a server, with their statuses and Events. */
async function seed(server: TestServer): Promise<void> {
  const { names } = server;
  const podStatus = { subresource: 'status' };
  await server.createNamespace(ns);
  await create(server, 'base', [
    `apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {${names.fromUpstream('node-role.kubernetes.io/control-plane')}: "", ${names.fromUpstream('kubernetes.io/hostname')}: n1}}\nspec: {podCIDR: 10.244.0.0/24, podCIDRs: [10.244.0.0/24], taints: [{key: dedicated, value: infra, effect: NoSchedule}, {key: gpu, effect: NoExecute}]}`,
    `apiVersion: ${names.group('coordination')}/v1\nkind: Lease\nmetadata: {name: n1, namespace: ${names.name('nodeLeaseNamespace')}}\nspec: {holderIdentity: n1, leaseDurationSeconds: 40, renewTime: "2026-01-02T03:04:05.000000Z"}`,
    `apiVersion: v1\nkind: Secret\nmetadata: {name: s1, namespace: ${ns}}\ndata: {password: eHl6}`,
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: ${ns}}\ndata: {a: "1"}`,
    `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ${ns}, labels: {app: web}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:${template.replace('%HASH%', '')}`,
  ]);
  const node = await server.client.patch(nodes, 'n1', 'merge', {
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi', 'hugepages-2Mi': '0', 'example.com/gpu': '2' },
      allocatable: { cpu: '3800m', memory: '7Gi', pods: '110', 'ephemeral-storage': '90Gi', 'hugepages-2Mi': '0', 'example.com/gpu': '2' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: '2026-01-02T03:04:05Z', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }],
      nodeInfo: { machineID: 'm1', systemUUID: 'u1', bootID: 'b1', kernelVersion: '6.1', osImage: 'Debian', operatingSystem: 'linux', architecture: 'amd64', containerRuntimeVersion: 'containerd://1.7', kubeletVersion: 'v1.27.3', kubeProxyVersion: 'v1.27.3' },
    },
  }, podStatus);
  assert.ok(node.ok, JSON.stringify(node));
  const deployment = await uidOf(server, apps('deployments'), 'web');
  const owner = (kind: string, name: string, uid: string): string => `ownerReferences: [{apiVersion: apps/v1, kind: ${kind}, name: ${name}, uid: ${uid}, controller: true}]`;
  await create(server, 'replicasets', [
    `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-abc, namespace: ${ns}, labels: {app: web, pod-template-hash: abc}, ${owner('Deployment', 'web', deployment)}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web, pod-template-hash: abc}}\n  template:${template.replace('%HASH%', ', pod-template-hash: abc')}`,
    `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-old, namespace: ${ns}, labels: {app: web, pod-template-hash: old}, ${owner('Deployment', 'web', deployment)}}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web, pod-template-hash: old}}\n  template:\n    metadata: {labels: {app: web, pod-template-hash: old}}\n    spec: {containers: [{name: nginx, image: "nginx:1.24"}]}`,
  ]);
  const rs = await uidOf(server, apps('replicasets'), 'web-abc');
  await create(server, 'pods', [
    `apiVersion: v1
kind: Pod
metadata: {name: web-abc-1, namespace: ${ns}, labels: {app: web, pod-template-hash: abc}, annotations: {note: "${'x'.repeat(150)}"}, ${owner('ReplicaSet', 'web-abc', rs)}}
spec:
  nodeName: n1
  initContainers:
  - {name: init, image: busybox, command: ["sh", "-c", "echo hi\\nsleep 1"], resources: {requests: {cpu: 200m}}}
  containers:
  - name: nginx
    image: nginx:1.25
    args: [--port, "80"]
    ports: [{containerPort: 80, name: http}, {containerPort: 443, hostPort: 8443}]
    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: "0.5", memory: 128Mi}}
    env:
    - {name: MODE, value: "prod\\nline2"}
    - name: PASSWORD
      valueFrom: {secretKeyRef: {name: s1, key: password, optional: true}}
    - name: A
      valueFrom: {configMapKeyRef: {name: cfg, key: a}}
    - name: POD_NAME
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: POD_IP
      valueFrom: {fieldRef: {fieldPath: status.podIP}}
    - name: CPU_LIMIT
      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}
    - name: MEM_REQ
      valueFrom: {resourceFieldRef: {resource: requests.memory, divisor: 1Mi}}
    envFrom:
    - configMapRef: {name: cfg}
    - {secretRef: {name: s1, optional: true}, prefix: S_}
    livenessProbe: {httpGet: {path: healthz, port: http}, initialDelaySeconds: 5}
    readinessProbe: {exec: {command: [cat, /tmp/ready]}}
    startupProbe: {tcpSocket: {port: 80}}
    volumeMounts: [{name: data, mountPath: /data}, {name: cfg, mountPath: /etc/cfg, readOnly: true, subPath: a}]
  - {name: side, image: busybox, command: [sleep, "3600"]}
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: claim1}}
  - {name: cfg, configMap: {name: cfg}}
  - {name: tmp, emptyDir: {sizeLimit: 1Gi}}
  - {name: host, hostPath: {path: /var/log, type: Directory}}
  - {name: dapi, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}
  - {name: sec, secret: {secretName: s1, optional: true}}
  - name: eph
    ephemeral: {volumeClaimTemplate: {metadata: {labels: {x: "yes"}}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: fast}}}
  - {name: share, nfs: {server: nfs.example.com, path: /exports, readOnly: true}}
  - {name: inline, csi: {driver: csi.example.com, volumeAttributes: {b: "2", a: "1"}}}
  nodeSelector: {disk: ssd}
  tolerations:
  - {key: dedicated, operator: Equal, value: infra, effect: NoSchedule}
  - {operator: Exists}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}`,
    `apiVersion: v1\nkind: Pod\nmetadata: {name: web-abc-2, namespace: ${ns}, labels: {app: web, pod-template-hash: abc}, ${owner('ReplicaSet', 'web-abc', rs)}}\nspec:\n  nodeName: n1\n  containers: [{name: nginx, image: "nginx:1.25", resources: {requests: {cpu: "1", memory: 1Gi}, limits: {cpu: "1", memory: 1Gi}}}]`,
    `apiVersion: v1\nkind: Pod\nmetadata: {name: done, namespace: ${ns}, labels: {app: web}}\nspec: {nodeName: n1, restartPolicy: Never, containers: [{name: c, image: busybox}]}`,
  ]);
  const t0 = '2026-01-02T03:00:00Z';
  const t1 = '2026-01-02T03:05:00Z';
  for (const [name, status] of [
    ['web-abc-1', {
      phase: 'Running', hostIP: '10.0.0.1', podIP: '10.244.0.5', podIPs: [{ ip: '10.244.0.5' }], startTime: t0,
      conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'True' }],
      initContainerStatuses: [{ name: 'init', image: 'busybox', imageID: 'docker.io/busybox@sha256:1', containerID: 'containerd://i1', ready: true, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: t0, finishedAt: t1 } } }],
      containerStatuses: [
        { name: 'nginx', image: 'nginx:1.25', imageID: 'docker.io/nginx@sha256:2', containerID: 'containerd://c1', ready: false, restartCount: 3, state: { running: { startedAt: t1 } }, lastState: { terminated: { exitCode: 137, signal: 9, reason: 'OOMKilled', message: 'killed', startedAt: t0, finishedAt: t1 } } },
        { name: 'side', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } } },
      ],
    }],
    ['web-abc-2', { phase: 'Pending' }],
    ['done', { phase: 'Succeeded' }],
  ] as const) {
    const patched = await server.client.patch(core('pods'), name, 'merge', { status }, podStatus);
    assert.ok(patched.ok, JSON.stringify(patched));
  }
  await create(server, 'more', [
    `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: ${ns}}
spec:
  serviceName: db
  replicas: 3
  selector: {matchLabels: {app: db}, matchExpressions: [{key: tier, operator: In, values: [b, a]}, {key: legacy, operator: DoesNotExist}]}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1}}
  template:
    metadata: {labels: {app: db, tier: a}, annotations: {note: hi}}
    spec: {serviceAccountName: robot, priorityClassName: high, containers: [{name: pg, image: postgres}]}
  volumeClaimTemplates:
  - metadata: {name: data, labels: {a: b, c: d}, annotations: {x: z}}
    spec: {accessModes: [ReadWriteOnce, ReadOnlyMany], resources: {requests: {storage: 1.5Gi}}, storageClassName: fast}
  - metadata: {name: logs}
    spec: {accessModes: [ReadWriteOnce], resources: {}}`,
    `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: ${ns}, labels: {k: v}}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {os: linux, disk: ssd}
      initContainers: [{name: setup, image: busybox}]
      containers: [{name: agent, image: "agent:1", securityContext: {seccompProfile: {type: RuntimeDefault}}}]
      volumes: [{name: proc, hostPath: {path: /proc}}]`,
    `apiVersion: batch/v1\nkind: Job\nmetadata: {name: once, namespace: ${ns}}\nspec:\n  parallelism: 2\n  completions: 4\n  completionMode: Indexed\n  activeDeadlineSeconds: 600\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: busybox, command: [echo, hi]}]}`,
    `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly, namespace: ${ns}}\nspec:\n  schedule: "0 3 * * *"\n  startingDeadlineSeconds: 100\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox}]}`,
    `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: claim1, namespace: ${ns}}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}, storageClassName: fast, volumeName: pv1}`,
    `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: claim2, namespace: ${ns}, annotations: {${names.fromUpstream('volume.beta.kubernetes.io/storage-class')}: slow}}\nspec: {accessModes: [ReadWriteMany], resources: {requests: {storage: 500Mi}}, volumeMode: Block, dataSource: {kind: PersistentVolumeClaim, name: claim1}}`,
    `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadWriteOnce, ReadOnlyMany, ReadWriteMany]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: fast
  claimRef: {namespace: ${ns}, name: claim1}
  local: {path: /mnt/disk1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: ${names.fromUpstream('kubernetes.io/hostname')}, operator: In, values: [n1, n2]}, {key: disk, operator: Exists}]
      - matchExpressions: [{key: zone, operator: NotIn, values: [z3]}]`,
    'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv2}\nspec: {capacity: {storage: 10Gi}, accessModes: [ReadOnlyMany], nfs: {server: nfs.example.com, path: /exports}}',
    'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv3}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: csi.example.com, volumeHandle: h1, fsType: ext4, volumeAttributes: {b: "2", a: "1"}}}',
    `apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: ${ns}}\nspec: {selector: {app: web}, ports: [{name: http, port: 80, targetPort: 8080}, {name: https, port: 443}]}`,
    `apiVersion: v1\nkind: Endpoints\nmetadata: {name: web, namespace: ${ns}}\nsubsets:\n- addresses: [{ip: 10.244.0.5}, {ip: 10.244.0.6}]\n  ports: [{name: http, port: 8080}, {name: https, port: 443}]\n- addresses: [{ip: 10.244.1.5}, {ip: 10.244.1.6}]\n  ports: [{name: http, port: 8080}]`,
    `apiVersion: ${names.group('networking')}/v1
kind: Ingress
metadata: {name: ing, namespace: ${ns}, annotations: {a: b}}
spec:
  ingressClassName: nginx
  defaultBackend: {service: {name: web, port: {name: https}}}
  tls: [{secretName: tls1, hosts: [a.example.com, b.example.com]}, {hosts: [c.example.com]}]
  rules:
  - host: a.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
      - {path: /api, pathType: Prefix, backend: {service: {name: missing, port: {number: 80}}}}
      - {path: /static, pathType: Prefix, backend: {resource: {apiGroup: example.com, kind: Bucket, name: assets}}}
  - http:
      paths:
      - {path: /x, pathType: Exact, backend: {service: {name: web, port: {name: http}}}}`,
    `apiVersion: ${names.group('networking')}/v1\nkind: Ingress\nmetadata: {name: ing2, namespace: ${ns}}\nspec: {defaultBackend: {service: {name: web, port: {number: 80}}}}`,
    `apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q2, namespace: ${ns}}\nspec: {hard: {pods: "10", requests.memory: 2Gi}, scopes: [NotTerminating]}`,
    `apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: ${ns}}\nspec:\n  limits:\n  - {type: Container, max: {cpu: "2"}}\n  - {type: Pod, min: {memory: 10Mi}}`,
    `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: pdb, namespace: ${ns}}\nspec: {minAvailable: 50%, selector: {matchLabels: {app: web}}}`,
    `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: pdb2, namespace: ${ns}}\nspec: {maxUnavailable: 1}`,
    `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: hpa, namespace: ${ns}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}
  - {type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 500Mi}}}
  - {type: Pods, pods: {metric: {name: qps}, target: {type: AverageValue, averageValue: "1k"}}}
  - {type: Object, object: {metric: {name: hits}, describedObject: {apiVersion: networking.k8s.io/v1, kind: Ingress, name: ing}, target: {type: Value, value: "10"}}}
  - {type: External, external: {metric: {name: queue}, target: {type: AverageValue, averageValue: "30"}}}
  - {type: ContainerResource, containerResource: {name: cpu, container: app, target: {type: Utilization, averageUtilization: 60}}}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      policies: [{type: Percent, value: 10, periodSeconds: 60}]`,
  ]);
  const patched = await server.client.patch({ group: 'batch', version: 'v1', resource: 'cronjobs', namespace: ns }, 'nightly', 'merge', {
    status: { lastScheduleTime: '2026-01-02T03:00:00Z', active: [{ kind: 'Job', name: 'nightly-1', namespace: ns }, { kind: 'Job', name: 'nightly-2', namespace: ns }] },
  }, podStatus);
  assert.ok(patched.ok, JSON.stringify(patched));
  const hpaStatus = await server.client.patch({ group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', namespace: ns }, 'hpa', 'merge', {
    status: {
      currentReplicas: 2, desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 70, averageValue: '700m' } } }],
      conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size', lastTransitionTime: '2026-01-02T03:00:00Z' }],
    },
  }, podStatus);
  assert.ok(hpaStatus.ok, JSON.stringify(hpaStatus));
  // Events long past, so that their ages read alike whenever each client prints them
  const pod = await uidOf(server, core('pods'), 'web-abc-1');
  const nodeUid = await uidOf(server, nodes, 'n1');
  const event = (name: string, namespace: string, involved: string, rest: string): string => `apiVersion: v1\nkind: Event\nmetadata: {name: ${name}, namespace: ${namespace}}\ninvolvedObject: {${involved}}\n${rest}`;
  await create(server, 'events', [
    event('e1', ns, `kind: Pod, namespace: ${ns}, name: web-abc-1, uid: ${pod}`, `reason: Scheduled\nmessage: "Successfully assigned ${ns}/web-abc-1 to n1  "\ntype: Normal\nsource: {component: default-scheduler}\nfirstTimestamp: "${ago(4 * day)}"\nlastTimestamp: "${ago(4 * day)}"\ncount: 1`),
    event('e2', ns, `kind: Pod, namespace: ${ns}, name: web-abc-1, uid: ${pod}`, `reason: BackOff\nmessage: Back-off restarting failed container\ntype: Warning\nsource: {component: kubelet, host: n1}\nfirstTimestamp: "${ago(10 * day)}"\nlastTimestamp: "${ago(3 * day + 1800_000)}"\ncount: 7`),
    event('e3', 'default', 'kind: Node, name: n1, uid: n1', `reason: NodeReady\nmessage: Node n1 status is now NodeReady\ntype: Normal\nsource: {component: kubelet}\nfirstTimestamp: "${ago(3 * day)}"\nlastTimestamp: "${ago(3 * day)}"`),
    event('e4', 'default', `kind: Node, name: n1, uid: ${nodeUid}`, `reason: RegisteredNode\nmessage: Node n1 event\ntype: Normal\neventTime: "${ago(10 * day).replace('Z', '.000000Z')}"\nreportingComponent: node-controller\nreportingInstance: cm-1\naction: Register\nseries: {count: 3, lastObservedTime: "${ago(4 * day).replace('Z', '.000000Z')}"}`),
  ]);
  // the quota controller fills the quota's status: wait until it has, so that both clients read the same
  for (let i = 0; i < 100; i++) {
    const quota = await server.client.get(core('resourcequotas'), 'q2');
    if (quota.ok && (quota.value as KubeObject & { status?: { used?: unknown } }).status?.used !== undefined) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  [svc, k8s] = await Promise.all([startTestServer(), startTestServer({ flavour: 'k8s' })]);
  await Promise.all([seed(svc), seed(k8s)]);
});
after(async () => {
  await Promise.all([svc?.stop(), k8s?.stop()]);
});

test('the svc flavour reads its own names: node roles, the node lease namespace, storage class annotations', async () => {
  const node = await svcctl(svc, ['describe', 'node', 'n1']);
  assert.equal(node.code, 0, node.err);
  assert.match(node.out, /^Roles: +control-plane\n/m);
  assert.match(node.out, /\nLease:\n  HolderIdentity:  n1\n  AcquireTime:     <unset>\n  RenewTime:       Fri, 02 Jan 2026 03:04:05 [+-]\d{4}\n/);
  assert.match(node.out, /\n  wl +web-abc-1 +200m \(5%\) +500m \(13%\) +64Mi \(0%\) +128Mi \(1%\) +\d+s\n  wl +web-abc-2 +1 \(26%\) +1 \(26%\) +1Gi \(14%\) +1Gi \(14%\) +\d+s\n/);
  assert.match(node.out, /\n  cpu +1200m \(31%\) +1500m \(39%\)\n  memory +1088Mi \(15%\) +1152Mi \(16%\)\n  ephemeral-storage +0 \(0%\) +0 \(0%\)\n  hugepages-2Mi +0 \(0%\) +0 \(0%\)\n  example\.com\/gpu +0 +0\n/);
  assert.match(node.out, /\n  Normal +RegisteredNode +4d \(x3 over 10d\) +node-controller +Node n1 event\n  Normal +NodeReady +3d +kubelet +Node n1 status is now NodeReady\n$/);
  const pvc = await svcctl(svc, ['-n', 'wl', 'describe', 'pvc', 'claim2']);
  assert.match(pvc.out, /^StorageClass: +slow\n/m);
  const pod = await svcctl(svc, ['-n', 'wl', 'describe', 'pod', 'web-abc-1']);
  assert.match(pod.out, /\n      PASSWORD: +<set to the key 'password' in secret 's1'> +Optional: true\n/);
  assert.doesNotMatch(pod.out, /xyz/, 'secret values are never read');
  assert.match(pod.out, /\n      \/var\/run\/secrets\/svc\.io\/serviceaccount from kube-api-access-\w+ \(ro\)\n/);
  assert.match(pod.out, /\n  Warning +BackOff +3d \(x7 over 10d\) +kubelet +Back-off restarting failed container\n$/);
  const deployment = await svcctl(svc, ['-n', 'wl', 'describe', 'deploy', 'web']);
  assert.match(deployment.out, /\nOldReplicaSets: +web-old \(0\/1 replicas created\)\nNewReplicaSet: +web-abc \(0\/2 replicas created\)\n/);
  const rs = await svcctl(svc, ['-n', 'wl', 'describe', 'rs', 'web-abc']);
  assert.match(rs.out, /\nPods Status: +1 Running \/ 1 Waiting \/ 0 Succeeded \/ 0 Failed\n/);
  const ingress = await svcctl(svc, ['-n', 'wl', 'describe', 'ingress', 'ing']);
  assert.match(ingress.out, /\n +\/api +missing:80 \(<error: endpoints "missing" not found>\)\n/);
  const cronJob = await svcctl(svc, ['-n', 'wl', 'describe', 'cronjob', 'nightly']);
  assert.match(cronJob.out, /\nActive Jobs: +nightly-1, nightly-2\n/);
});

test('describe prints what kubectl 1.27 prints for the workload, node, storage, network and policy kinds', { skip: kubectl === undefined ? 'kubectl 1.27 is not installed' : false }, async () => {
  // the node's Pods table ends each row with the Pod's age, which may tick between the two runs
  const podAges = (text: string): string => text.replace(/^( {2}\S+ +\S+ +\S+ \(-?\d+%\) +.*) [0-9smhd]+$/gm, "$1 <age>");
  const cases = [
    ['describe', 'deploy', 'web'], ['describe', 'rs'], ['describe', 'pod', 'web-abc-1'], ['describe', 'pods', 'web-abc-2', 'done'],
    ['describe', 'sts', 'db'], ['describe', 'ds', 'agent'], ['describe', 'job', 'once'], ['describe', 'cronjob', 'nightly'],
    ['describe', 'pvc'], ['describe', 'pv'], ['describe', 'ingress'], ['describe', 'svc', 'web'], ['describe', 'quota', 'q2'],
    ['describe', 'limitrange', 'lr'], ['describe', 'pdb'], ['describe', 'hpa', 'hpa'], ['describe', 'ns', ns], ['describe', 'node', 'n1'],
    ['describe', 'deploy,rs', 'web'], ['describe', 'pdb,hpa'], ['describe', 'pod', 'web-abc'],
  ];
  for (const argv of cases) {
    const full = ['-n', ns, ...argv];
    const theirs = await runKubectl(kubectl!, k8s.kubeconfigPath, dir, full);
    const ours = await svcctl(k8s, full);
    assert.deepEqual([ours.code, podAges(ours.out), ours.err], [theirs.code, podAges(theirs.stdout), theirs.stderr], full.join(' '));
  }
});
