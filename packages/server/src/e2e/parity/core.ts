/**
 * Core group (`v1`) cases: ConfigMaps, Secrets of every built-in type, Pods (defaults, update rules, resources),
 * Services, Namespaces, PersistentVolumes and Claims, ServiceAccounts, Nodes, Endpoints, LimitRanges,
 * ResourceQuotas, PodTemplates, ReplicationControllers and Events.
 */
import type { Names } from '@svc-apiserver/api';
import { core, created, invalid, lifecycle, ok, rejectedCreate, type ParityCase } from './corpus.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const container = { name: 'app', image: 'nginx:1.25' };
const podSpec = { containers: [container] };
const template = { metadata: { labels: { app: 'p' } }, spec: podSpec };
/** NodeSystemInfo as kube answers it when nothing was reported: every field, empty. */
const emptyNodeInfo = {
  machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '',
  kubeProxyVersion: '', operatingSystem: '', architecture: '',
};

/** The core group's corpus in a flavour. */
export function coreCases(names: Names): ParityCase[] {
  const configmaps = core('configmaps', 'ConfigMap');
  const secrets = core('secrets', 'Secret');
  const pods = core('pods', 'Pod');
  const services = core('services', 'Service');
  const namespaces = core('namespaces', 'Namespace', false);
  const pvs = core('persistentvolumes', 'PersistentVolume', false);
  const pvcs = core('persistentvolumeclaims', 'PersistentVolumeClaim');
  const tls = names.domain('tls');
  const claimSpec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
  const pvSpec = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/srv/pv' } };
  return [
    // ConfigMaps
    lifecycle('ConfigMap: immutable data', configmaps, { data: { a: '1' }, immutable: true },
      { merge: { metadata: { labels: { l: 'v' } } } }, { merge: { data: { a: '2' } }, causes: ['data'], message: ['field is immutable when `immutable` is set'] }),
    lifecycle('ConfigMap: immutable may not be unset', configmaps, { data: { a: '1' }, immutable: true },
      { merge: { metadata: { annotations: { n: 'v' } } } }, { merge: { immutable: false }, causes: ['immutable'] }),
    lifecycle('ConfigMap: keys are config keys', configmaps, { data: { 'a.b_c-D': '1' } },
      { merge: { data: { other: '2' } } }, { merge: { data: { 'bad key': 'x' } }, causes: ['data[bad key]'] }),
    {
      name: 'ConfigMap: managedFields [{}] with another change strips every manager; another applier meets no conflict', resource: configmaps,
      steps: [
        { op: 'patch', type: 'apply', query: 'fieldManager=first', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reset-with-change' }, data: { k: 'v' } }, expect: created() },
        { op: 'create', object: { metadata: { name: 'reset-with-change' } }, expect: { code: 409, reason: 'AlreadyExists' } },
        { op: 'patch', type: 'merge', query: 'fieldManager=resetter', body: { metadata: { managedFields: [{}], labels: { l: 'v' } } }, expect: ok({ 'metadata.managedFields[0].manager': 'resetter' }, ['metadata.managedFields[1]']) },
        { op: 'patch', type: 'apply', query: 'fieldManager=second', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reset-with-change' }, data: { k: 'w' } }, expect: ok({ 'data.k': 'w' }) },
      ],
    },
    {
      name: 'ConfigMap: managedFields [{}] alone strips them; the next apply finds the fields with before-first-apply, as kube does', resource: configmaps,
      steps: [
        { op: 'patch', type: 'apply', query: 'fieldManager=first', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reset-alone' }, data: { k: 'v' } }, expect: created() },
        { op: 'patch', type: 'merge', body: { metadata: { managedFields: [{}] } }, expect: ok({}, ['metadata.managedFields']) },
        { op: 'patch', type: 'apply', query: 'fieldManager=second', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reset-alone' }, data: { k: 'v' } }, expect: ok({ 'data.k': 'v' }) },
        { op: 'patch', type: 'apply', query: 'fieldManager=third', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reset-alone' }, data: { k: 'w' } }, expect: { code: 409, reason: 'Conflict', message: ['conflicts with "before-first-apply" using v1', 'conflicts with "second"'] } },
      ],
    },
    rejectedCreate('ConfigMap: a key in both data and binaryData', configmaps, { data: { k: 'v' }, binaryData: { k: b64('v') } }, ['data[k]'], ['duplicate of key present in binaryData']),

    // Secrets
    lifecycle('Secret: Opaque by default, type immutable', secrets, { stringData: { user: 'admin' } },
      { merge: { data: { pass: b64('x') } } }, { merge: { type: tls }, causes: ['type', 'data[tls.crt]', 'data[tls.key]'], message: ['field is immutable'] },
      { type: 'Opaque', 'data.user': b64('admin') }),
    lifecycle('Secret: immutable data', secrets, { data: { k: b64('v') }, immutable: true },
      { merge: { metadata: { labels: { l: 'v' } } } }, { merge: { data: { k: b64('w') } }, causes: ['data'] }),
    rejectedCreate('Secret: tls without tls.key', secrets, { type: tls, data: { 'tls.crt': b64('cert') } }, ['data[tls.key]']),
    rejectedCreate('Secret: tls with empty data', secrets, { type: tls, data: {} }, ['data[tls.crt]', 'data[tls.key]']),
    {
      name: 'Secret: tls with both keys, then one removed', resource: secrets,
      steps: [
        { op: 'create', object: { type: tls, data: { 'tls.crt': b64('c'), 'tls.key': b64('k') } }, expect: created() },
        { op: 'patch', type: 'merge', body: { data: { 'tls.key': null } }, expect: invalid(['data[tls.key]']) },
      ],
    },
    rejectedCreate('Secret: basic-auth with neither username nor password', secrets, { type: names.domain('basic-auth'), data: { other: b64('x') } }, ['data[username]', 'data[password]']),
    { name: 'Secret: basic-auth with a username only', resource: secrets, steps: [{ op: 'create', object: { type: names.domain('basic-auth'), stringData: { username: 'u' } }, expect: created() }] },
    rejectedCreate('Secret: ssh-auth without a private key', secrets, { type: names.domain('ssh-auth'), data: {} }, ['data[ssh-privatekey]']),
    rejectedCreate('Secret: dockerconfigjson that is not JSON', secrets, { type: names.domain('dockerconfigjson'), stringData: { '.dockerconfigjson': 'nope' } }, ['data[.dockerconfigjson]'], ["invalid character 'o' in literal null (expecting 'u')"]),
    rejectedCreate('Secret: dockercfg missing', secrets, { type: names.domain('dockercfg'), data: {} }, ['data[.dockercfg]']),
    { name: 'Secret: dockerconfigjson object', resource: secrets, steps: [{ op: 'create', object: { type: names.domain('dockerconfigjson'), stringData: { '.dockerconfigjson': '{"auths":{}}' } }, expect: created() }] },
    rejectedCreate('Secret: service account token without its account', secrets, { type: names.domain('service-account-token') }, [`metadata.annotations[${names.domain('service-account.name')}]`]),

    // Pods
    {
      name: 'Pod: defaults, replace of what was read, image update', resource: pods,
      steps: [
        {
          op: 'create', object: { spec: podSpec },
          expect: created({
            'spec.restartPolicy': 'Always', 'spec.dnsPolicy': 'ClusterFirst', 'spec.terminationGracePeriodSeconds': 30,
            'spec.enableServiceLinks': true, 'spec.schedulerName': 'default-scheduler', 'spec.containers[0].imagePullPolicy': 'IfNotPresent',
            'spec.containers[0].terminationMessagePolicy': 'File', 'status.phase': 'Pending', 'status.qosClass': 'BestEffort',
          }),
        },
        { op: 'update', merge: { metadata: { labels: { a: 'c' } } }, expect: ok({ 'metadata.labels.a': 'c' }) },
        { op: 'patch', type: 'json', body: [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.26' }], expect: ok({ 'spec.containers[0].image': 'nginx:1.26' }) },
        { op: 'update', merge: { spec: { hostname: 'other' } }, expect: invalid(['spec'], ['pod updates may not change fields other than `spec.containers[*].image`']) },
        { op: 'update', merge: { spec: { containers: [{ ...container, image: 'nginx:1.26' }, { name: 'b', image: 'b' }] } }, expect: invalid(['spec.containers'], ['pod updates may not add or remove containers']) },
      ],
    },
    {
      name: 'Pod: requests default to limits; QoS follows', resource: pods,
      steps: [{
        op: 'create', object: { spec: { containers: [{ ...container, resources: { limits: { cpu: '500m' } } }] } },
        expect: created({ 'spec.containers[0].resources.requests.cpu': '500m', 'status.qosClass': 'Burstable' }),
      }],
    },
    {
      name: 'Pod: guaranteed when limits give every request', resource: pods,
      steps: [{
        op: 'create', object: { spec: { containers: [{ ...container, resources: { limits: { cpu: '1', memory: '1Gi' } } }] } },
        expect: created({ 'spec.containers[0].resources.requests.memory': '1Gi', 'status.qosClass': 'Guaranteed' }),
      }],
    },
    {
      name: 'Pod: warnings for deprecated node labels, annotations, duplicate env names and fractional bytes', resource: pods,
      steps: [{
        op: 'create',
        object: {
          metadata: { annotations: { [names.domain('critical-pod', 'scheduler.alpha')]: '' } },
          spec: {
            nodeSelector: { [names.domain('os', 'beta')]: 'linux' },
            containers: [{ ...container, env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], resources: { requests: { memory: '1.5' } } }],
          },
        },
        expect: {
          code: 201,
          warnings: [
            `spec.nodeSelector[${names.domain('os', 'beta')}]: deprecated since v1.14; use "${names.domain('os')}" instead`,
            `metadata.annotations[${names.domain('critical-pod', 'scheduler.alpha')}]: non-functional in v1.16+; use the "priorityClassName" field instead`,
            'spec.containers[0].env[1].name: duplicate name "A"',
            // kube prints the quantity as it stores it: canonical, `1.5` as `1500m`.
            'spec.containers[0].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer',
          ],
        },
      }],
    },
    rejectedCreate('Pod: a mount of a volume the pod lacks, a bad env name, a probe without handler', pods, {
      spec: { containers: [{ ...container, volumeMounts: [{ name: 'missing', mountPath: '/data' }], env: [{ name: '1BAD', value: 'x' }], livenessProbe: { periodSeconds: 5 } }] },
    }, ['spec.containers[0].volumeMounts[0].name', 'spec.containers[0].env[0].name', 'spec.containers[0].livenessProbe'], ['Not found: "missing"', 'must specify a handler type']),
    rejectedCreate('Pod: volumes with two sources or none, tolerations with a value and Exists', pods, {
      spec: {
        containers: [container],
        volumes: [{ name: 'a', emptyDir: {}, hostPath: { path: '/x' } }, { name: 'a', secret: {} }],
        tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }],
      },
    // The first volume is invalid, so its name is not taken: the second `a` is no duplicate (ValidateVolumes).
    }, ['spec.volumes[0].hostPath', 'spec.volumes[1].secret.secretName', 'spec.tolerations[0].operator']),
    rejectedCreate('Pod: hostname, node name and deadline', pods, { spec: { ...podSpec, hostname: 'Not_A_Label', nodeName: 'bad node', activeDeadlineSeconds: 0 } },
      ['spec.hostname', 'spec.nodeName', 'spec.activeDeadlineSeconds']),
    {
      name: 'Pod status: podIPs mirrored from podIP, valid IPs only, node name not changed through status', resource: pods,
      steps: [
        { op: 'create', object: { spec: podSpec }, expect: created() },
        { op: 'update', subresource: 'status', merge: { status: { podIP: '10.4.0.7' } }, expect: ok({ 'status.podIPs': [{ ip: '10.4.0.7' }], 'status.podIP': '10.4.0.7' }) },
        { op: 'update', subresource: 'status', merge: { status: { podIP: null, podIPs: [{ ip: 'nope' }] } }, expect: invalid(['status.podIPs[0]']) },
      ],
    },
    {
      name: 'Pod ephemeral containers: added through the subresource, existing ones fixed, no ports or resources', resource: pods,
      steps: [
        { op: 'create', object: { spec: podSpec }, expect: created() },
        {
          op: 'patch', type: 'strategic', subresource: 'ephemeralcontainers',
          body: { spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'app' }] } },
          expect: ok({ 'spec.ephemeralContainers[0].imagePullPolicy': 'Always', 'spec.ephemeralContainers[0].terminationMessagePolicy': 'File' }),
        },
        {
          op: 'patch', type: 'strategic', subresource: 'ephemeralcontainers',
          body: { spec: { ephemeralContainers: [{ name: 'more', image: 'busybox', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } }, targetContainerName: 'nobody' }] } },
          // A strategic merge patch puts items new to the list first (upstream's mergeSortedSlice).
          expect: invalid(['spec.ephemeralContainers[0].ports', 'spec.ephemeralContainers[0].resources', 'spec.ephemeralContainers[0].targetContainerName']),
        },
      ],
    },
    {
      name: 'Pod: fields of alpha features off in 1.27 are dropped (resizePolicy, resourceClaims, hostUsers)', resource: pods,
      steps: [{
        op: 'create',
        object: { spec: { hostUsers: false, resourceClaims: [{ name: 'c', source: { resourceClaimName: 'x' } }], containers: [{ ...container, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }] } },
        expect: created({}, ['spec.hostUsers', 'spec.resourceClaims', 'spec.containers[0].resizePolicy']),
      }],
    },
    rejectedCreate('Pod: a request above its limit', pods, { spec: { containers: [{ ...container, resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] } },
      ['spec.containers[0].resources.requests'], ['must be less than or equal to cpu limit of 1']),
    rejectedCreate('Pod: a negative quantity', pods, { spec: { containers: [{ ...container, resources: { requests: { memory: '-1' } } }] } },
      ['spec.containers[0].resources.requests[memory]']),
    rejectedCreate('Pod: no containers', pods, { spec: { containers: [] } }, ['spec.containers']),
    rejectedCreate('Pod: duplicate container names, bad restart policy', pods, { spec: { restartPolicy: 'Sometimes', containers: [container, container] } },
      ['spec.containers[1].name', 'spec.restartPolicy']),
    {
      name: 'Pod: activeDeadlineSeconds may only be set or lowered; tolerations only added', resource: pods,
      steps: [
        { op: 'create', object: { spec: { ...podSpec, activeDeadlineSeconds: 100, tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }] } }, expect: created() },
        { op: 'update', merge: { spec: { activeDeadlineSeconds: 50 } }, expect: ok({ 'spec.activeDeadlineSeconds': 50 }) },
        { op: 'update', merge: { spec: { activeDeadlineSeconds: 60 } }, expect: invalid(['spec.activeDeadlineSeconds'], ['must be less than or equal to previous value']) },
        { op: 'update', merge: { spec: { tolerations: [] } }, expect: invalid(['spec.tolerations'], ['existing toleration can not be modified except its tolerationSeconds']) },
      ],
    },

    // Services
    {
      name: 'Service: defaults, selector update, cluster IP fixed', resource: services,
      steps: [
        {
          op: 'create', object: { spec: { selector: { app: 'p' }, ports: [{ port: 80 }] } },
          expect: created({ 'spec.type': 'ClusterIP', 'spec.sessionAffinity': 'None', 'spec.ports[0].protocol': 'TCP', 'spec.ports[0].targetPort': 80, 'spec.internalTrafficPolicy': 'Cluster' }),
        },
        { op: 'update', merge: { spec: { selector: { app: 'q' } } }, expect: ok({ 'spec.selector.app': 'q' }) },
        // The range's network address is never allocated, so this is a change whatever address the Service got.
        { op: 'update', merge: { spec: { clusterIP: '10.0.0.0', clusterIPs: ['10.0.0.0'] } }, expect: invalid(['spec.clusterIPs[0]'], ['may not change once set']) },
      ],
    },
    {
      name: 'Service: NodePort to ClusterIP wipes the node ports it allocated; ClusterIP to ExternalName its cluster IPs', resource: services,
      steps: [
        { op: 'create', object: { spec: { type: 'NodePort', ports: [{ port: 80 }] } }, expect: created({ 'spec.externalTrafficPolicy': 'Cluster' }) },
        { op: 'update', merge: { spec: { type: 'ClusterIP' } }, expect: ok({ 'spec.type': 'ClusterIP' }, ['spec.ports[0].nodePort', 'spec.externalTrafficPolicy']) },
        { op: 'update', merge: { spec: { type: 'ExternalName', externalName: 'db.example.com' } }, expect: ok({ 'spec.type': 'ExternalName' }, ['spec.clusterIP', 'spec.clusterIPs', 'spec.ipFamilies']) },
        { op: 'update', merge: { spec: { externalName: 'not a name' } }, expect: invalid(['spec.externalName']) },
      ],
    },
    {
      name: 'Service: a headless Service without a selector asks for dual stack; with one, single stack', resource: services,
      steps: [
        { op: 'create', object: { metadata: { name: 'headless-bare' }, spec: { clusterIP: 'None', ports: [{ port: 80 }] } }, expect: created({ 'spec.ipFamilyPolicy': 'RequireDualStack', 'spec.ipFamilies': ['IPv4'] }) },
        { op: 'update', merge: { spec: { selector: { app: 'h' } } }, expect: ok({ 'spec.ipFamilyPolicy': 'RequireDualStack' }) },
      ],
    },
    rejectedCreate('Service: the same port and protocol twice', services, { spec: { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] } }, ['spec.ports[1]']),
    // SetDefaults_Service drops the affinity config of a Service without ClientIP affinity before validation.
    rejectedCreate('Service: two ports, one unnamed; session affinity config without ClientIP is dropped', services,
      { spec: { ports: [{ port: 80 }, { name: 'b', port: 81 }], sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } } },
      ['spec.ports[0].name']),
    rejectedCreate('Service: ClusterIP without ports', services, { spec: { selector: { app: 'p' } } }, ['spec.ports']),
    rejectedCreate('Service: unknown traffic and IP family policies', services,
      { spec: { ports: [{ port: 80 }], internalTrafficPolicy: 'Nearby', ipFamilyPolicy: 'TripleStack' } }, ['spec.internalTrafficPolicy', 'spec.ipFamilyPolicy']),
    rejectedCreate('Service: unknown type', services, { spec: { type: 'Magic', ports: [{ port: 80 }] } }, ['spec.type']),

    // Namespaces
    lifecycle('Namespace: finalizer, phase and name label', namespaces, {},
      { merge: { metadata: { labels: { team: 'a' } } } }, { merge: { metadata: { labels: { 'bad key!': 'x' } } }, causes: ['metadata.labels'] },
      { 'spec.finalizers': [names.name('namespaceFinalizer')], 'status.phase': 'Active' }),

    // PersistentVolumeClaims
    lifecycle('PersistentVolumeClaim: spec immutable while pending', pvcs, { spec: claimSpec },
      { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { spec: { resources: { requests: { storage: '2Gi' } } } }, causes: ['spec'], message: ['spec is immutable after creation except resources.requests for bound claims'] },
      { 'spec.volumeMode': 'Filesystem', 'status.phase': 'Pending' }),
    {
      name: 'PersistentVolumeClaim: merge patch of the storage request of a pending claim', resource: pvcs,
      steps: [
        { op: 'create', object: { spec: claimSpec }, expect: created() },
        { op: 'patch', type: 'merge', body: { spec: { resources: { requests: { storage: '5Gi' } } } }, expect: invalid(['spec']) },
        { op: 'patch', type: 'merge', body: { spec: { volumeName: 'pv-1' } }, expect: ok({ 'spec.volumeName': 'pv-1' }) },
        { op: 'patch', type: 'merge', body: { spec: { volumeName: 'pv-2' } }, expect: invalid(['spec']) },
      ],
    },
    rejectedCreate('PersistentVolumeClaim: no access modes, no storage', pvcs, { spec: { resources: {} } }, ['spec.accessModes', 'spec.resources[storage]']),
    rejectedCreate('PersistentVolumeClaim: ReadWriteOncePod with another mode', pvcs, { spec: { ...claimSpec, accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] } }, ['spec.accessModes']),
    rejectedCreate('PersistentVolumeClaim: zero storage', pvcs, { spec: { ...claimSpec, resources: { requests: { storage: '0' } } } }, ['spec.resources[storage]'], ['must be greater than zero']),

    // PersistentVolumes
    lifecycle('PersistentVolume: reclaim policy changes, source fixed', pvs, { spec: pvSpec },
      { merge: { spec: { persistentVolumeReclaimPolicy: 'Delete' } }, expect: ok({ 'spec.persistentVolumeReclaimPolicy': 'Delete' }) },
      { merge: { spec: { hostPath: { path: '/other' } } }, causes: ['spec.persistentvolumesource'] },
      { 'spec.persistentVolumeReclaimPolicy': 'Retain', 'spec.volumeMode': 'Filesystem', 'status.phase': 'Pending' }),
    rejectedCreate('PersistentVolume: no volume type', pvs, { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } }, ['spec'], ['must specify a volume type']),
    rejectedCreate('PersistentVolume: bad reclaim policy', pvs, { spec: { ...pvSpec, persistentVolumeReclaimPolicy: 'Keep' } }, ['spec.persistentVolumeReclaimPolicy']),

    // ServiceAccounts
    lifecycle('ServiceAccount', core('serviceaccounts', 'ServiceAccount'), {},
      { merge: { automountServiceAccountToken: false } }, { merge: { metadata: { annotations: { '': 'x' } } }, causes: ['metadata.annotations', 'metadata.annotations'], message: ['name part must be non-empty', 'name part must consist of'] }),

    rejectedCreate('ServiceAccount: the name is a DNS subdomain', core('serviceaccounts', 'ServiceAccount'), { metadata: { name: 'Robot_1' } },
      ['metadata.name'], ['a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters']),

    // PodTemplates
    lifecycle('PodTemplate: the template is a pod spec', core('podtemplates', 'PodTemplate'), { template },
      { merge: { template: { spec: { containers: [{ ...container, image: 'nginx:2' }] } } }, expect: ok({ 'metadata.generation': 2 }) },
      { merge: { template: { spec: { containers: [{ ...container, image: '' }] } } }, causes: ['template.spec.containers[0].image'] },
      { 'template.spec.restartPolicy': 'Always', 'template.spec.dnsPolicy': 'ClusterFirst', 'metadata.generation': 1 }),

    // ReplicationControllers
    lifecycle('ReplicationController: replicas and selector', core('replicationcontrollers', 'ReplicationController'), { spec: { selector: { app: 'p' }, template } },
      { merge: { spec: { replicas: 3 } }, expect: ok({ 'spec.replicas': 3, 'metadata.generation': 2 }) },
      { merge: { spec: { replicas: -1 } }, causes: ['spec.replicas'] },
      { 'spec.replicas': 1, 'metadata.generation': 1 }),
    rejectedCreate('ReplicationController: selector not matching the template', core('replicationcontrollers', 'ReplicationController'),
      { spec: { selector: { app: 'other' }, template } }, ['spec.template.metadata.labels'], ['`selector` does not match template `labels`']),

    // Nodes
    lifecycle('Node: taints', core('nodes', 'Node', false), { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } },
      { merge: { spec: { unschedulable: true } } },
      // ValidateNodeUpdate reports taints under `metadata`.
      { merge: { spec: { taints: [{ key: 'k', value: 'v', effect: 'Sometimes' }] } }, causes: ['metadata.taints[0].effect'] }),
    lifecycle('Node: podCIDRs mirrored from podCIDR, then fixed', core('nodes', 'Node', false), { spec: { podCIDR: '10.244.1.0/24' } },
      { merge: { spec: { unschedulable: true } }, expect: ok({ 'spec.podCIDRs': ['10.244.1.0/24'] }) },
      { merge: { spec: { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] } }, causes: ['spec.podCIDRs'] },
      { 'spec.podCIDRs': ['10.244.1.0/24'] }),
    {
      // The Go structs of NodeStatus never omit the kubelet endpoint's Port or a nodeInfo field.
      name: 'Node: answered with kube\'s zero status; the status a node reports is kept and completed, allocatable from capacity',
      resource: core('nodes', 'Node', false),
      steps: [
        { op: 'create', object: { metadata: { labels: { zone: 'a' } } }, expect: created({ status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: emptyNodeInfo } }) },
        {
          op: 'patch', type: 'merge', subresource: 'status', body: { status: { capacity: { cpu: '2', pods: '110' }, daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } } },
          expect: ok({ 'status.allocatable': { cpu: '2', pods: '110' }, 'status.daemonEndpoints.kubeletEndpoint.Port': 10250, 'status.nodeInfo': emptyNodeInfo }),
        },
        { op: 'update', merge: { metadata: { labels: { zone: 'b' } }, status: { capacity: { cpu: '8' } } }, expect: ok({ 'status.capacity': { cpu: '2', pods: '110' }, 'metadata.labels.zone': 'b' }) },
        { op: 'patch', type: 'merge', subresource: 'status', body: { spec: { taints: [{ key: 'k', effect: 'Sometimes' }] }, status: { capacity: { cpu: '4' } } }, expect: ok({ 'status.capacity.cpu': '4', 'spec.taints[0].effect': 'NoSchedule' }) },
      ],
    },
    {
      name: 'Node: a create keeps the status reported, allocatable defaulted from capacity unless given',
      resource: core('nodes', 'Node', false),
      steps: [
        {
          op: 'create', object: { status: { capacity: { cpu: '4', memory: '8Gi' }, nodeInfo: { ...emptyNodeInfo, kubeletVersion: 'v1.27.3', architecture: 'amd64' } } },
          expect: created({ 'status.allocatable': { cpu: '4', memory: '8Gi' }, 'status.nodeInfo.kubeletVersion': 'v1.27.3', 'status.nodeInfo.osImage': '', 'status.daemonEndpoints': { kubeletEndpoint: { Port: 0 } } }),
        },
        { op: 'patch', type: 'merge', subresource: 'status', body: { status: { allocatable: { cpu: '3', memory: null } } }, expect: ok({ 'status.allocatable': { cpu: '3' }, 'status.capacity.cpu': '4' }) },
      ],
    },
    lifecycle('Node: provider ID set once', core('nodes', 'Node', false), { spec: {} },
      { merge: { spec: { providerID: 'cloud://a' } } },
      { merge: { spec: { providerID: 'cloud://b' } }, causes: ['spec.providerID'] }),

    // Endpoints
    lifecycle('Endpoints: addresses and ports', core('endpoints', 'Endpoints'), { subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }] },
      { merge: { subsets: [{ addresses: [{ ip: '10.1.2.4' }], ports: [{ port: 8080, protocol: 'UDP' }] }] } },
      // IsValidIP and ValidateNonSpecialIP both report an address that does not parse.
      { merge: { subsets: [{ addresses: [{ ip: 'not-an-ip' }], ports: [{ port: 70000 }] }] }, causes: ['subsets[0].addresses[0].ip', 'subsets[0].addresses[0].ip', 'subsets[0].ports[0].port'] },
      { 'subsets[0].ports[0].protocol': 'TCP' }),

    // LimitRanges and ResourceQuotas
    // A limit type of its own: a Container limit would default every corpus pod's resources through LimitRanger.
    lifecycle('LimitRange: min not above max', core('limitranges', 'LimitRange'), { spec: { limits: [{ type: 'example.com/widget', max: { cpu: '2' }, min: { cpu: '100m' } }] } },
      { merge: { spec: { limits: [{ type: 'example.com/widget', max: { cpu: '4' }, min: { cpu: '100m' } }] } } },
      { merge: { spec: { limits: [{ type: 'example.com/widget', max: { cpu: '1' }, min: { cpu: '2' } }] } }, causes: ['spec.limits[0].min[cpu]'] }),
    // An object count no corpus case creates, so the quota admits every other case's objects; merge patches, as the
    // quota controller writes the status meanwhile.
    {
      name: 'ResourceQuota: quantities not negative', resource: core('resourcequotas', 'ResourceQuota'),
      steps: [
        { op: 'create', object: { spec: { hard: { 'count/widgets.example.com': '10' } } }, expect: created() },
        { op: 'patch', type: 'merge', body: { spec: { hard: { 'count/widgets.example.com': '20' } } }, expect: ok({ 'spec.hard[count/widgets.example.com]': '20' }) },
        { op: 'patch', type: 'merge', body: { spec: { hard: { 'count/widgets.example.com': '-1' } } }, expect: invalid(['spec.hard[count/widgets.example.com]']) },
      ],
    },

    // Qualified names (IsQualifiedName) give every message kube's does: an empty name part is both empty and
    // unmatched by the pattern, a long bad label value both too long and unmatched; annotation keys are lowercased
    // before the check; each message is a cause of its own (and core/v1 adds its own finalizer rule, indexed).
    rejectedCreate('ConfigMap: label keys and values, annotation keys and finalizers with all of their messages', core('configmaps', 'ConfigMap'), {
      metadata: {
        labels: { 'example.com/': 'v', ok: '-'.repeat(64) },
        annotations: { 'a/b/c': 'x', 'Example.COM/Upper': 'fine' },
        finalizers: ['', 'example.com/ok'],
      },
    }, ['metadata.labels', 'metadata.labels', 'metadata.labels', 'metadata.labels', 'metadata.annotations', 'metadata.finalizers', 'metadata.finalizers', 'metadata.finalizers[0]'],
    ['name part must be non-empty', 'must be no more than 63 characters', 'a qualified name must consist of', 'with an optional DNS subdomain prefix',
      'name is neither a standard finalizer name nor is it fully qualified']),
    rejectedCreate('Event (v1): an empty reporting component is required and no qualified name', core('events', 'Event'), {
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'parity' }, eventTime: '2024-01-01T00:00:00.000000Z',
      reportingComponent: '', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal',
    }, ['reportingComponent', 'reportingComponent', 'reportingComponent'], ['reportingComponent: Required value', 'name part must be non-empty']),

    // Events (core)
    rejectedCreate('Event (v1): an involved object of another namespace', core('events', 'Event'),
      { involvedObject: { kind: 'Pod', name: 'p', namespace: 'elsewhere' }, reason: 'R', message: 'm', type: 'Normal', source: { component: 'parity' } },
      ['involvedObject.namespace'], ['does not match event.namespace']),
    lifecycle('Event (v1): involved object namespace', core('events', 'Event'), {
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'parity' }, reason: 'R', message: 'm', type: 'Normal', source: { component: 'parity' },
    }, { merge: { count: 2 } }, { merge: { involvedObject: { namespace: 'elsewhere' } }, causes: ['involvedObject.namespace'] }),
  ];
}
