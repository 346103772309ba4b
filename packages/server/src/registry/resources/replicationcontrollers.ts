/**
 * ReplicationControllers (pkg/registry/core/replicationcontroller; SetDefaults_ReplicationController;
 * ValidateReplicationController, its update and status update, 1.27): status subresource, generation tracks spec
 * changes; `replicas` 1, an empty selector taken from the template's labels and empty labels from the template's;
 * the selector must be non-empty and select the template, which is a valid pod template (ValidatePodTemplateSpec:
 * its labels reported at `spec.template.labels`) restarting Always and without activeDeadlineSeconds; the status
 * counts are non-negative and not above `replicas`.
 */
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { defaultPodTemplate, podAnnotationKeys, podTemplateOptions, validatePodTemplateSpec, type PodAnnotationKeys, type PodSpecOptions } from './pod-spec.js';
import { setDefault, specOf } from './object-fields.js';
import { isSet, nonNegative, num, obj, text } from './field-checks.js';
import { coreMetaErrors } from './core-meta.js';

/** The field selector set (ControllerToSelectableFields): `status.replicas` as Go prints an int (0 when unset). */
function rcFields(object: KubeObject): Record<string, string> {
  const replicas = (object.status as { replicas?: unknown } | undefined)?.replicas;
  return { 'status.replicas': String(typeof replicas === 'number' ? replicas : 0) };
}

/** SetDefaults_ReplicationController: selector and labels from the template's labels, one replica, the template's defaults. */
function defaultRc(object: KubeObject): void {
  const spec = specOf(object);
  const labels = record(record(record(spec['template'])?.['metadata'])?.['labels']);
  if (labels !== undefined && Object.keys(labels).length > 0) {
    if (Object.keys(record(spec['selector']) ?? {}).length === 0) spec['selector'] = { ...labels };
    const meta = (object.metadata ??= {});
    if (Object.keys(meta.labels ?? {}).length === 0) meta.labels = { ...(labels as Record<string, string>) };
  }
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(spec);
}

/** ValidateReplicationControllerSpec with ValidatePodTemplateSpecForRC. */
function validateRc(object: KubeObject, keys: PodAnnotationKeys, names: Names, options: PodSpecOptions): FieldError[] {
  const spec = obj(object['spec']);
  const errs = [...coreMetaErrors(object, names), ...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds')];
  const selector = obj(spec['selector']);
  if (Object.keys(selector).length === 0) errs.push(fieldError.required('spec.selector'));
  errs.push(...nonNegative(spec['replicas'], 'spec.replicas'));
  if (!isSet(spec['template'])) return [...errs, fieldError.required('spec.template')];
  const template = obj(spec['template']);
  const labels = obj(obj(template['metadata'])['labels']);
  if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
    errs.push(fieldError.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template', keys, undefined, options));
  const templateSpec = obj(template['spec']);
  if (templateSpec['restartPolicy'] !== 'Always') errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', text(templateSpec['restartPolicy']), ['Always']));
  if (isSet(templateSpec['activeDeadlineSeconds'])) errs.push(fieldError.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in ReplicationController is not Supported'));
  return errs;
}

/** ValidateReplicationControllerStatus. */
function validateRcStatus(object: KubeObject, names: Names): FieldError[] {
  const status = obj(object.status);
  const errs = coreMetaErrors(object, names);
  for (const field of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
    errs.push(...nonNegative(status[field], `status.${field}`));
  }
  const replicas = num(status['replicas']);
  for (const field of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    if (num(status[field]) > replicas) errs.push(fieldError.invalid(`status.${field}`, num(status[field]), 'cannot be greater than status.replicas'));
  }
  if (num(status['availableReplicas']) > num(status['readyReplicas'])) errs.push(fieldError.invalid('status.availableReplicas', num(status['availableReplicas']), 'cannot be greater than readyReplicas'));
  return errs;
}

/** The replicationcontroller strategy of a flavour. */
export function replicationControllerStrategy(names: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  const keys = podAnnotationKeys(names);
  return defineStrategy({
    warnings: (object) => podTemplateWarnings(names, record(object['spec'])?.['template'], 'spec.template.'),
    hasStatus: true, initialStatus: () => ({ replicas: 0 }), tracksGeneration: true, returnDeletedObject: true, selectableFields: rcFields,
    defaults: defaultRc,
    prepareForCreate: (object) => dropDisabledTemplateFields(specOf(object)['template'], undefined, gates),
    prepareForUpdate: (object, old) => dropDisabledTemplateFields(specOf(object)['template'], record(old['spec'])?.['template'], gates),
    validate: (object) => validateRc(object, keys, names, podTemplateOptions(undefined, gates)),
    validateUpdate: (object, old) => validateRc(object, keys, names, podTemplateOptions(record(old['spec'])?.['template'], gates)),
    status: { prepareForUpdate: genericStatusStrategy.prepareForUpdate, validateUpdate: (object) => validateRcStatus(object, names) },
  });
}
