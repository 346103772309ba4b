/**
 * Pod spec cases compared rule by rule with kube-apiserver 1.27's ValidatePodSpec, ValidatePodCreate,
 * ValidatePodUpdate, ValidatePodStatusUpdate and the ephemeral containers update, with kube's field paths where they
 * are not the JSON's (a downward API volume's items, a mount's `subPath`, `envFrom` without source), canonical
 * quantities, and the pod templates of PodTemplates and ReplicationControllers.
 */
import type { Names } from '@svc-apiserver/api';
import { core, created, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';

const container = { name: 'app', image: 'nginx:1.25' };

/** The pod spec corpus in a flavour. */
export function corePodCases(names: Names): ParityCase[] {
  const pods = core('pods', 'Pod');
  const podTemplates = core('podtemplates', 'PodTemplate');
  const rcs = core('replicationcontrollers', 'ReplicationController');
  const mirror = names.domain('config.mirror');
  const deletionCost = names.domain('pod-deletion-cost', 'controller');
  return [
    rejectedCreate('Pod: volume sources (relative NFS path, GCE partition under persistentDisk, key path with .., volume downward API field)', pods, {
      spec: {
        containers: [container],
        volumes: [
          { name: 'n', nfs: { server: 'nfs.example.com', path: 'relative' } },
          { name: 'g', gcePersistentDisk: { pdName: 'disk', partition: 300 } },
          { name: 'c', configMap: { name: 'cm', items: [{ key: 'k', path: '../x' }] } },
          { name: 'd', downwardAPI: { items: [{ path: 'f', fieldRef: { fieldPath: 'spec.nodeName' } }] } },
        ],
      },
    }, ['spec.volumes[0].nfs.path', 'spec.volumes[1].persistentDisk.partition', 'spec.volumes[2].configMap.items[0].path', 'spec.volumes[3].downwardAPI.fieldRef.fieldPath'],
    ['must be an absolute path', "must not contain '..'", 'supported values: "metadata.annotations"']),
    rejectedCreate('Pod: containers (env field path, envFrom without source, absolute subPath, readiness grace period, empty preStop, host port clash)', pods, {
      spec: {
        volumes: [{ name: 'v', emptyDir: {} }],
        containers: [
          {
            ...container, env: [{ name: 'L', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } }], envFrom: [{ prefix: 'P_' }],
            volumeMounts: [{ name: 'v', mountPath: '/m', subPath: '/abs' }], ports: [{ containerPort: 80, hostPort: 8080 }],
            readinessProbe: { tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 5 }, lifecycle: { preStop: {} },
          },
          { name: 'b', image: 'busybox', ports: [{ containerPort: 81, hostPort: 8080 }] },
        ],
      },
    }, [
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath', 'spec.containers[0].envFrom', 'spec.containers[0].volumeMounts.subPath',
      'spec.containers[0].readinessProbe.terminationGracePeriodSeconds', 'spec.containers[0].lifecycle.preStop', 'spec.containers[1].ports[0].hostPort',
    ], ['must specify one of: `configMapRef` or `secretRef`', 'must not be set for readinessProbes', 'Duplicate value: "TCP//8080"']),
    rejectedCreate('Pod: scheduling (no node selector terms, empty topology key, spread skew and action, DNS policy None, host alias IP)', pods, {
      spec: {
        containers: [container], dnsPolicy: 'None', hostAliases: [{ ip: 'nope', hostnames: ['db'] }],
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
          podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { a: 'b' } }, topologyKey: '' }] },
        },
        topologySpreadConstraints: [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'Never', labelSelector: { matchLabels: { a: 'b' } } }],
      },
    }, [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
      // Required, and the empty label name's own two errors (IsQualifiedName: empty, and unmatched by the pattern).
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey',
      'spec.topologySpreadConstraints[0].maxSkew', 'spec.topologySpreadConstraints[0].whenUnsatisfiable', 'spec.dnsConfig', 'spec.hostAliases[0].ip',
    ], ['must provide `dnsConfig` when `dnsPolicy` is None']),
    rejectedCreate('Pod: security contexts (user ID, sysctl name, privileged without privilege escalation)', pods, {
      spec: {
        securityContext: { runAsUser: -1, sysctls: [{ name: 'Bad_Name', value: '1' }] },
        containers: [{ ...container, securityContext: { allowPrivilegeEscalation: false, privileged: true } }],
      },
    }, ['spec.securityContext.runAsUser', 'spec.securityContext.sysctls[0].name', 'spec.containers[0].securityContext'],
    ['cannot set `allowPrivilegeEscalation` to false and `privileged` to true']),
    rejectedCreate('Pod: a Windows pod may not set Linux options', pods, {
      spec: { os: { name: 'windows' }, securityContext: { seLinuxOptions: { level: 's0' } }, containers: [{ ...container, securityContext: { capabilities: { add: ['NET_ADMIN'] } } }] },
    }, ['spec.securityContext.seLinuxOptions', 'spec.containers[0].securityContext.capabilities'], ['cannot be set for a windows pod']),
    rejectedCreate('Pod: ephemeral containers only through the subresource', pods,
      { spec: { containers: [container], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] } }, ['spec.ephemeralContainers'], ['cannot be set on create']),
    rejectedCreate('Pod: huge pages in whole pages and beside cpu or memory', pods,
      { spec: { containers: [{ ...container, resources: { limits: { 'hugepages-2Mi': '3Mi' } } }] } },
      ['spec.containers[0].resources.limits[hugepages-2Mi]', 'spec.containers[0].resources.requests[hugepages-2Mi]', 'spec.containers[0].resources'],
      ['3Mi is not positive integer multiple of hugepages-2Mi', 'HugePages require cpu or memory']),
    rejectedCreate('Pod: an unknown resource name (twice each: not standard, not for containers)', pods,
      { spec: { containers: [{ ...container, resources: { limits: { foo: '1' } } }] } },
      ['spec.containers[0].resources.limits[foo]', 'spec.containers[0].resources.limits[foo]', 'spec.containers[0].resources.requests[foo]', 'spec.containers[0].resources.requests[foo]']),
    rejectedCreate('Pod: an extended resource needs its limit', pods,
      { spec: { containers: [{ ...container, resources: { requests: { 'example.com/gpu': '1' } } }] } }, ['spec.containers[0].resources.limits'], ['Limit must be set for non overcommitable resources']),
    rejectedCreate('Pod: a pod deletion cost that is no 32-bit integer', pods,
      { metadata: { annotations: { [deletionCost]: 'abc' } }, spec: { containers: [container] } }, [`metadata.annotations[${deletionCost}]`], ['must be a 32bit integer']),
    {
      name: 'Pod: quantities stored canonically, requests from limits, QoS from cpu and memory', resource: pods,
      steps: [
        {
          op: 'create', object: { spec: { containers: [{ ...container, resources: { limits: { cpu: '1000m', memory: '0.5Gi' } } }] } },
          expect: created({
            'spec.containers[0].resources.limits.cpu': '1', 'spec.containers[0].resources.limits.memory': '512Mi',
            'spec.containers[0].resources.requests.cpu': '1', 'spec.containers[0].resources.requests.memory': '512Mi', 'status.qosClass': 'Guaranteed',
          }),
        },
      ],
    },
    {
      name: 'Pod: scheduling gates (SchedulingGated condition, node selector only extended while gated, gates only removed)', resource: pods,
      steps: [
        {
          op: 'create', object: { spec: { containers: [container], nodeSelector: { a: '1' }, schedulingGates: [{ name: 'example.com/g' }] } },
          expect: created({ 'status.conditions[0].type': 'PodScheduled', 'status.conditions[0].status': 'False', 'status.conditions[0].reason': 'SchedulingGated' }),
        },
        { op: 'update', merge: { spec: { nodeSelector: { b: '2' } } }, expect: ok({ 'spec.nodeSelector.b': '2' }) },
        { op: 'update', merge: { spec: { nodeSelector: { a: '3' } } }, expect: invalid(['spec.nodeSelector'], ['only additions to spec.nodeSelector are allowed']) },
        { op: 'update', merge: { spec: { schedulingGates: [{ name: 'example.com/h' }] } }, expect: invalid(['spec.schedulingGates[0].name'], ["found new scheduling gate 'example.com/h'"]) },
      ],
    },
    rejectedCreate('Pod: a node name with scheduling gates left', pods,
      { spec: { containers: [container], nodeName: 'node-1', schedulingGates: [{ name: 'example.com/g' }] } }, ['spec.nodeName'], ['cannot be set until all schedulingGates have been cleared']),
    {
      name: 'Pod: the mirror pod annotation may not be added (and needs a node name)', resource: pods,
      steps: [
        { op: 'create', object: { spec: { containers: [container] } }, expect: created() },
        {
          op: 'update', merge: { metadata: { annotations: { [mirror]: 'x' } } },
          expect: invalid([`metadata.annotations[${mirror}]`, `metadata.annotations[${mirror}]`, `metadata.annotations[${mirror}]`], ['may not add mirror pod annotation']),
        },
      ],
    },
    {
      name: 'Pod status: custom condition types, one IP per family, owner references not written through status', resource: pods,
      steps: [
        { op: 'create', object: { spec: { containers: [container] } }, expect: created() },
        {
          op: 'update', subresource: 'status', merge: { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '6a5b0f4e-0000-4000-8000-000000000001' }] }, status: { message: 'm' } },
          expect: ok({ 'status.message': 'm' }, ['metadata.ownerReferences']),
        },
        { op: 'update', subresource: 'status', merge: { status: { conditions: [{ type: 'bad type!', status: 'True' }] } }, expect: invalid(['metadata.conditions[0].Type']) },
        { op: 'update', subresource: 'status', merge: { status: { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] } }, expect: invalid(['status.podIPs'], ['may specify no more than one IP for each IP family']) },
      ],
    },
    {
      name: 'Pod ephemeral containers: added, then may not be removed', resource: pods,
      steps: [
        { op: 'create', object: { spec: { containers: [container] } }, expect: created() },
        { op: 'patch', type: 'merge', subresource: 'ephemeralcontainers', body: { spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox' }] } }, expect: ok({ 'spec.ephemeralContainers[0].name': 'debug' }) },
        { op: 'patch', type: 'merge', subresource: 'ephemeralcontainers', body: { spec: { ephemeralContainers: [] } }, expect: invalid(['spec.ephemeralContainers'], ['existing ephemeral containers "debug" may not be removed']) },
      ],
    },
    {
      name: 'Pod: fields of 1.27 alpha gates (procMount forced to Default, status.resize dropped)', resource: pods,
      steps: [
        { op: 'create', object: { spec: { containers: [{ ...container, securityContext: { procMount: 'Unmasked' } }] } }, expect: created({ 'spec.containers[0].securityContext.procMount': 'Default' }) },
        { op: 'update', subresource: 'status', merge: { status: { resize: 'InProgress', message: 'm' } }, expect: ok({ 'status.message': 'm' }, ['status.resize']) },
      ],
    },
    rejectedCreate('PodTemplate: template labels are reported at template.labels', podTemplates,
      { template: { metadata: { labels: { 'bad key!': 'x' } }, spec: { containers: [container] } } }, ['template.labels']),
    rejectedCreate('ReplicationController: restarts Always, no activeDeadlineSeconds', rcs, {
      spec: { selector: { app: 'r' }, template: { metadata: { labels: { app: 'r' } }, spec: { containers: [container], restartPolicy: 'OnFailure', activeDeadlineSeconds: 10 } } },
    }, ['spec.template.spec.restartPolicy', 'spec.template.spec.activeDeadlineSeconds'], ['supported values: "Always"', 'activeDeadlineSeconds in ReplicationController is not Supported']),
    {
      name: 'ReplicationController status: ready replicas not above replicas', resource: rcs,
      steps: [
        { op: 'create', object: { spec: { selector: { app: 'r' }, template: { metadata: { labels: { app: 'r' } }, spec: { containers: [container] } } } }, expect: created() },
        { op: 'update', subresource: 'status', merge: { status: { replicas: 1, readyReplicas: 2 } }, expect: invalid(['status.readyReplicas'], ['cannot be greater than status.replicas']) },
      ],
    },
  ];
}
