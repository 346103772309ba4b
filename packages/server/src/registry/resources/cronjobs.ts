/**
 * batch/v1 CronJobs (pkg/registry/batch/cronjob, batch/v1 defaults): `concurrencyPolicy` Allow, `suspend` false,
 * `successfulJobsHistoryLimit` 3, `failedJobsHistoryLimit` 1, the pod template's defaults (not a Job's); the
 * schedule must be a cron expression of five fields (or a `@` macro) and the template's restart policy OnFailure
 * or Never.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { validateJobSpec } from './jobs.js';
import { child, defaultPodTemplate, setDefault, specOf, validatePodSpec } from './pod-spec.js';
import { nonNegative } from './workload.js';

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

function prepare(object: KubeObject, old?: KubeObject): void {
  const jobTemplateOf = (o: KubeObject | undefined): unknown => record(record(record(o?.['spec'])?.['jobTemplate'])?.['spec'])?.['template'];
  dropDisabledTemplateFields(jobTemplateOf(object), jobTemplateOf(old));
  const spec = specOf(object);
  setDefault(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  // SetDefaults_Job takes a Job, not a JobSpec: a job template gets only its pod template's defaults.
  defaultPodTemplate(child(child(spec, 'jobTemplate'), 'spec'));
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

/** ValidateCronJob (and its update, where a schedule that already used TZ may keep it). */
function validate(object: KubeObject, old?: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [];
  const schedule = spec['schedule'];
  const oldSchedule = record(old?.['spec'])?.['schedule'];
  const allowTz = typeof oldSchedule === 'string' && oldSchedule.includes('TZ');
  if (typeof schedule !== 'string' || schedule === '') errs.push(fieldError.required('spec.schedule'));
  else {
    if (!isCronSchedule(schedule)) errs.push(fieldError.invalid('spec.schedule', schedule, `unparseable schedule: ${schedule}`));
    if (allowTz && schedule.includes('TZ') && spec['timeZone'] !== undefined && spec['timeZone'] !== null) {
      errs.push(fieldError.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    } else if (!allowTz && schedule.includes('TZ')) {
      errs.push(fieldError.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    }
  }
  errs.push(...timeZoneErrors(spec['timeZone']));
  const policy = spec['concurrencyPolicy'];
  if (!['Allow', 'Forbid', 'Replace'].includes(String(policy))) errs.push(fieldError.notSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace']));
  errs.push(...nonNegative(spec, 'successfulJobsHistoryLimit', 'spec.successfulJobsHistoryLimit'));
  errs.push(...nonNegative(spec, 'failedJobsHistoryLimit', 'spec.failedJobsHistoryLimit'));
  errs.push(...nonNegative(spec, 'startingDeadlineSeconds', 'spec.startingDeadlineSeconds'));
  const jobSpec = record(record(spec['jobTemplate'])?.['spec']) ?? {};
  errs.push(...validateJobSpec(jobSpec, 'spec.jobTemplate.spec'));
  const template = record(jobSpec['template']);
  if (template === undefined) errs.push(fieldError.required('spec.jobTemplate.spec.template'));
  else errs.push(...validatePodSpec(record(template['spec']), 'spec.jobTemplate.spec.template.spec', ['OnFailure', 'Never']));
  return errs;
}

/** The cronjob strategy. */
export function cronJobStrategy(names?: Names): Strategy {
  return defineStrategy({
    warnings: (object) => (names === undefined ? [] : podTemplateWarnings(names, record(record(record(object['spec'])?.['jobTemplate'])?.['spec'])?.['template'], 'spec.jobTemplate.spec.template.')),
    hasStatus: true,
    initialStatus: () => ({}),
    tracksGeneration: true,
    prepareForCreate: (object) => prepare(object),
    prepareForUpdate: prepare,
    validate: (object) => validate(object),
    validateUpdate: (object, old) => validate(object, old),
  });
}
