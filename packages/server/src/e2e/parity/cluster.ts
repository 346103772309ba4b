/**
 * Cases of the remaining groups: autoscaling (v1, v2), policy, scheduling, node, networking, storage, rbac,
 * coordination, discovery, events, flowcontrol (v1beta2, v1beta3), admissionregistration, apiextensions,
 * apiregistration, certificates, and the create-only reviews and bindings.
 */
import type { Names } from '@svc-apiserver/api';
import { core, created, grouped, invalid, lifecycle, ok, rejectedCreate, review, type ParityCase } from './corpus.js';

const selector = { matchLabels: { app: 'x' } };

/** A metav1.Condition. */
const npCondition = (type: string) => ({ type, status: 'True', reason: 'Checked', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z' });

/** The corpus of the other groups in a flavour. */
export function clusterCases(names: Names): ParityCase[] {
  const rbacGroup = names.group('rbac.authorization');
  const subjects = [{ kind: 'User', name: 'alice', apiGroup: rbacGroup }];
  const rule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
  const webhook = (name: string) => ({ name, clientConfig: { url: 'https://example.com/hook' }, sideEffects: 'None', admissionReviewVersions: ['v1'] });
  const plSpec = { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } };
 // A PKCS#10 request (CN=test, P-256), base64 of its PEM.
  const csrRequest = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIS01IRUNBUUF3RHpFTk1Bc0dBMVVFQXd3RWRHVnpkREJaTUJNR0J5cUdTTTQ5QWdFR0NDcUdTTTQ5QXdFSApBMElBQkF4eWxDc3A0SXNxdWo0RmVLOTUvc3FTVU9yRmtpTENNK1FJQVp1Q3N3NWJFSDNobTN4VEYweDIvRnN0CjRDUVRFaWlqNXlsdkowZFA5MWtZeFVuNG1iNmdBREFLQmdncWhrak9QUVFEQWdOSkFEQkdBaUVBa1ZtWG4vOUMKZUp1UG5MYWNibGt0ekxYUjFLZmNQaVg2emc1ZEp0TG1MK1FDSVFEa2UybU9YU2drN2VGaXg2M0liY01mV0J3Nwo4NHV4MWlyZkVJRThYUVFCRVE9PQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K';
  const hpaTarget = { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' };
  const crdSpec = {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
  };
  const cases: ParityCase[] = [
    lifecycle('HorizontalPodAutoscaler v2: min not above max', grouped('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
      { spec: { scaleTargetRef: hpaTarget, maxReplicas: 3 } }, { merge: { spec: { maxReplicas: 5 } } },
      { merge: { spec: { minReplicas: 10 } }, causes: ['spec.maxReplicas'] }, { 'spec.minReplicas': 1, status: { desiredReplicas: 0 } }),
    {
      name: 'HorizontalPodAutoscaler v2: a partial behavior is completed from the built-in rules', resource: grouped('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
      steps: [{
        op: 'create', object: { spec: { scaleTargetRef: hpaTarget, maxReplicas: 3, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } },
        expect: created({
          'spec.behavior.scaleDown': { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }], stabilizationWindowSeconds: 60 },
          'spec.behavior.scaleUp': { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
        }),
      }],
    },
    lifecycle('HorizontalPodAutoscaler v1: target name required', grouped('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
      { spec: { scaleTargetRef: hpaTarget, maxReplicas: 3 } }, { merge: { spec: { targetCPUUtilizationPercentage: 50 } } },
      { merge: { spec: { scaleTargetRef: { name: '' } } }, causes: ['spec.scaleTargetRef.name'] }),
    rejectedCreate('HorizontalPodAutoscaler v1: target kind required', grouped('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
      { spec: { scaleTargetRef: { name: 'd' }, maxReplicas: 3 } }, ['spec.scaleTargetRef.kind'], ['Required value']),
    lifecycle('PodDisruptionBudget: minAvailable or maxUnavailable', grouped('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'),
      { spec: { minAvailable: 1, selector } }, { merge: { spec: { minAvailable: 2 } } },
      { merge: { spec: { maxUnavailable: 1 } }, causes: ['spec'] }, { status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } }),
    lifecycle('PriorityClass: value immutable', grouped('scheduling', 'v1', 'priorityclasses', 'PriorityClass', false),
      { value: 1000 }, { merge: { description: 'd' } }, { merge: { value: 2000 }, causes: ['value'] }, { preemptionPolicy: 'PreemptLowerPriority' }),
    lifecycle('RuntimeClass: handler immutable', grouped('node', 'v1', 'runtimeclasses', 'RuntimeClass', false),
      { handler: 'runc' }, { merge: { metadata: { labels: { l: 'v' } } } }, { merge: { handler: 'other' }, causes: ['handler'] }),
    lifecycle('Ingress: backend service port', grouped('networking', 'v1', 'ingresses', 'Ingress'),
      { spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } }, { merge: { spec: { defaultBackend: { service: { port: { number: 8080 } } } } } },
      { merge: { spec: { defaultBackend: { service: { port: { number: 0 } } } } }, causes: ['spec.defaultBackend'], message: ['port name or number is required'] }, { status: { loadBalancer: {} } }),
    lifecycle('IngressClass: controller immutable', grouped('networking', 'v1', 'ingressclasses', 'IngressClass', false),
      { spec: { controller: 'example.com/ingress' } }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { spec: { controller: 'example.com/other' } }, causes: ['spec.controller'] }),
    lifecycle('NetworkPolicy: policy types default', grouped('networking', 'v1', 'networkpolicies', 'NetworkPolicy'),
      { spec: { podSelector: {} } }, { merge: { spec: { podSelector: selector } } },
      { merge: { spec: { policyTypes: ['Sideways'] } }, causes: ['spec.policyTypes[0]'] }, { 'spec.policyTypes': ['Ingress'], status: {} }),
    {
      // 1.27's NetworkPolicyStatus gate is off: a create keeps a status sent, /status may only clear it, and the
      // answer always holds the status struct.
      name: 'NetworkPolicy: status {} on create; with the status gate off a create keeps conditions, /status only clears them',
      resource: grouped('networking', 'v1', 'networkpolicies', 'NetworkPolicy'),
      steps: [
        { op: 'create', object: { spec: { podSelector: {} }, status: { conditions: [npCondition('Ready')] } }, expect: created({ 'status.conditions': [npCondition('Ready')] }) },
        { op: 'patch', type: 'merge', subresource: 'status', body: { status: { conditions: [npCondition('Other')] } }, expect: ok({ 'status.conditions': [npCondition('Ready')] }) },
        { op: 'update', merge: { status: { conditions: [npCondition('Other')] } }, expect: ok({ 'status.conditions': [npCondition('Ready')] }) },
        { op: 'patch', type: 'merge', subresource: 'status', body: { status: { conditions: null } }, expect: ok({ status: {}, 'metadata.generation': 1 }) },
        { op: 'update', merge: { spec: { policyTypes: ['Egress', 'Egress', 'Ingress'] } }, expect: invalid(['spec.policyTypes']) },
      ],
    },
    lifecycle('StorageClass: parameters immutable', grouped('storage', 'v1', 'storageclasses', 'StorageClass', false),
      { provisioner: 'example.com/p', parameters: { a: 'b' } }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { parameters: { a: 'c' } }, causes: ['parameters'] }, { reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }),
    lifecycle('CSIDriver: attachRequired immutable', grouped('storage', 'v1', 'csidrivers', 'CSIDriver', false),
      { metadata: { name: 'driver.example.com' }, spec: {} }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { spec: { attachRequired: false } }, causes: ['spec.attachedRequired'] },
      { 'spec.attachRequired': true, 'spec.podInfoOnMount': false, 'spec.fsGroupPolicy': 'ReadWriteOnceWithFSType', 'spec.volumeLifecycleModes': ['Persistent'], 'spec.requiresRepublish': false, 'spec.storageCapacity': false }),
    lifecycle('CSINode: driver node IDs', grouped('storage', 'v1', 'csinodes', 'CSINode', false),
      { spec: { drivers: [{ name: 'driver.example.com', nodeID: 'n1' }] } }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { spec: { drivers: [{ name: 'driver.example.com', nodeID: '' }] } }, causes: ['spec.drivers[0].nodeID', 'CSINodeDriver'] }),
    lifecycle('CSIStorageCapacity: storage class immutable', grouped('storage', 'v1', 'csistoragecapacities', 'CSIStorageCapacity'),
      { storageClassName: 'sc', capacity: '1Gi' }, { merge: { capacity: '2Gi' } },
      { merge: { storageClassName: 'other' }, causes: ['storageClassName'] }),
    lifecycle('VolumeAttachment: spec immutable', grouped('storage', 'v1', 'volumeattachments', 'VolumeAttachment', false),
      { spec: { attacher: 'driver.example.com', nodeName: 'n', source: { persistentVolumeName: 'pv' } } }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { spec: { nodeName: 'other' } }, causes: ['spec'] }, { status: { attached: false } }),
    rejectedCreate('VolumeAttachment: attacher and node required', grouped('storage', 'v1', 'volumeattachments', 'VolumeAttachment', false),
      { spec: { source: { persistentVolumeName: 'pv' } } },
      // An empty attacher is Required twice (ValidateVolumeAttachment and, through v1, as a CSI driver name) and not a
      // DNS subdomain; an empty node name fails the subdomain check.
      ['spec.attacher', 'spec.attacher', 'spec.attacher', 'spec.nodeName']),
    lifecycle('Role: rules need verbs', grouped('rbac.authorization', 'v1', 'roles', 'Role'),
      { rules: [rule] }, { merge: { rules: [{ ...rule, verbs: ['get', 'list'] }] } },
      { merge: { rules: [{ ...rule, verbs: [] }] }, causes: ['rules[0].verbs'] }),
    lifecycle('ClusterRole: rules need verbs', grouped('rbac.authorization', 'v1', 'clusterroles', 'ClusterRole', false),
      { rules: [rule] }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { rules: [{ ...rule, verbs: [] }] }, causes: ['rules[0].verbs'] }),
    lifecycle('RoleBinding: roleRef immutable', grouped('rbac.authorization', 'v1', 'rolebindings', 'RoleBinding'),
      { subjects, roleRef: { apiGroup: rbacGroup, kind: 'Role', name: 'r' } }, { merge: { subjects: [...subjects, { kind: 'Group', name: 'g', apiGroup: rbacGroup }] } },
      { merge: { roleRef: { name: 'other' } }, causes: ['roleRef'] }),
    lifecycle('ClusterRoleBinding: roleRef immutable', grouped('rbac.authorization', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
      { subjects, roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'r' } }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { roleRef: { name: 'other' } }, causes: ['roleRef'] }),
    lifecycle('Lease: duration positive', grouped('coordination', 'v1', 'leases', 'Lease'),
      { spec: { holderIdentity: 'h', leaseDurationSeconds: 15 } }, { merge: { spec: { holderIdentity: 'g' } } },
      { merge: { spec: { leaseDurationSeconds: 0 } }, causes: ['spec.leaseDurationSeconds'] }),
    rejectedCreate('Lease: transitions not negative', grouped('coordination', 'v1', 'leases', 'Lease'),
      { spec: { holderIdentity: 'h', leaseTransitions: -1 } }, ['spec.leaseTransitions'], ['must be greater than or equal to 0']),
    lifecycle('EndpointSlice: address type immutable', grouped('discovery', 'v1', 'endpointslices', 'EndpointSlice'),
      { addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'] }] }, { merge: { endpoints: [{ addresses: ['10.1.2.4'] }] }, expect: ok({ 'metadata.generation': 2 }) },
      { merge: { addressType: 'IPv6' }, causes: ['addressType', 'endpoints[0].addresses[0]'] }, { 'metadata.generation': 1 }),
    {
      name: 'EndpointSlice: a change of labels moves the generation, of annotations not', resource: grouped('discovery', 'v1', 'endpointslices', 'EndpointSlice'),
      steps: [
        { op: 'create', object: { addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'] }] }, expect: created({ 'metadata.generation': 1 }) },
        { op: 'update', merge: { metadata: { annotations: { a: 'b' } } }, expect: ok({ 'metadata.generation': 1 }) },
        { op: 'update', merge: { metadata: { labels: { l: 'v' } } }, expect: ok({ 'metadata.generation': 2 }) },
      ],
    },
    rejectedCreate('EndpointSlice: an address of the wrong family', grouped('discovery', 'v1', 'endpointslices', 'EndpointSlice'),
      { addressType: 'IPv4', endpoints: [{ addresses: ['fd00::1'] }] }, ['endpoints[0].addresses[0]']),
    lifecycle('Event (events/v1): note and series', grouped('events', 'v1', 'events', 'Event'), {
      eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'example.com/c', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal',
      regarding: { kind: 'Pod', name: 'p', namespace: 'parity' },
    }, { merge: { series: { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' } } },
    { merge: { type: 'Odd' }, causes: ['type'] }),
    lifecycle('FlowSchema v1beta3: priority level name required', grouped('flowcontrol.apiserver', 'v1beta3', 'flowschemas', 'FlowSchema', false),
      { spec: { priorityLevelConfiguration: { name: 'p' } } }, { merge: { spec: { matchingPrecedence: 500 } } },
      { merge: { spec: { priorityLevelConfiguration: { name: '' } } }, causes: ['spec.priorityLevelConfiguration.name'] }, { 'spec.matchingPrecedence': 1000, status: {} }),
    lifecycle('PriorityLevelConfiguration v1beta3: limit response', grouped('flowcontrol.apiserver', 'v1beta3', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false),
      { spec: plSpec }, { merge: { spec: { limited: { nominalConcurrencyShares: 10 } } } },
      { merge: { spec: { limited: { limitResponse: { type: 'Maybe' } } } }, causes: ['spec.limited.limitResponse.type'] }),
    lifecycle('FlowSchema v1beta2: priority level name required', grouped('flowcontrol.apiserver', 'v1beta2', 'flowschemas', 'FlowSchema', false),
      { spec: { priorityLevelConfiguration: { name: 'p' } } }, { merge: { spec: { matchingPrecedence: 500 } } },
      { merge: { spec: { priorityLevelConfiguration: { name: '' } } }, causes: ['spec.priorityLevelConfiguration.name'] }),
    lifecycle('PriorityLevelConfiguration v1beta2: limit response', grouped('flowcontrol.apiserver', 'v1beta2', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false),
      { spec: plSpec }, { merge: { spec: { limited: { assuredConcurrencyShares: 10 } } } },
      { merge: { spec: { limited: { limitResponse: { type: 'Maybe' } } } }, causes: ['spec.limited.limitResponse.type'] }),
    lifecycle('MutatingWebhookConfiguration: side effects', grouped('admissionregistration', 'v1', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false),
      { webhooks: [webhook('m.example.com')] }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { webhooks: [{ ...webhook('m.example.com'), sideEffects: 'Some' }] }, causes: ['webhooks[0].sideEffects'] },
      { 'webhooks[0].failurePolicy': 'Fail', 'webhooks[0].matchPolicy': 'Equivalent', 'webhooks[0].timeoutSeconds': 10, 'webhooks[0].reinvocationPolicy': 'Never' }),
    lifecycle('ValidatingWebhookConfiguration: names unique', grouped('admissionregistration', 'v1', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false),
      { webhooks: [webhook('v.example.com')] }, { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { webhooks: [webhook('v.example.com'), webhook('v.example.com')] }, causes: ['webhooks[1].name'] }),
    lifecycle('APIService: priorities in range', grouped('apiregistration', 'v1', 'apiservices', 'APIService', false),
      { metadata: { name: 'v1.extension.example.org' }, spec: { group: 'extension.example.org', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 } },
      { merge: { spec: { versionPriority: 20 } } },
      { merge: { spec: { groupPriorityMinimum: 30000 } }, causes: ['spec.groupPriorityMinimum'] }),
    rejectedCreate('MutatingWebhookConfiguration: a webhook name is a fully qualified domain', grouped('admissionregistration', 'v1', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false),
      { webhooks: [webhook('m.example')] }, ['webhooks[0].name'], ['should be a domain with at least three segments separated by dots']),
    rejectedCreate('ValidatingWebhookConfiguration: a timeout of 1 to 30 seconds', grouped('admissionregistration', 'v1', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false),
      { webhooks: [{ ...webhook('v.example.com'), timeoutSeconds: 31 }] }, ['webhooks[0].timeoutSeconds'], ['the timeout value must be between 1 and 30 seconds']),
    rejectedCreate('APIService: the name is the version and group', grouped('apiregistration', 'v1', 'apiservices', 'APIService', false),
      { metadata: { name: 'v2.extension.example.org' }, spec: { group: 'extension.example.org', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 } },
      ['metadata.name'], ['must be `spec.version+"."+spec.group`: "v1.extension.example.org"']),
    {
      name: 'CustomResourceDefinition: created and updated', resource: grouped('apiextensions', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
      steps: [
        { op: 'create', object: { metadata: { name: 'gadgets.example.com' }, spec: crdSpec }, expect: created() },
        { op: 'update', merge: { metadata: { labels: { l: 'v' } } }, expect: ok({ 'metadata.labels.l': 'v' }) },
      ],
    },
    {
      name: 'CustomResourceDefinition: the group and plural are immutable, and the name follows them', resource: grouped('apiextensions', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
      steps: [
        { op: 'create', object: { metadata: { name: 'widgets.example.com' }, spec: { ...crdSpec, names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' } } }, expect: created() },
        {
          op: 'update', merge: { spec: { group: 'example.org' } },
          expect: invalid(['metadata.name', 'spec.group'], ['must be spec.names.plural+"."+spec.group', 'field is immutable']),
        },
      ],
    },
    rejectedCreate('CustomResourceDefinition: scope required', grouped('apiextensions', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
      { metadata: { name: 'doodads.example.com' }, spec: { ...crdSpec, names: { plural: 'doodads', singular: 'doodad', kind: 'Doodad', listKind: 'DoodadList' }, scope: undefined } }, ['spec.scope']),
    {
      name: 'TokenReview: a token is required (400, as the review storage answers)', resource: review('authentication', 'v1', 'tokenreviews', 'TokenReview'),
      steps: [{ op: 'create', object: { spec: {} }, expect: { code: 400, reason: 'BadRequest', message: ['token is required for TokenReview in authentication'] } }],
    },
    {
      name: 'TokenReview: an unknown token is answered, not authenticated', resource: review('authentication', 'v1', 'tokenreviews', 'TokenReview'),
      steps: [{ op: 'create', object: { spec: { token: 'not-a-token' } }, expect: created({ 'status.user': {} }, ['status.authenticated']) }],
    },
    {
      name: 'LocalSubjectAccessReview: the namespace of the attributes must be the object\'s', resource: { ...review('authorization', 'v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview'), namespaced: true },
      steps: [{ op: 'create', object: { metadata: { namespace: 'parity' }, spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } } }, expect: invalid(['spec.resourceAttributes.namespace'], ['must match metadata.namespace']) }],
    },
    {
      name: 'SelfSubjectRulesReview: answered for a namespace', resource: review('authorization', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview'),
      steps: [{ op: 'create', object: { spec: { namespace: 'parity' } }, expect: created({ 'status.incomplete': false }) }],
    },
    {
      name: 'SubjectAccessReview: answered for a user', resource: review('authorization', 'v1', 'subjectaccessreviews', 'SubjectAccessReview'),
      steps: [{ op: 'create', object: { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } } }, expect: created({ 'status.allowed': false }) }],
    },
    {
      name: 'LocalSubjectAccessReview: answered in its namespace', resource: { ...review('authorization', 'v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview'), namespaced: true },
      steps: [{ op: 'create', object: { metadata: { namespace: 'parity' }, spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'parity' } } }, expect: created({ 'status.allowed': false }) }],
    },
    {
      name: 'SelfSubjectRulesReview: a namespace is required (400, as the review storage answers)', resource: review('authorization', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview'),
      steps: [{ op: 'create', object: { spec: {} }, expect: { code: 400, reason: 'BadRequest', message: ['no namespace on request'] } }],
    },
    {
      name: 'SubjectAccessReview: a user or group is required', resource: review('authorization', 'v1', 'subjectaccessreviews', 'SubjectAccessReview'),
      steps: [{ op: 'create', object: { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }, expect: invalid(['spec.user']) }],
    },
    {
      name: 'SelfSubjectAccessReview: answered', resource: review('authorization', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
      steps: [{ op: 'create', object: { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }, expect: created({ 'status.allowed': true }) }],
    },
    {
      name: 'SelfSubjectAccessReview: resource and non-resource attributes together', resource: review('authorization', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
      steps: [{ op: 'create', object: { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } } }, expect: invalid(['spec.nonResourceAttributes'], ['cannot be specified in combination with resourceAttributes']) }],
    },
    {
      name: 'CertificateSigningRequest: created, labelled, spec kept on update; usages must be known', resource: grouped('certificates', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false),
      steps: [
        { op: 'create', object: { spec: { request: csrRequest, signerName: names.name('signerApiClient'), usages: ['client auth'] } }, expect: created({ 'spec.usages': ['client auth'] }) },
        { op: 'update', merge: { metadata: { labels: { l: 'v' } } }, expect: ok({ 'metadata.labels.l': 'v' }) },
        // An update keeps the stored spec (the CSR strategy's PrepareForUpdate), so a changed spec is silently kept.
        { op: 'update', merge: { spec: { usages: ['client auth', 'server auth'] } }, expect: ok({ 'spec.usages': ['client auth'] }) },
      ],
    },
    {
      name: 'CertificateSigningRequest: an update is validated (label values)', resource: grouped('certificates', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false),
      steps: [
        { op: 'create', object: { spec: { request: csrRequest, signerName: names.name('signerApiClient'), usages: ['client auth'] } }, expect: created() },
        { op: 'update', merge: { metadata: { labels: { l: 'a b' } } }, expect: invalid(['metadata.labels'], ['a valid label must be an empty string or consist of alphanumeric characters']) },
      ],
    },
    rejectedCreate('CertificateSigningRequest: an unknown usage', grouped('certificates', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false),
      { spec: { request: csrRequest, signerName: names.name('signerApiClient'), usages: ['client auth', 'bogus'] } }, ['spec.usages[1]']),
    {
      name: 'ComponentStatus: listed (read-only, deprecated)', resource: core('componentstatuses', 'ComponentStatus', false),
      steps: [{ op: 'list', expect: { code: 200, values: { kind: 'ComponentStatusList' } } }],
    },
    {
      name: 'Binding (the bindings resource): binds a pod; a target name is required', resource: core('bindings', 'Binding'),
      steps: [
        { op: 'pod', expect: created() },
        { op: 'create', object: { metadata: { name: 'bound-through-bindings' }, target: { kind: 'Node' } }, expect: invalid(['target.name']) },
        { op: 'create', object: { metadata: { name: 'bound-through-bindings' }, target: { kind: 'Node', name: 'node-1' } }, expect: { code: 201 } },
      ],
    },
    {
      name: 'Binding: a pod is bound once', resource: core('pods', 'Pod'),
      steps: [
        { op: 'create', object: { spec: { containers: [{ name: 'a', image: 'nginx' }] } }, expect: created() },
        { op: 'binding', target: 'node-1', expect: created() },
        { op: 'get', expect: ok({ 'spec.nodeName': 'node-1' }) },
        { op: 'binding', target: 'node-2', expect: { code: 409, reason: 'Conflict' } },
      ],
    },
  ];
  return cases;
}
