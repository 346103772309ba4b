/**
 * batch/v1 CronJobs (pkg/registry/batch/cronjob, ValidateCronJobCreate and ValidateCronJobUpdate, batch/v1
 * defaults, 1.27): `concurrencyPolicy` Allow, `suspend` false, `successfulJobsHistoryLimit` 3,
 * `failedJobsHistoryLimit` 1, the pod template's defaults (not a Job's); a name of at most 52 characters on create;
 * the schedule a cron expression of five fields (or a `@` macro) without TZ unless the stored one had it; the time
 * zone checked on create and when it changes; the job template checked as ValidateJobTemplateSpec does (its pod
 * template as ValidatePodTemplateSpec, OnFailure or Never, no selector); warnings for the name, the pod template and
 * TZ in the schedule.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { dnsLabelNameWarnings, validateJobSpec } from './jobs.js';
import { isSet, obj, text, type Json } from './field-checks.js';
import {
  child, podAnnotationKeys, podTemplateOptions, sameJson, setDefault, specOf, validatePodTemplateSpec, type PodAnnotationKeys, type PodSpecOptions,
} from './pod-spec.js';
import { defaultWorkloadTemplate, jobRestartPolicyErrors, nonNegative } from './workload.js';

const macros = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
const cronField = /^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/\d+)?(,(\*|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/\d+)?)*$/;

/** True when `schedule` parses as a standard cron schedule (robfig/cron's ParseStandard, roughly). */
export function isCronSchedule(schedule: string): boolean {
  let s = schedule.trim();
  if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) s = s.slice(s.indexOf(' ') + 1).trim();
  if (s.startsWith('@')) return macros.includes(s) || /^@every \S+$/.test(s);
  const fields = s.split(/\s+/);
  return fields.length === 5 && fields.every((f) => cronField.test(f));
}

/** validateTimeZone: a non-empty explicit IANA zone name Go can load. */
function timeZoneErrors(zone: unknown): FieldError[] {
  if (zone === undefined || zone === null) return [];
  const text = String(zone);
  if (text === '') return [fieldError.invalid('spec.timeZone', text, 'timeZone must be nil or non-empty string')];
  if (text.split('/').some((p) => p === '.' || p === '..' || p.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(p))) {
    return [fieldError.invalid('spec.timeZone', text, `unknown time zone ${text}`)];
  }
  if (text.toLowerCase() === 'local') return [fieldError.invalid('spec.timeZone', text, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: text });
  } catch {
    return [fieldError.invalid('spec.timeZone', text, `unknown time zone ${text}`)];
  }
  return [];
}

/**
 * ValidateJobTemplateSpec at `spec.jobTemplate`: the job spec's checks, its pod template, restart policy, and no
 * selector (it is generated for each job).
 */
function jobTemplateErrors(jobSpec: Json, keys: PodAnnotationKeys, options: PodSpecOptions): FieldError[] {
  const path = 'spec.jobTemplate.spec';
  const errs = [
    ...validateJobSpec(jobSpec, path),
    ...validatePodTemplateSpec(obj(jobSpec['template']), `${path}.template`, keys, undefined, options),
    ...jobRestartPolicyErrors(jobSpec, path),
  ];
  if (isSet(jobSpec['selector'])) errs.push(fieldError.invalid(`${path}.selector`, jobSpec['selector'], '`selector` will be auto-generated'));
  if (jobSpec['manualSelector'] === true) errs.push(fieldError.notSupported(`${path}.manualSelector`, true, ['nil', 'false']));
  return errs;
}

/** validateCronJobSpec (old absent on create: the time zone is checked on create and when it changes). */
function validateSpec(object: KubeObject, keys: PodAnnotationKeys, options: PodSpecOptions, old?: KubeObject): FieldError[] {
  const spec = obj(object['spec']);
  const oldSpec = record(old?.['spec']);
  const errs: FieldError[] = [];
  const schedule = text(spec['schedule']);
  const allowTz = oldSpec !== undefined && text(oldSpec['schedule']).includes('TZ');
  if (schedule === '') errs.push(fieldError.required('spec.schedule'));
  else {
    if (!isCronSchedule(schedule)) errs.push(fieldError.invalid('spec.schedule', schedule, `unparseable schedule: ${schedule}`));
    if (allowTz && schedule.includes('TZ') && isSet(spec['timeZone'])) {
      errs.push(fieldError.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    } else if (!allowTz && schedule.includes('TZ')) {
      errs.push(fieldError.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    }
  }
  errs.push(...nonNegative(spec, 'startingDeadlineSeconds', 'spec.startingDeadlineSeconds'));
  if (oldSpec === undefined || !sameJson(oldSpec['timeZone'], spec['timeZone'])) errs.push(...timeZoneErrors(spec['timeZone']));
  const policy = text(spec['concurrencyPolicy']);
  if (policy === '') errs.push(fieldError.required('spec.concurrencyPolicy'));
  else if (!['Allow', 'Forbid', 'Replace'].includes(policy)) errs.push(fieldError.notSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace']));
  errs.push(...jobTemplateErrors(obj(obj(spec['jobTemplate'])['spec']), keys, options));
  errs.push(...nonNegative(spec, 'successfulJobsHistoryLimit', 'spec.successfulJobsHistoryLimit'));
  errs.push(...nonNegative(spec, 'failedJobsHistoryLimit', 'spec.failedJobsHistoryLimit'));
  return errs;
}

const jobTemplateOf = (o: KubeObject | undefined): unknown => record(record(record(o?.['spec'])?.['jobTemplate'])?.['spec'])?.['template'];

/** CronJob warnings (WarningsOnCreate; the pod template's on update too): the name, the template, TZ in the schedule. */
function cronJobWarnings(names: Names, object: KubeObject, old?: KubeObject): string[] {
  const out = old === undefined ? dnsLabelNameWarnings(object.metadata?.name ?? '') : [];
  out.push(...podTemplateWarnings(names, jobTemplateOf(object), 'spec.jobTemplate.spec.template.'));
  // kube words the path `spec.spec.schedule`.
  if (old === undefined && text(obj(object['spec'])['schedule']).includes('TZ')) {
    out.push('CRON_TZ or TZ used in spec.spec.schedule is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details');
  }
  return out;
}

/** The cronjob strategy of a flavour under the server's gates. */
export function cronJobStrategy(names: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  const keys = podAnnotationKeys(names);
  const prepare = (object: KubeObject, old?: KubeObject): void => {
    dropDisabledTemplateFields(jobTemplateOf(object), jobTemplateOf(old), gates);
  };
  const defaults = (object: KubeObject): void => {
    const spec = specOf(object);
    setDefault(spec, 'concurrencyPolicy', 'Allow');
    setDefault(spec, 'suspend', false);
    setDefault(spec, 'successfulJobsHistoryLimit', 3);
    setDefault(spec, 'failedJobsHistoryLimit', 1);
    // SetDefaults_Job takes a Job, not a JobSpec: a job template gets only its pod template's defaults.
    defaultWorkloadTemplate(child(child(spec, 'jobTemplate'), 'spec'));
  };
  return defineStrategy({
    warnings: (object, old) => cronJobWarnings(names, object, old),
    hasStatus: true,
    initialStatus: () => ({}),
    tracksGeneration: true,
    defaults,
    prepareForCreate: (object) => prepare(object),
    prepareForUpdate: prepare,
    validate(object) {
      const errs = validateSpec(object, keys, podTemplateOptions(undefined, gates));
      // The controller names each job `<cronjob>-<11 characters>`, and job names are at most 63 characters.
      const name = object.metadata?.name ?? '';
      if (name.length > 52) errs.push(fieldError.invalid('metadata.name', name, 'must be no more than 52 characters'));
      return errs;
    },
    validateUpdate: (object, old) => validateSpec(object, keys, podTemplateOptions(jobTemplateOf(old), gates), old),
  });
}
