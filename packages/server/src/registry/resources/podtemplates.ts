/**
 * PodTemplates (pkg/registry/core/podtemplate; ValidatePodTemplate and its update, 1.27): the template's pod spec
 * gets SetDefaults_PodSpec and is checked as ValidatePodTemplateSpec checks it (labels at `template.labels`);
 * generation starts at 1 and moves with the template; a delete answers with the object.
 */
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import type { KubeObject, Names } from '@svc-apiserver/api';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { defaultPodSpec, podAnnotationKeys, podTemplateOptions, validatePodTemplateSpec } from './pod-spec.js';
import { child } from './object-fields.js';
import { obj } from './field-checks.js';
import { coreMetaErrors } from './core-meta.js';

/** The podtemplate strategy of a flavour under the server's gates. */
export function podTemplateStrategy(names: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  const keys = podAnnotationKeys(names);
  const defaults = (object: KubeObject): void => {
    const template = record(object['template']);
    if (template !== undefined) defaultPodSpec(child(template, 'spec'));
  };
  const prepare = (object: KubeObject, old?: KubeObject): void => dropDisabledTemplateFields(object['template'], old?.['template'], gates);
  const validate = (object: KubeObject, old?: KubeObject) => [
    ...coreMetaErrors(object, names),
    ...validatePodTemplateSpec(obj(object['template']), 'template', keys, undefined, podTemplateOptions(old?.['template'], gates)),
  ];
  return defineStrategy({
    warnings: (object) => podTemplateWarnings(names, object['template'], 'template.'),
    returnDeletedObject: true, tracksGeneration: true, defaults,
    prepareForCreate: (object) => prepare(object), prepareForUpdate: prepare,
    validate: (object) => validate(object), validateUpdate: validate,
  });
}
