/**
 * ReplicationControllers (pkg/registry/core/replicationcontroller; SetDefaults_ReplicationController;
 * ValidateReplicationController and its update): status subresource, generation tracks spec changes; `replicas`
 * 1, an empty selector taken from the template's labels and empty labels from the template's; the selector must be
 * set and select the template, whose restart policy is Always; the template is a pod template with the pod spec's
 * defaults and checks.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { defaultPodTemplate, setDefault, specOf, validateLabelMap, validatePodSpec } from './pod-spec.js';
import { nonNegative } from './workload.js';

/** The field selector set (ControllerToSelectableFields): `status.replicas` as Go prints an int (0 when unset). */
function rcFields(object: KubeObject): Record<string, string> {
  const replicas = (object.status as { replicas?: unknown } | undefined)?.replicas;
  return { 'status.replicas': String(typeof replicas === 'number' ? replicas : 0) };
}

function defaultRc(object: KubeObject, old?: KubeObject): void {
  const spec = specOf(object);
  dropDisabledTemplateFields(spec['template'], record(old?.['spec'])?.['template']);
  const labels = record(record(record(spec['template'])?.['metadata'])?.['labels']);
  if (labels !== undefined && Object.keys(labels).length > 0) {
    if (Object.keys(record(spec['selector']) ?? {}).length === 0) spec['selector'] = { ...labels };
    const meta = (object.metadata ??= {});
    if (Object.keys(meta.labels ?? {}).length === 0) meta.labels = { ...(labels as Record<string, string>) };
  }
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(spec);
}

/** ValidateReplicationControllerSpec. */
function validateRc(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs = nonNegative(spec, 'minReadySeconds', 'spec.minReadySeconds');
  const selector = record(spec['selector']) ?? {};
  if (Object.keys(selector).length === 0) errs.push(fieldError.required('spec.selector'));
  else errs.push(...validateLabelMap(selector, 'spec.selector'));
  errs.push(...nonNegative(spec, 'replicas', 'spec.replicas'));
  const template = record(spec['template']);
  if (template === undefined) errs.push(fieldError.required('spec.template'));
  else {
    const labels = (record(record(template['metadata'])?.['labels']) ?? {}) as Record<string, string>;
    if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
      errs.push(fieldError.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
    errs.push(...validateLabelMap(labels, 'spec.template.metadata.labels'));
    errs.push(...validatePodSpec(record(template['spec']), 'spec.template.spec', ['Always']));
    const deadline = record(template['spec'])?.['activeDeadlineSeconds'];
    if (deadline !== undefined && deadline !== null) {
      errs.push(fieldError.invalid('spec.template.spec.activeDeadlineSeconds', deadline, 'activeDeadlineSeconds in ReplicationController is not Supported'));
    }
  }
  return errs;
}

/** The replicationcontroller strategy. */
export function replicationControllerStrategy(names?: Names): Strategy {
  return defineStrategy({
    warnings: (object) => (names === undefined ? [] : podTemplateWarnings(names, record(object['spec'])?.['template'], 'spec.template.')),
    hasStatus: true, initialStatus: () => ({ replicas: 0 }), tracksGeneration: true, returnDeletedObject: true, selectableFields: rcFields,
    prepareForCreate: (object) => defaultRc(object),
    prepareForUpdate: defaultRc,
    validate: validateRc,
    validateUpdate: validateRc,
  });
}
