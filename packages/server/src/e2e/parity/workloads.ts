/**
 * Workload cases: apps/v1 (Deployments, ReplicaSets, DaemonSets, StatefulSets, ControllerRevisions) and batch/v1
 * (Jobs, CronJobs): defaults, generation, immutable selectors and templates, and the checks of each spec.
 */
import type { Names } from '@svc-apiserver/api';
import { created, grouped, invalid, lifecycle, ok, rejectedCreate, type ParityCase } from './corpus.js';

const labels = { app: 'w' };
const selector = { matchLabels: labels };
const container = { name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80 }] };
const template = { metadata: { labels }, spec: { containers: [container] } };
const jobTemplate = { metadata: { labels }, spec: { containers: [container], restartPolicy: 'Never' } };

/** The workload resources the corpus files write to. */
export const workloadResources = {
  deployments: grouped('apps', 'v1', 'deployments', 'Deployment'),
  replicasets: grouped('apps', 'v1', 'replicasets', 'ReplicaSet'),
  daemonsets: grouped('apps', 'v1', 'daemonsets', 'DaemonSet'),
  statefulsets: grouped('apps', 'v1', 'statefulsets', 'StatefulSet'),
  revisions: grouped('apps', 'v1', 'controllerrevisions', 'ControllerRevision'),
  jobs: grouped('batch', 'v1', 'jobs', 'Job'),
  cronjobs: grouped('batch', 'v1', 'cronjobs', 'CronJob'),
};

/** The workload groups' corpus in a flavour. */
export function workloadCases(names: Names): ParityCase[] {
  const lastApplied = names.domain('last-applied-configuration', 'kubectl');
  const csaConfig = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'csa-to-ssa', namespace: 'parity' }, spec: { selector, template } };
  const { deployments, replicasets, daemonsets, statefulsets, revisions, jobs, cronjobs } = workloadResources;
  return [
    lifecycle('Deployment: defaults, scale, immutable selector', deployments, { spec: { selector, template } },
      { merge: { spec: { replicas: 3 } }, expect: ok({ 'spec.replicas': 3, 'metadata.generation': 2 }) },
      { merge: { spec: { selector: { matchLabels: { app: 'w', x: 'y' } }, template: { metadata: { labels: { app: 'w', x: 'y' } } } } }, causes: ['spec.selector'], message: ['field is immutable'] },
      {
        'spec.replicas': 1, 'spec.strategy.type': 'RollingUpdate', 'spec.strategy.rollingUpdate.maxSurge': '25%', 'spec.revisionHistoryLimit': 10,
        'spec.progressDeadlineSeconds': 600, 'spec.template.spec.containers[0].ports[0].protocol': 'TCP', 'metadata.generation': 1,
        'spec.template.spec.restartPolicy': 'Always', status: {},
      }),
    {
      name: 'Deployment: pod template warnings under spec.template', resource: deployments,
      steps: [{
        op: 'create',
        object: { spec: { selector, template: { ...template, spec: { ...template.spec, volumes: [{ name: 'g', gitRepo: { repository: 'https://example.com/r.git' } }], terminationGracePeriodSeconds: -1 } } } },
        expect: { code: 201, warnings: ['spec.template.spec.volumes[0].gitRepo: deprecated in v1.11', 'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1'] },
      }],
    },
    rejectedCreate('Deployment: selector not matching the template', deployments, { spec: { selector: { matchLabels: { app: 'other' } }, template } }, ['spec.template.metadata.labels']),
    rejectedCreate('Deployment: Recreate with rollingUpdate', deployments, { spec: { selector, template, strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } } }, ['spec.strategy.rollingUpdate']),
    rejectedCreate('Deployment: maxSurge and maxUnavailable both 0', deployments, { spec: { selector, template, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } } },
      ['spec.strategy.rollingUpdate.maxUnavailable'], ['may not be 0 when `maxSurge` is 0']),
    rejectedCreate('Deployment: template restart policy Never', deployments, { spec: { selector, template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } } }, ['spec.template.spec.restartPolicy']),
    {
      name: 'Deployment: server-side apply after client-side writes keys ports by containerPort and protocol', resource: deployments,
      steps: [
        { op: 'create', object: { metadata: { name: 'ssa-migrate' }, spec: { selector, template } }, query: 'fieldManager=kubectl-client-side-apply', expect: created() },
        {
          op: 'patch', type: 'apply', query: 'fieldManager=kubectl',
          body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ssa-migrate' }, spec: { selector, template } },
          expect: ok({ 'spec.template.spec.containers[0].ports': [{ containerPort: 80, protocol: 'TCP' }] }),
        },
      ],
    },
    {
      name: 'Deployment: kubectl server-side apply takes over what its client-side apply recorded', resource: deployments,
      steps: [
        {
          op: 'create', query: 'fieldManager=kubectl-client-side-apply',
          object: { metadata: { name: 'csa-to-ssa', annotations: { [lastApplied]: `${JSON.stringify(csaConfig)}\n` } }, spec: { selector, template } },
          expect: created(),
        },
        {
          op: 'patch', type: 'apply', query: 'fieldManager=other',
          body: { ...csaConfig, spec: { selector, template: { ...template, spec: { containers: [{ ...container, image: 'nginx:1.26' }] } } } },
          expect: { code: 409, reason: 'Conflict' },
        },
        {
          op: 'patch', type: 'apply', query: 'fieldManager=kubectl',
          body: { ...csaConfig, spec: { selector, template: { ...template, spec: { containers: [{ ...container, image: 'nginx:1.26' }] } } } },
          expect: { code: 200, values: { 'spec.template.spec.containers[0].image': 'nginx:1.26' }, message: [] },
        },
        { op: 'get', expect: { code: 200, contains: { [`metadata.annotations[${lastApplied}]`]: 'nginx:1.26' } } },
      ],
    },
    lifecycle('ReplicaSet: defaults and immutable selector', replicasets, { spec: { selector, template } },
      { merge: { spec: { replicas: 2 } } },
      { merge: { spec: { replicas: -1 } }, causes: ['spec.replicas'] },
      { 'spec.replicas': 1, status: { replicas: 0 } }),
    lifecycle('DaemonSet: update strategy defaults', daemonsets, { spec: { selector, template } },
      { merge: { spec: { minReadySeconds: 5 } } },
      { merge: { spec: { updateStrategy: { type: 'Sometimes' } } }, causes: ['spec.updateStrategy'] },
      { 'spec.updateStrategy.type': 'RollingUpdate', 'spec.updateStrategy.rollingUpdate.maxUnavailable': 1, 'spec.revisionHistoryLimit': 10,
        status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
      }),
    lifecycle('StatefulSet: only some spec fields change; claim templates defaulted as claims', statefulsets,
      { spec: { selector, template, serviceName: 'svc', volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } },
      { merge: { spec: { replicas: 2 } } },
      { merge: { spec: { serviceName: 'other' } }, causes: ['spec'], message: ['updates to statefulset spec for fields other than'] },
      {
        'spec.podManagementPolicy': 'OrderedReady', 'spec.updateStrategy.rollingUpdate.partition': 0, 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted': 'Retain',
        'spec.volumeClaimTemplates[0].spec.volumeMode': 'Filesystem', 'spec.volumeClaimTemplates[0].status.phase': 'Pending', status: { replicas: 0, availableReplicas: 0 },
      }),
    rejectedCreate('StatefulSet: unknown pod management policy, OnDelete with rollingUpdate', statefulsets,
      { spec: { selector, template, serviceName: 'svc', podManagementPolicy: 'Sometimes', updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } } },
      ['spec.podManagementPolicy', 'spec.updateStrategy.rollingUpdate']),
    rejectedCreate('DaemonSet: a template deadline is not supported', daemonsets,
      { spec: { selector, template: { ...template, spec: { ...template.spec, activeDeadlineSeconds: 30 } } } },
      ['spec.template.spec.activeDeadlineSeconds'], ['activeDeadlineSeconds in DaemonSet is not Supported']),
    lifecycle('ControllerRevision: data immutable', revisions, { data: { a: 1 }, revision: 1 },
      { merge: { metadata: { labels: { l: 'v' } } } },
      { merge: { data: { a: 2 } }, causes: ['data'], message: ['field is immutable'] }),
    rejectedCreate('ControllerRevision: negative revision', revisions, { data: {}, revision: -1 }, ['revision']),
    lifecycle('Job: generated selector, template immutable', jobs, { spec: { template: jobTemplate } },
      { merge: { spec: { parallelism: 2 } }, expect: ok({ 'spec.parallelism': 2 }) },
      { merge: { spec: { template: { spec: { containers: [{ ...container, image: 'nginx:2' }] } } } }, causes: ['spec.template'] },
      { 'spec.backoffLimit': 6, 'spec.completions': 1, 'spec.completionMode': 'NonIndexed', 'spec.suspend': false, 'metadata.labels': labels, 'metadata.generation': 1, status: {} }),
    {
      name: 'Job: a suspended job that never started may change its scheduling directives, not its containers', resource: jobs,
      steps: [
        { op: 'create', object: { spec: { suspend: true, template: jobTemplate } }, expect: created({ 'spec.suspend': true }) },
        { op: 'update', merge: { spec: { template: { spec: { nodeSelector: { disk: 'ssd' } } } } }, expect: ok({ 'spec.template.spec.nodeSelector.disk': 'ssd' }) },
        { op: 'patch', type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:2' }], expect: invalid(['spec.template']) },
      ],
    },
    {
      name: 'Job: an Indexed job changes completions only with parallelism', resource: jobs,
      steps: [
        { op: 'create', object: { spec: { completionMode: 'Indexed', completions: 2, parallelism: 2, template: jobTemplate } }, expect: created() },
        { op: 'update', merge: { spec: { completions: 3, parallelism: 3 } }, expect: ok({ 'spec.completions': 3 }) },
        { op: 'update', merge: { spec: { completions: 4 } }, expect: invalid(['spec.completions'], ['can only be modified in tandem with spec.parallelism']) },
      ],
    },
    rejectedCreate('Job: restart policy Always', jobs, { spec: { template: { ...jobTemplate, spec: { ...jobTemplate.spec, restartPolicy: 'Always' } } } }, ['spec.template.spec.restartPolicy']),
    lifecycle('CronJob: schedule and history defaults', cronjobs, { spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: jobTemplate } } } },
      { merge: { spec: { suspend: true } } },
      { merge: { spec: { schedule: 'not a schedule' } }, causes: ['spec.schedule'] },
      {
        'spec.concurrencyPolicy': 'Allow', 'spec.successfulJobsHistoryLimit': 3, 'spec.failedJobsHistoryLimit': 1, 'spec.suspend': false,
        'spec.jobTemplate.spec.template.spec.dnsPolicy': 'ClusterFirst', 'spec.jobTemplate.spec.backoffLimit': undefined, 'spec.jobTemplate.spec.completions': undefined,
      }),
    rejectedCreate('CronJob: TZ in the schedule, an unknown time zone', cronjobs,
      { spec: { schedule: 'CRON_TZ=UTC 0 * * * *', timeZone: 'Mars/Olympus', jobTemplate: { spec: { template: jobTemplate } } } },
      ['spec.schedule', 'spec.timeZone'], ['cannot use TZ or CRON_TZ in schedule, use timeZone field instead', 'unknown time zone Mars/Olympus']),
    rejectedCreate('CronJob: unknown concurrency policy', cronjobs, { spec: { schedule: '@hourly', concurrencyPolicy: 'Sometimes', jobTemplate: { spec: { template: jobTemplate } } } }, ['spec.concurrencyPolicy']),
  ];
}
