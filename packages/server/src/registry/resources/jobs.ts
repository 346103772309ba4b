/**
 * batch/v1 Jobs (pkg/registry/batch/job, batch/v1 defaults): `parallelism` and `completions` 1 when both are unset,
 * `backoffLimit` 6, `completionMode` NonIndexed, `suspend` false; without `manualSelector` the selector is
 * generated from the uid and the template gets the controller-uid and job-name labels (both the
 * `batch.<domain>/` ones and the legacy bare ones); the template's restart policy is OnFailure or Never, and the
 * template, selector, completions and completion mode are immutable.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { child, immutable, setDefault } from './pod-spec.js';
import { nonNegative, workloadStrategy } from './workload.js';

/** Job spec defaults, in place (also used for CronJob's jobTemplate). */
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

/** The job strategy of a flavour. */
export function jobStrategy(names: Names): Strategy {
  const uidLabel = names.domain('controller-uid', 'batch');
  const nameLabel = names.domain('job-name', 'batch');
  return workloadStrategy({
    kindWord: 'job',
    names,
    selectorOptional: false,
    restartPolicies: ['OnFailure', 'Never'],
    defaults(spec, object: KubeObject) {
      defaultJobSpec(spec);
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
    validateSpecUpdate: (spec, old) => [
      ...immutable('spec.template', spec['template'], old['template']),
      ...immutable('spec.completions', spec['completions'], old['completions']),
      ...immutable('spec.completionMode', spec['completionMode'], old['completionMode']),
    ],
  });
}
