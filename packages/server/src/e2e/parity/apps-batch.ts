/**
 * apps/v1 and batch/v1 rules compared one by one with kube-apiserver 1.27's apps and batch validation and
 * strategies: where template label errors are reported, the template rules each kind has (a StatefulSet's pod spec
 * is left to its pods), names, generation and template generation, update strategies, Job selectors and pod failure
 * policies, CronJob names and job templates, PodDisruptionBudget values, and the warnings these kinds give.
 */
import { created, grouped, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';
import { workloadResources } from './workloads.js';

const labels = { app: 'ab' };
const selector = { matchLabels: labels };
const container = { name: 'app', image: 'nginx:1.25' };
const template = { metadata: { labels }, spec: { containers: [container] } };
const jobTemplate = { metadata: { labels }, spec: { containers: [container], restartPolicy: 'Never' } };

/** The apps and batch rules' corpus in a flavour. */
export function appsBatchCases(): ParityCase[] {
  const { deployments, daemonsets, statefulsets, replicasets, jobs, cronjobs } = workloadResources;
  const pdbs = grouped('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget');
  const badLabel = { ...labels, '-bad': 'x' };
  return [
    rejectedCreate('Deployment: a template label key error is reported at spec.template.labels', deployments,
      { spec: { selector, template: { ...template, metadata: { labels: badLabel } } } }, ['spec.template.labels']),
    rejectedCreate('ReplicaSet: a template deadline is forbidden, worded for ReplicaSets', replicasets,
      { spec: { selector, template: { ...template, spec: { ...template.spec, activeDeadlineSeconds: 10 } } } },
      ['spec.template.spec.activeDeadlineSeconds'], ['activeDeadlineSeconds in ReplicaSet is not Supported']),
    rejectedCreate('Deployment: an invalid selector cannot be converted to match the template', deployments,
      { spec: { selector: { matchExpressions: [{ key: 'app', operator: 'Sometimes' }] }, template } },
      ['spec.selector', 'spec.selector.matchExpressions[0].operator']),
    {
      name: 'Deployment: a change of annotations bumps the generation (they are copied to replica sets)', resource: deployments,
      steps: [
        { op: 'create', object: { spec: { selector, template } }, expect: created({ 'metadata.generation': 1 }) },
        { op: 'update', merge: { metadata: { annotations: { note: 'a' } } }, expect: ok({ 'metadata.generation': 2 }) },
        { op: 'update', merge: { metadata: { labels: { l: 'v' } } }, expect: ok({ 'metadata.generation': 2 }) },
        { op: 'update', merge: { spec: { progressDeadlineSeconds: 5, minReadySeconds: 5 } }, expect: invalid(['spec.progressDeadlineSeconds'], ['must be greater than minReadySeconds']) },
      ],
    },
    {
      name: 'StatefulSet: the template pod spec is not validated, so a container mounts a claim template', resource: statefulsets,
      steps: [
        {
          op: 'create',
          object: {
            spec: {
              selector, serviceName: 'web',
              template: { ...template, spec: { containers: [{ ...container, volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
              volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
              updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } },
            },
          },
          expect: created({ 'spec.template.spec.containers[0].volumeMounts[0].name': 'data' }, ['spec.updateStrategy.rollingUpdate.maxUnavailable']),
        },
        { op: 'update', merge: { spec: { template: { metadata: { labels: badLabel } } } }, expect: invalid(['spec.template.labels']) },
        { op: 'update', merge: { spec: { template: { spec: { restartPolicy: 'Never' } } } }, expect: invalid(['spec.template.spec.restartPolicy']) },
      ],
    },
    rejectedCreate('StatefulSet: names are DNS labels', statefulsets,
      { metadata: { name: 'web.v1' }, spec: { selector, serviceName: 'web', template } }, ['metadata.name']),
    rejectedCreate('StatefulSet: an unknown retention policy, a negative start ordinal', statefulsets,
      { spec: { selector, serviceName: 'web', template, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' }, ordinals: { start: -1 } } },
      ['spec.persistentVolumeClaimRetentionPolicy.whenDeleted', 'spec.ordinals.start']),
    {
      name: 'DaemonSet: the template generation annotation starts at 1 and moves with the template', resource: daemonsets,
      steps: [
        { op: 'create', object: { spec: { selector, template } }, expect: created({ 'metadata.annotations[deprecated.daemonset.template.generation]': '1' }) },
        { op: 'update', merge: { metadata: { labels: { l: 'v' } } }, expect: ok({ 'metadata.annotations[deprecated.daemonset.template.generation]': '1' }) },
        { op: 'update', merge: { spec: { template: { spec: { containers: [{ ...container, image: 'nginx:1.26' }] } } } }, expect: ok({ 'metadata.annotations[deprecated.daemonset.template.generation]': '2', 'metadata.generation': 2 }) },
        { op: 'update', merge: { metadata: { annotations: { 'deprecated.daemonset.template.generation': '1' } } }, expect: invalid(['spec.templateGeneration'], ['must not be decremented']) },
      ],
    },
    rejectedCreate('DaemonSet: maxSurge and maxUnavailable both non-zero', daemonsets,
      { spec: { selector, template, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } } },
      ['spec.updateStrategy.rollingUpdate.maxSurge'], ['may not be set when maxUnavailable is non-zero']),
    rejectedCreate('DaemonSet: no selector selects nothing, so the template is not selected', daemonsets, { spec: { template } }, ['spec.template.metadata.labels']),
    rejectedCreate('Job: a selector set without manualSelector is not the generated one', jobs, { spec: { selector, template: jobTemplate } },
      ['spec.selector'], ['`selector` not auto-generated']),
    {
      name: 'Job: a manual selector is kept; a name that is no DNS label is warned about', resource: jobs,
      steps: [{
        op: 'create', object: { metadata: { name: 'job.v1' }, spec: { manualSelector: true, selector, template: jobTemplate } },
        expect: {
          code: 201, values: { 'spec.selector': selector },
          warnings: ["metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]"],
        },
      }],
    },
    rejectedCreate('Job: a pod failure policy needs restart policy Never and one requirement per rule', jobs,
      {
        spec: {
          template: { ...jobTemplate, spec: { ...jobTemplate.spec, restartPolicy: 'OnFailure' } },
          podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [0, 3, 2] }, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
        },
      },
      ['spec.template.spec.restartPolicy', 'spec.podFailurePolicy.rules[0]', 'spec.podFailurePolicy.rules[0].onExitCodes.values[0]', 'spec.podFailurePolicy.rules[0].onExitCodes.values'],
      ['only "Never" is supported when podFailurePolicy is specified', 'specifying both OnExitCodes and OnPodConditions is not supported', 'must be ordered']),
    {
      name: 'Job: a pod failure policy is immutable', resource: jobs,
      steps: [
        { op: 'create', object: { spec: { template: jobTemplate, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } } }, expect: created({ 'spec.podFailurePolicy.rules[0].action': 'Ignore' }) },
        { op: 'update', merge: { spec: { backoffLimit: 2 } }, expect: ok({ 'spec.backoffLimit': 2 }) },
        { op: 'update', merge: { spec: { podFailurePolicy: { rules: [{ action: 'Count', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } } }, expect: invalid(['spec.podFailurePolicy']) },
      ],
    },
    rejectedCreate('CronJob: a name over 52 characters, a job template selector', cronjobs,
      { metadata: { name: `c${'x'.repeat(52)}` }, spec: { schedule: '@daily', jobTemplate: { spec: { selector, template: jobTemplate } } } },
      ['metadata.name', 'spec.jobTemplate.spec.selector'], ['must be no more than 52 characters', '`selector` will be auto-generated']),
    rejectedCreate('CronJob: the job template restart policy and template labels are checked', cronjobs,
      { spec: { schedule: '@daily', jobTemplate: { spec: { template: { metadata: { labels: badLabel }, spec: { containers: [container] } } } } } },
      ['spec.jobTemplate.spec.template.labels', 'spec.jobTemplate.spec.template.spec.restartPolicy']),
    {
      name: 'PodDisruptionBudget: values and eviction policy', resource: pdbs,
      steps: [
        { op: 'create', object: { spec: { selector, minAvailable: '50%', unhealthyPodEvictionPolicy: 'AlwaysAllow' } }, expect: created({ 'spec.unhealthyPodEvictionPolicy': 'AlwaysAllow' }) },
        { op: 'update', merge: { spec: { minAvailable: 2 } }, expect: ok({ 'spec.minAvailable': 2, 'metadata.generation': 2 }) },
        { op: 'update', merge: { spec: { minAvailable: '150%', unhealthyPodEvictionPolicy: 'Never' } }, expect: invalid(['spec.minAvailable', 'spec.unhealthyPodEvictionPolicy']) },
      ],
    },
    rejectedCreate('PodDisruptionBudget: a negative maxUnavailable', pdbs,
      { spec: { selector, maxUnavailable: -1 } }, ['spec.maxUnavailable']),
  ];
}
