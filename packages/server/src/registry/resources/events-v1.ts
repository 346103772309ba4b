/**
 * events/v1 Events (pkg/registry/core/event served in the events group): created by PUT as well, and validated as
 * kube 1.27's ValidateEventCreate and ValidateEventUpdate do for events/v1, on the internal (core) form, so errors
 * carry the core field names (`message` for `note`, `involvedObject` for `regarding`, `count`, `source`, ...): the
 * legacy rules (namespace agreement, reporting controller as a qualified name, instance, action and reason within
 * 128 characters, a note within 1024), then `eventTime` required, `type` Normal or Warning, the deprecated fields
 * unset and a `series` with a count of at least 2 and its `lastObservedTime`. An update may change only the series
 * (checked again when it changes) and metadata.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { eventFieldPairs } from '../conversion/events-v1.js';
import { renameFields } from '../conversion/resource-conversion.js';
import { defineStrategy, fieldsAt, stringAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { validateCoreEvent } from './events.js';
import { isSet, num, obj, text, type Json } from './field-checks.js';
import { immutable, sameJson } from './object-fields.js';

/** The event in the core v1 form, as kube validates its internal object. */
function coreForm(event: KubeObject): Json {
  return renameFields(event as Json, eventFieldPairs);
}

/** validateV1EventSeries. */
function seriesErrors(event: Json): FieldError[] {
  if (!isSet(event['series'])) return [];
  const series = obj(event['series']);
  const errs: FieldError[] = [];
  if (num(series['count']) < 2) errs.push(fieldError.invalid('series.count', '', 'should be at least 2'));
  if (!isSet(series['lastObservedTime'])) errs.push(fieldError.required('series.lastObservedTime'));
  return errs;
}

/** ValidateEventCreate for events/v1. */
export function validateEventV1(event: KubeObject, systemNamespace: string): FieldError[] {
  const core = coreForm(event);
  const errs = [...validateCoreEvent(core as KubeObject, systemNamespace, 'reportingController'), ...seriesErrors(core)];
  if (!isSet(core['eventTime'])) errs.push(fieldError.required('eventTime'));
  const type = text(core['type']);
  if (type !== 'Normal' && type !== 'Warning') errs.push(fieldError.invalid('type', '', `has invalid value: ${type}`));
  for (const key of ['firstTimestamp', 'lastTimestamp', 'count']) {
    if (isSet(core[key]) && core[key] !== 0) errs.push(fieldError.invalid(key, '', 'needs to be unset'));
  }
  const source = obj(core['source']);
  if (text(source['component']) !== '' || text(source['host']) !== '') errs.push(fieldError.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** A struct or scalar as Go compares it: absent is the zero value. */
function zero(value: unknown, empty: unknown): unknown {
  return isSet(value) ? value : empty;
}

/** ValidateEventUpdate for events/v1: the legacy rules, the series when it changed, and every other field immutable. */
function validateEventV1Update(event: KubeObject, old: KubeObject, systemNamespace: string): FieldError[] {
  const now = coreForm(event);
  const before = coreForm(old);
  const errs = validateCoreEvent(now as KubeObject, systemNamespace, 'reportingController');
  if (!sameJson(now['series'] ?? null, before['series'] ?? null)) errs.push(...seriesErrors(now));
  const same = (key: string, empty: unknown, path = key): FieldError[] => immutable(path, zero(now[key], empty), zero(before[key], empty));
  // kube checks the reason twice.
  errs.push(
    ...same('involvedObject', {}), ...same('reason', ''), ...same('message', ''), ...same('source', {}),
    ...same('firstTimestamp', null), ...same('lastTimestamp', null), ...same('count', 0), ...same('reason', ''), ...same('type', ''),
    ...same('eventTime', null), ...same('action', ''), ...same('related', null),
    ...same('reportingComponent', '', 'reportingController'), ...same('reportingInstance', ''),
  );
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

/** The events/v1 event strategy of a flavour. */
export function eventV1Strategy(names: Names): Strategy {
  const system = names.name('systemNamespace');
  return defineStrategy({
    allowCreateOnUpdate: true,
    validate: (event) => validateEventV1(event, system),
    validateUpdate: (event, old) => validateEventV1Update(event, old, system),
    selectableFields: eventV1Fields,
  });
}
