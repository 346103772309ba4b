/**
 * batch/v1 Jobs (pkg/registry/batch/job, batch/v1 defaults): `parallelism` and `completions` 1 when both are unset,
 * `backoffLimit` 6, `completionMode` NonIndexed, `suspend` false, the template's labels on a job without labels; without `manualSelector` the selector is
 * generated from the uid and the template gets the controller-uid and job-name labels (both the
 * `batch.<domain>/` ones and the legacy bare ones); the template's restart policy is OnFailure or Never, and the
 * template, selector, completions and completion mode are immutable.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { child, immutable, sameJson, setDefault } from './pod-spec.js';
import { nonNegative, workloadStrategy } from './workload.js';

/** SetDefaults_Job's spec defaults, in place. */
export function defaultJobSpec(spec: Record<string, unknown>): void {
  if (spec['completions'] === undefined && spec['parallelism'] === undefined) {
    spec['completions'] = 1;
    spec['parallelism'] = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
}

/** Job spec checks beyond the workload ones. */
export function validateJobSpec(spec: Record<string, unknown>, path = 'spec'): FieldError[] {
  const errs = [
    ...nonNegative(spec, 'parallelism', `${path}.parallelism`),
    ...nonNegative(spec, 'completions', `${path}.completions`),
    ...nonNegative(spec, 'backoffLimit', `${path}.backoffLimit`),
  ];
  const mode = spec['completionMode'];
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(fieldError.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
  if (mode === 'Indexed' && spec['completions'] === undefined) errs.push(fieldError.required(`${path}.completions`, 'when completion mode is Indexed'));
  return errs;
}

/** The template fields a suspended job that never started may change (JobMutableNodeSchedulingDirectives, GA in 1.27). */
const schedulingDirectives = ['nodeSelector', 'affinity', 'tolerations', 'schedulingGates'];

function withoutSchedulingDirectives(template: unknown): unknown {
  const t = structuredClone(record(template) ?? {});
  delete t['metadata'];
  const spec = record(t['spec']);
  if (spec !== undefined) for (const key of schedulingDirectives) delete spec[key];
  return t;
}

/**
 * ValidateJobSpecUpdate: selector (checked by the workload rules), completion mode and pod failure policy are
 * immutable; completions too, except on an Indexed job changing them in tandem with parallelism
 * (ElasticIndexedJob, beta in 1.27); the template is immutable except its labels, annotations and scheduling
 * directives while the job is suspended and has never started.
 */
function validateJobSpecUpdate(spec: Record<string, unknown>, old: Record<string, unknown>, _object: KubeObject, oldObject: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (spec['completionMode'] === 'Indexed') {
    if (!sameJson(spec['completions'], old['completions']) && spec['completions'] !== undefined && spec['completions'] !== spec['parallelism']) {
      errs.push(fieldError.invalid('spec.completions', spec['completions'], 'can only be modified in tandem with spec.parallelism'));
    }
  } else {
    errs.push(...immutable('spec.completions', spec['completions'], old['completions']));
  }
  const mutableScheduling = old['suspend'] === true && record(oldObject.status)?.['startTime'] === undefined;
  if (mutableScheduling) {
    if (!sameJson(withoutSchedulingDirectives(spec['template']), withoutSchedulingDirectives(old['template']))) {
      errs.push(fieldError.invalid('spec.template', spec['template'], 'field is immutable'));
    }
  } else {
    errs.push(...immutable('spec.template', spec['template'], old['template']));
  }
  errs.push(...immutable('spec.completionMode', spec['completionMode'], old['completionMode']));
  errs.push(...immutable('spec.podFailurePolicy', spec['podFailurePolicy'], old['podFailurePolicy']));
  return errs;
}

/** The job strategy of a flavour. */
export function jobStrategy(names: Names): Strategy {
  const uidLabel = names.domain('controller-uid', 'batch');
  const nameLabel = names.domain('job-name', 'batch');
  return workloadStrategy({
    kindWord: 'job',
    initialStatus: () => ({}),
    names,
    selectorOptional: false,
    restartPolicies: ['OnFailure', 'Never'],
    defaults(spec, object: KubeObject) {
      defaultJobSpec(spec);
      // SetDefaults_Job: a job without labels takes its template's (before the generated ones are added).
      const templateLabels = record(record(record(spec['template'])?.['metadata'])?.['labels']);
      if (templateLabels !== undefined && Object.keys(templateLabels).length > 0 && Object.keys(object.metadata?.labels ?? {}).length === 0) {
        // In place: the caller holds this metadata object.
        (object.metadata ??= {}).labels = { ...(templateLabels as Record<string, string>) };
      }
      const uid = object.metadata?.uid;
      if (spec['manualSelector'] !== true && spec['selector'] === undefined && uid !== undefined) {
        spec['selector'] = { matchLabels: { [uidLabel]: uid } };
        const template = child(spec, 'template');
        const meta = child(template, 'metadata');
        const name = object.metadata?.name ?? '';
        meta['labels'] = { ...(record(meta['labels']) ?? {}), [uidLabel]: uid, [nameLabel]: name, 'controller-uid': uid, 'job-name': name };
      }
    },
    validateSpec: (spec) => validateJobSpec(spec),
    validateSpecUpdate: validateJobSpecUpdate,
  });
}
