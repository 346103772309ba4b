/**
 * Core Events (pkg/registry/core/event; pkg/apis/core/validation legacyValidateEvent, as the v1 endpoint applies it
 * on create and update): created by PUT as well; the involved object's namespace must be the event's (an event
 * without `eventTime` about a cluster-scoped object lives in `default`); a newer event with `eventTime` needs its
 * reporting component and instance, action and reason within kube's length limits. Field selectors on the
 * involved object, reason, source (its component) and type.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { isDns1123Subdomain, isQualifiedName } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, fieldsAt, stringAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

const involved = fieldsAt(
  'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
  'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath',
  'reason', 'reportingComponent', 'type',
);

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * legacyValidateEvent on an event in the core v1 form. The reporting controller is reported as `reportingComponent`
 * through the core v1 endpoint and as `reportingController` through events/v1 (`reportingPath`).
 */
export function validateCoreEvent(object: KubeObject, systemNamespace: string, reportingPath = 'reportingComponent'): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = object.metadata?.namespace ?? '';
  const involvedNamespace = text(record(object['involvedObject'])?.['namespace']);
  const mismatch = (): FieldError => fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (object['eventTime'] === undefined || object['eventTime'] === null) {
    if (involvedNamespace === '') {
      if (namespace !== '' && namespace !== 'default') errs.push(mismatch());
    } else if (namespace !== involvedNamespace) errs.push(mismatch());
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== systemNamespace) errs.push(mismatch());
    const controller = text(object['reportingComponent']);
    if (controller === '') errs.push(fieldError.required(reportingPath));
    for (const msg of isQualifiedName(controller)) errs.push(fieldError.invalid(reportingPath, controller, msg));
    const instance = text(object['reportingInstance']);
    if (instance === '') errs.push(fieldError.required('reportingInstance'));
    if (instance.length > 128) errs.push(fieldError.invalid('reportingInstance', '', 'can have at most 128 characters'));
    const action = text(object['action']);
    if (action === '') errs.push(fieldError.required('action'));
    if (action.length > 128) errs.push(fieldError.invalid('action', '', 'can have at most 128 characters'));
    const reason = text(object['reason']);
    if (reason === '') errs.push(fieldError.required('reason'));
    if (reason.length > 128) errs.push(fieldError.invalid('reason', '', 'can have at most 128 characters'));
    if (text(object['message']).length > 1024) errs.push(fieldError.invalid('message', '', 'can have at most 1024 characters'));
  }
  for (const msg of isDns1123Subdomain(namespace)) errs.push(fieldError.invalid('namespace', namespace, msg));
  return errs;
}

/** The event strategy of a flavour. */
export function eventStrategy(names: Names): Strategy {
  const system = names.name('systemNamespace');
  return defineStrategy({
    allowCreateOnUpdate: true,
    validate: (object) => validateCoreEvent(object, system),
    validateUpdate: (object) => validateCoreEvent(object, system),
    selectableFields: (object: KubeObject) => ({ ...involved(object), source: stringAt(object, 'source.component') }),
  });
}
