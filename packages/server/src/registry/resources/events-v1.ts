/**
 * events/v1 Events (pkg/registry/core/event served in the events group): created by PUT as well, and validated as
 * kube's ValidateEventCreate does for events/v1 (document 1's version table): `eventTime` required; `type` only
 * `Normal` or `Warning`; `action`, `reason`, `reportingController` and `reportingInstance` required (at most 128
 * characters each); `note` at most 1 kB; a `series` needs a count of at least 2 and its `lastObservedTime`.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy, fieldsAt, stringAt } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';

const maxFieldLength = 128;
const maxNoteLength = 1024;

/** ValidateEventCreate for events/v1. */
export function validateEventV1(event: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (event['eventTime'] === undefined || event['eventTime'] === null || event['eventTime'] === '') errs.push(fieldError.required('eventTime'));
  const type = event['type'];
  if (type !== 'Normal' && type !== 'Warning') errs.push(fieldError.invalid('type', '', `has invalid value: ${typeof type === 'string' ? type : ''}`));
  for (const field of ['reportingController', 'reportingInstance', 'action', 'reason']) {
    const value = event[field];
    if (typeof value !== 'string' || value === '') errs.push(fieldError.required(field));
    else if (value.length > maxFieldLength) errs.push(fieldError.invalid(field, '', `can have at most ${maxFieldLength} characters`));
  }
  const note = event['note'];
  if (typeof note === 'string' && note.length > maxNoteLength) errs.push(fieldError.invalid('note', '', `can have at most ${maxNoteLength} characters`));
  const series = record(event['series']);
  if (series !== undefined) {
    const count = series['count'];
    if (typeof count !== 'number' || count < 2) errs.push(fieldError.invalid('series.count', '', 'should be at least 2'));
    if (series['lastObservedTime'] === undefined || series['lastObservedTime'] === null) errs.push(fieldError.required('series.lastObservedTime'));
  }
  return errs;
}

const regardingAndCommon = fieldsAt(
  'regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'regarding.apiVersion',
  'regarding.resourceVersion', 'regarding.fieldPath', 'reason', 'reportingController', 'type',
);

/**
 * The field selectors of events/v1 (kube's events/v1 field label conversion: the core event's fields under their
 * events/v1 names — `regarding.*`, `reportingController` — plus `reason`, `type` and the `source` kube still
 * accepts, read from `deprecatedSource.component`).
 */
export function eventV1Fields(event: KubeObject): Record<string, string> {
  return { ...regardingAndCommon(event), source: stringAt(event, 'deprecatedSource.component') };
}

/** The event strategy. */
export function eventV1Strategy(): Strategy {
  return defineStrategy({
    allowCreateOnUpdate: true, validate: validateEventV1, validateUpdate: validateEventV1, selectableFields: eventV1Fields,
  });
}
