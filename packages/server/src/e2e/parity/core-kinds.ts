/**
 * Core group (`v1`) cases beside the pod spec, compared rule by rule with kube-apiserver 1.27: Services (types,
 * ports, ranges, affinity, class), Namespaces (finalizers, status phase, finalize), Nodes, PersistentVolumes and
 * claims (sources, affinity, data sources, retroactive class, warnings), ResourceQuotas, LimitRanges (defaults and
 * ordering), Secrets (TLS pair warning), ServiceAccounts, Endpoints, and core/v1's finalizer names.
 */
import type { Names } from '@svc-apiserver/api';
import { core, created, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** The core kinds' rule-by-rule corpus in a flavour. */
export function coreKindCases(names: Names): ParityCase[] {
  const services = core('services', 'Service');
  const namespaces = core('namespaces', 'Namespace', false);
  const nodes = core('nodes', 'Node', false);
  const pvs = core('persistentvolumes', 'PersistentVolume', false);
  const pvcs = core('persistentvolumeclaims', 'PersistentVolumeClaim');
  const quotas = core('resourcequotas', 'ResourceQuota');
  const limitRanges = core('limitranges', 'LimitRange');
  const claimSpec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
  const pvBase = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] };
  const classAnnotation = names.domain('storage-class', 'volume.beta');
  const hints = names.domain('topology-aware-hints', 'service');
  return [
    // Services
    rejectedCreate('Service: ExternalName with a cluster IP (clusterIPs follow clusterIP)', services,
      { spec: { type: 'ExternalName', externalName: 'db.example.com', clusterIP: '10.0.0.77' } }, ['spec.clusterIPs'], ['may not be set for ExternalName services']),
    rejectedCreate('Service: a load balancer may not expose the kubelet port', services,
      { spec: { type: 'LoadBalancer', ports: [{ port: 10250 }] } }, ['spec.ports[0]'], ['may not expose port 10250 externally since it is used by kubelet']),
    rejectedCreate('Service: a headless NodePort Service', services,
      { spec: { type: 'NodePort', clusterIP: 'None', ports: [{ port: 80 }] } }, ['spec.clusterIPs[0]'], ["may not be set to 'None' for NodePort services"]),
    rejectedCreate('Service: load balancer source ranges on a ClusterIP Service (kube spells the field LoadBalancerSourceRanges)', services,
      { spec: { ports: [{ port: 80 }], loadBalancerSourceRanges: ['nope'] } }, ['spec.LoadBalancerSourceRanges', 'spec.LoadBalancerSourceRanges[0]']),
    rejectedCreate('Service: a loopback external IP', services,
      { spec: { ports: [{ port: 80 }], externalIPs: ['127.0.0.1'] } }, ['spec.externalIPs[0]'], ['may not be in the loopback range']),
    // 1.27 takes the policy from NodePort and LoadBalancer Services only (not yet from ClusterIP ones with external IPs).
    rejectedCreate('Service: an external traffic policy on a ClusterIP Service with external IPs', services,
      { spec: { ports: [{ port: 80 }], externalIPs: ['192.0.2.10'], externalTrafficPolicy: 'Local' } }, ['spec.externalTrafficPolicy'], ["may only be set when `type` is 'NodePort' or 'LoadBalancer'"]),
    rejectedCreate('Service: a ClientIP affinity timeout of 0', services,
      { spec: { ports: [{ port: 80 }], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } } },
      ['spec.sessionAffinityConfig.clientIP.timeoutSeconds'], ['must be greater than 0 and less than 86400']),
    {
      name: 'Service: ClientIP affinity gets its default timeout; a load balancer class is fixed', resource: services,
      steps: [
        {
          op: 'create', object: { spec: { type: 'LoadBalancer', loadBalancerClass: 'example.com/a', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] } },
          expect: created({ 'spec.sessionAffinityConfig.clientIP.timeoutSeconds': 10800, 'spec.allocateLoadBalancerNodePorts': true }),
        },
        { op: 'update', merge: { spec: { loadBalancerClass: 'example.com/b' } }, expect: invalid(['spec.loadBalancerClass'], ['may not change once set']) },
      ],
    },
    {
      name: 'Service status: a load balancer hostname may not be an IP', resource: services,
      steps: [
        { op: 'create', object: { spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } }, expect: created() },
        { op: 'update', subresource: 'status', merge: { status: { loadBalancer: { ingress: [{ hostname: '10.1.2.3' }] } } }, expect: invalid(['status.loadBalancer.ingress[0].hostname'], ['must be a DNS name, not an IP address']) },
      ],
    },

    {
      name: 'Service: warnings for the topology hints annotation, an IPv4 address with leading zeros, a non-canonical IPv6 address', resource: services,
      steps: [{
        op: 'create',
        object: { metadata: { annotations: { [hints]: 'auto' } }, spec: { ports: [{ port: 80 }], externalIPs: ['010.1.2.3', '2001:DB8::1'] } },
        expect: {
          code: 201,
          warnings: [
            `annotation ${hints} is deprecated, please use ${names.domain('topology-mode', 'service')} instead`,
            'spec.externalIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("010.1.2.3"): IPv4 field has octet with leading zero',
            'spec.externalIPs[1]: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops',
          ],
        },
      }],
    },
    rejectedCreate('Service: the topology mode and hints annotations disagree', services,
      { metadata: { annotations: { [hints]: 'auto', [names.domain('topology-mode', 'service')]: 'Auto' } }, spec: { ports: [{ port: 80 }] } },
      [`metadata.annotations[${names.domain('topology-mode', 'service')}]`], [`must match annotations[${hints}] when both are specified`]),

    // Namespaces
    rejectedCreate('Namespace: a spec finalizer neither qualified nor standard', namespaces,
      { spec: { finalizers: ['bad name'] } }, ['spec.finalizers', 'spec.finalizers']),
    {
      name: 'Namespace: the status phase follows deletion; finalize checks each finalizer at its index', resource: namespaces,
      steps: [
        { op: 'create', object: {}, expect: created() },
        { op: 'update', subresource: 'status', merge: { status: { phase: 'Terminating' } }, expect: invalid(['status.Phase'], ["may only be 'Active' if `deletionTimestamp` is empty"]) },
        { op: 'update', subresource: 'finalize', merge: { spec: { finalizers: ['bad'] } }, expect: invalid(['spec.finalizers[0]'], ['name is neither a standard finalizer name nor is it fully qualified']) },
      ],
    },

    // Nodes
    rejectedCreate('Node: two pod CIDRs of one family', nodes, { spec: { podCIDRs: ['10.1.0.0/24', '10.2.0.0/24'] } }, ['spec.podCIDRs'], ['may specify no more than one CIDR for each IP family']),
    // Allocatable is defaulted from the capacity before validation, so both are reported.
    rejectedCreate('Node: a negative capacity (reported as status.capacity.<name>)', nodes, { status: { capacity: { cpu: '-1' } } }, ['status.capacity.cpu', 'status.allocatable.cpu']),
    {
      name: 'Node: allocatable defaults to the capacity, in canonical form', resource: nodes,
      steps: [{ op: 'create', object: { status: { capacity: { cpu: '4', memory: '1024Mi' } } }, expect: created({ 'status.allocatable.memory': '1Gi', 'status.capacity.memory': '1Gi' }) }],
    },

    {
      name: 'Node: the deprecated externalID warns', resource: nodes,
      steps: [{ op: 'create', object: { spec: { externalID: 'i-123' } }, expect: { code: 201, warnings: ['spec.externalID: this field is deprecated, and is unused by Kubernetes'] } }],
    },

    // core/v1's ValidateObjectMeta
    rejectedCreate('ConfigMap: a finalizer without a domain must be a standard one', core('configmaps', 'ConfigMap'),
      { metadata: { finalizers: ['custom'] }, data: {} }, ['metadata.finalizers[0]'], ['name is neither a standard finalizer name nor is it fully qualified']),

    // PersistentVolumes
    rejectedCreate('PersistentVolume: Recycle of a host path /', pvs, { spec: { ...pvBase, hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' } },
      ['spec.persistentVolumeReclaimPolicy'], ["may not be 'recycle' for a hostPath mount of '/'"]),
    rejectedCreate('PersistentVolume: a local volume needs node affinity', pvs, { spec: { ...pvBase, local: { path: '/mnt/disk' } } }, ['spec.nodeAffinity'], ['Local volume requires node affinity']),
    rejectedCreate('PersistentVolume: node affinity without terms, capacity beyond storage', pvs,
      { spec: { ...pvBase, capacity: { storage: '1Gi', cpu: '1' }, local: { path: '/mnt/disk' }, nodeAffinity: { required: { nodeSelectorTerms: [] } } } },
      ['spec.capacity', 'spec.nodeAffinity.required.nodeSelectorTerms']),
    {
      name: 'PersistentVolume: the beta storage class annotation warns', resource: pvs,
      steps: [{
        op: 'create', object: { metadata: { annotations: { [classAnnotation]: 'slow' } }, spec: { ...pvBase, hostPath: { path: '/srv/pv' } } },
        expect: { code: 201, warnings: [`metadata.annotations[${classAnnotation}]: deprecated since v1.8; use "storageClassName" attribute instead`] },
      }],
    },

    // PersistentVolumeClaims
    {
      name: 'PersistentVolumeClaim: dataSource mirrored into dataSourceRef; a class may be set on a claim without one', resource: pvcs,
      steps: [
        {
          op: 'create', object: { spec: { ...claimSpec, dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } } },
          expect: created({ 'spec.dataSourceRef.kind': 'PersistentVolumeClaim', 'spec.dataSourceRef.name': 'src' }),
        },
        { op: 'update', merge: { spec: { storageClassName: 'fast' } }, expect: ok({ 'spec.storageClassName': 'fast' }) },
        { op: 'update', merge: { spec: { storageClassName: 'slow' } }, expect: invalid(['spec'], ['spec is immutable after creation']) },
      ],
    },
    {
      name: 'PersistentVolumeClaim status: allocatedResources dropped (RecoverVolumeExpansionFailure is off in 1.27)', resource: pvcs,
      steps: [
        { op: 'create', object: { spec: claimSpec }, expect: created() },
        { op: 'update', subresource: 'status', merge: { status: { allocatedResources: { storage: '1Gi' }, capacity: { storage: '1024Mi' } } }, expect: ok({ 'status.capacity.storage': '1Gi' }, ['status.allocatedResources']) },
      ],
    },
    rejectedCreate('PersistentVolumeClaim: a data source of the core group must be a claim (checked in the mirrored ref too)', pvcs,
      { spec: { ...claimSpec, dataSource: { kind: 'Foo', name: 'x' } } }, ['spec.dataSource', 'spec.dataSourceRef'], ["must be 'PersistentVolumeClaim' when referencing the default apiGroup"]),
    {
      name: 'PersistentVolumeClaim: a fractional byte request warns, in canonical form', resource: pvcs,
      steps: [{
        op: 'create', object: { spec: { ...claimSpec, resources: { requests: { storage: '1.5' } } } },
        expect: { code: 201, warnings: ['spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer'], values: { 'spec.resources.requests.storage': '1500m' } },
      }],
    },

    // ResourceQuotas
    rejectedCreate('ResourceQuota: conflicting scopes, and BestEffort applied to cpu', quotas,
      { spec: { hard: { cpu: '1' }, scopes: ['BestEffort', 'NotBestEffort'] } }, ['spec.scopes', 'spec.scopes'], ['unsupported scope applied to resource', 'conflicting scopes']),
    rejectedCreate('ResourceQuota: a resource that is neither standard nor qualified', quotas,
      { spec: { hard: { foo: '1' } } }, ['spec.hard[foo]', 'spec.hard[foo]'], ['must be a standard resource for quota']),
    // Quotas of the shared namespace: limits no corpus case reaches (the pods of the Terminating scope have a deadline).
    {
      name: 'ResourceQuota: quantities canonical', resource: quotas,
      steps: [{ op: 'create', object: { spec: { hard: { 'requests.storage': '1024Gi' } } }, expect: created({ 'spec.hard[requests.storage]': '1Ti' }) }],
    },
    {
      name: 'ResourceQuota: scopes immutable', resource: quotas,
      steps: [
        { op: 'create', object: { spec: { hard: { pods: '1000' }, scopes: ['Terminating'] } }, expect: created() },
        { op: 'patch', type: 'merge', body: { spec: { scopes: ['NotTerminating'] } }, expect: invalid(['spec.scopes'], ['field is immutable']) },
      ],
    },

    // LimitRanges
    {
      name: 'LimitRange: a Container limit takes its default limit from max and its default request from the default', resource: limitRanges,
      // An extended resource no corpus pod asks for: LimitRanger gives it to every pod of the namespace.
      steps: [{
        // The default request comes from the default limit before min.
        op: 'create', object: { spec: { limits: [{ type: 'Container', max: { 'example.com/parity-lr': '2' }, min: { 'example.com/parity-lr': '1' } }] } },
        expect: created({ 'spec.limits[0].default[example.com/parity-lr]': '2', 'spec.limits[0].defaultRequest[example.com/parity-lr]': '2' }),
      }],
    },
    rejectedCreate('LimitRange: a ratio below 1, Pod defaults, a claim limit without storage bounds', limitRanges, {
      spec: { limits: [{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }, { type: 'Pod', default: { cpu: '1' } }, { type: 'PersistentVolumeClaim' }] },
    }, ['spec.limits[0].maxLimitRequestRatio[cpu]', 'spec.limits[1].default', 'spec.limits[2].limits'], ['ratio 500m is less than 1', 'either minimum or maximum storage value is required']),

    // Secrets, ServiceAccounts, Endpoints
    {
      name: 'Secret: a TLS pair that does not load warns as tls.X509KeyPair words it', resource: core('secrets', 'Secret'),
      steps: [{
        op: 'create', object: { type: names.domain('tls'), data: { 'tls.crt': b64('not pem'), 'tls.key': b64('not pem') } },
        expect: { code: 201, warnings: ['tls: failed to find any PEM data in certificate input'] },
      }],
    },
    {
      name: 'ServiceAccount: secret references keep only their name', resource: core('serviceaccounts', 'ServiceAccount'),
      steps: [{ op: 'create', object: { secrets: [{ name: 's', namespace: 'elsewhere', kind: 'Secret' }] }, expect: created({ 'secrets[0].name': 's' }, ['secrets[0].namespace', 'secrets[0].kind']) }],
    },
    rejectedCreate('Endpoints: an address node name and a port app protocol', core('endpoints', 'Endpoints'),
      { subsets: [{ addresses: [{ ip: '10.1.2.3', nodeName: 'Bad_Node' }], ports: [{ port: 80, appProtocol: 'a b' }] }] },
      ['subsets[0].addresses[0].nodeName', 'subsets[0].ports[0].appProtocol']),
  ];
}
