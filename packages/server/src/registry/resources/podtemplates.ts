/**
 * PodTemplates (pkg/registry/core/podtemplate; ValidatePodTemplate and its update): the template's pod spec gets
 * SetDefaults_PodSpec and is checked as a pod spec, its labels as labels; generation starts at 1 and moves with the
 * template; a delete answers with the object.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { child, defaultPodSpec, validateLabelMap, validatePodSpec } from './pod-spec.js';

function defaults(object: KubeObject, old?: KubeObject): void {
  dropDisabledTemplateFields(object['template'], old?.['template']);
  const template = record(object['template']);
  if (template !== undefined) defaultPodSpec(child(template, 'spec'));
}

function validate(object: KubeObject) {
  const template = record(object['template']) ?? {};
  return [
    ...validateLabelMap(record(template['metadata'])?.['labels'], 'template.metadata.labels'),
    ...validatePodSpec(record(template['spec']), 'template.spec'),
  ];
}

/** The podtemplate strategy. */
export function podTemplateStrategy(names?: Names): Strategy {
  return defineStrategy({
    warnings: (object) => (names === undefined ? [] : podTemplateWarnings(names, object['template'], 'template.')),
    returnDeletedObject: true, tracksGeneration: true, prepareForCreate: (object) => defaults(object), prepareForUpdate: defaults, validate, validateUpdate: validate });
}
