/**
 * The configuration kube-apiserver 1.27 creates at start (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap): the
 * mandatory objects (the `exempt` and `catch-all` priority levels and FlowSchemas), which it keeps as they are, and
 * the suggested ones, which it creates when missing and keeps up to date while they carry the auto-update
 * annotation. Names of the naming table are the flavour's (the system namespace, the coordination group).
 */
import type { Names } from '@svc-apiserver/api';
import type { FlowSchema, PolicyRulesWithSubjects, PriorityLevelConfiguration, PriorityLevelConfigurationSpec, ResourcePolicyRule, Subject } from './configuration-objects.js';

/** The configuration objects of one kind of bootstrap set. */
export interface BootstrapConfiguration {
  readonly priorityLevels: readonly PriorityLevelConfiguration[];
  readonly flowSchemas: readonly FlowSchema[];
}

/** The name of the exempt priority level and FlowSchema. */
export const exemptName = 'exempt';
/** The name of the catch-all priority level and FlowSchema. */
export const catchAllName = 'catch-all';

const everything = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] } as const;
const everyURL = { verbs: ['*'], nonResourceURLs: ['*'] } as const;
const users = (...n: string[]): Subject[] => n.map((name) => ({ kind: 'User', user: { name } }));
const groups = (...n: string[]): Subject[] => n.map((name) => ({ kind: 'Group', group: { name } }));

function limited(shares: number, lendablePercent: number, queues: number, handSize: number, queueLengthLimit: number): PriorityLevelConfigurationSpec {
  return { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit } } } };
}

function level(name: string, spec: PriorityLevelConfigurationSpec): PriorityLevelConfiguration {
  return { kind: 'PriorityLevelConfiguration', metadata: { name }, spec };
}

function schema(name: string, pl: string, precedence: number, by: 'ByUser' | 'ByNamespace' | undefined, ...rules: PolicyRulesWithSubjects[]): FlowSchema {
  return {
    kind: 'FlowSchema',
    metadata: { name },
    spec: { priorityLevelConfiguration: { name: pl }, matchingPrecedence: precedence, ...(by === undefined ? {} : { distinguisherMethod: { type: by } }), rules },
  };
}

const all = (...subjects: Subject[]): PolicyRulesWithSubjects => ({ subjects, resourceRules: [everything], nonResourceRules: [everyURL] });

/** The mandatory configuration. */
export function mandatoryConfiguration(): BootstrapConfiguration {
  return {
    priorityLevels: [
      level(exemptName, { type: 'Exempt' }),
      level(catchAllName, { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }),
    ],
    flowSchemas: [
      schema(exemptName, exemptName, 1, undefined, all(...groups('system:masters'))),
      schema(catchAllName, catchAllName, 10000, 'ByUser', all(...groups('system:unauthenticated', 'system:authenticated'))),
    ],
  };
}

/** The suggested configuration of kube-apiserver 1.27. */
export function suggestedConfiguration(names: Names): BootstrapConfiguration {
  const systemNamespace = names.name('systemNamespace');
  const coordination = names.group('coordination');
  const systemServiceAccounts: Subject[] = [{ kind: 'ServiceAccount', serviceAccount: { namespace: systemNamespace, name: '*' } }];
  const leaseRule = (namespaces: string[]): ResourcePolicyRule => ({ verbs: ['get', 'create', 'update'], apiGroups: [coordination], resources: ['leases'], namespaces });
  const lockRule = (namespaces: string[]): ResourcePolicyRule => ({ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints', 'configmaps'], namespaces });
  return {
    priorityLevels: [
      level('system', limited(30, 33, 64, 6, 50)),
      level('node-high', limited(40, 25, 64, 6, 50)),
      level('leader-election', limited(10, 0, 16, 4, 50)),
      level('workload-high', limited(40, 50, 128, 6, 50)),
      level('workload-low', limited(100, 90, 128, 6, 50)),
      level('global-default', limited(20, 50, 128, 6, 50)),
    ],
    flowSchemas: [
      schema('probes', exemptName, 2, undefined, {
        subjects: groups('system:unauthenticated', 'system:authenticated'),
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
      }),
      schema('system-leader-election', 'leader-election', 100, 'ByUser', {
        subjects: [...users('system:kube-controller-manager', 'system:kube-scheduler'), ...systemServiceAccounts],
        resourceRules: [lockRule([systemNamespace]), leaseRule([systemNamespace])],
      }),
      schema('endpoint-controller', 'workload-high', 150, 'ByUser', {
        subjects: [...users('system:kube-controller-manager'), { kind: 'ServiceAccount', serviceAccount: { namespace: systemNamespace, name: 'endpoint-controller' } }],
        resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }],
      }),
      schema('workload-leader-election', 'leader-election', 200, 'ByUser', {
        subjects: systemServiceAccounts,
        resourceRules: [lockRule(['*']), leaseRule(['*'])],
      }),
      schema('system-node-high', 'node-high', 400, 'ByUser', {
        subjects: groups('system:nodes'),
        resourceRules: [
          { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true },
          { verbs: ['*'], apiGroups: [coordination], resources: ['leases'], namespaces: ['*'] },
        ],
      }),
      schema('system-nodes', 'system', 500, 'ByUser', all(...groups('system:nodes'))),
      schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', all(...users('system:kube-controller-manager'))),
      schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', all(...users('system:kube-scheduler'))),
      schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', all(...systemServiceAccounts)),
      schema('service-accounts', 'workload-low', 9000, 'ByUser', all(...groups('system:serviceaccounts'))),
      schema('global-default', 'global-default', 9900, 'ByUser', all(...groups('system:unauthenticated', 'system:authenticated'))),
    ],
  };
}
