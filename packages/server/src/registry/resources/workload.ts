/**
 * The shape every pod-template workload shares (apps/v1 Deployment, ReplicaSet, DaemonSet, StatefulSet; batch/v1
 * Job): status subresource, generation tracking, the pod template's defaults, a required selector that must
 * select the template's labels (ValidateDeploymentSpec and friends: "`selector` does not match template
 * `labels`"), and an immutable selector (apps/v1). Each kind adds its own defaults and checks.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { defaultPodTemplate, immutable, selectorMatches, specOf, validateLabelMap, validateLabelSelector, validatePodSpec } from './pod-spec.js';

type Json = Record<string, unknown>;

/** What a workload kind adds. */
export interface WorkloadOptions {
  /** The kind's spec defaults (in place), run before the template's. */
  readonly defaults?: (spec: Json, object: KubeObject) => void;
  /** The kind's spec checks beyond the shared ones. */
  readonly validateSpec?: (spec: Json) => FieldError[];
  /** The kind's update checks beyond the immutable selector. */
  readonly validateSpecUpdate?: (spec: Json, old: Json, object: KubeObject, oldObject: KubeObject) => FieldError[];
  /** Restart policies the template may use (Jobs: OnFailure, Never). */
  readonly restartPolicies?: readonly string[];
  /** `spec.selector` may be absent (Jobs generate it). Default false. */
  readonly selectorOptional?: boolean;
  /** The flavour's names, for the pod template's warnings (GetWarningsForPodTemplate); none without. */
  readonly names?: Names;
  /**
   * The kind named when the template sets activeDeadlineSeconds, which it may not (kube words Deployments' and
   * ReplicaSets' as `ReplicaSet`); absent where the deadline is allowed (Jobs).
   */
  readonly deadlineWord?: string;
  /** The kind's zero status, as a create leaves it (see StrategyOptions.initialStatus). */
  readonly initialStatus: () => Json;
  /** The word of the empty-selector message (`deployment` for Deployments and ReplicaSets, as kube words it). */
  readonly kindWord: string;
}

/** A non-negative integer check at `path`. */
export function nonNegative(spec: Json, key: string, path: string): FieldError[] {
  const v = spec[key];
  if (v === undefined) return [];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? [] : [fieldError.invalid(path, v, 'must be greater than or equal to 0')];
}

function validateWorkload(object: KubeObject, options: WorkloadOptions): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [];
  const selector = spec['selector'];
  const template = record(spec['template']);
  const labels = (record(record(template?.['metadata'])?.['labels']) ?? {}) as Record<string, string>;
  if (selector === undefined) {
    if (!options.selectorOptional) errs.push(fieldError.required('spec.selector'));
  } else {
    errs.push(...validateLabelSelector(selector, 'spec.selector'));
    const s = record(selector) ?? {};
    const empty = Object.keys(record(s['matchLabels']) ?? {}).length === 0 && (Array.isArray(s['matchExpressions']) ? s['matchExpressions'] : []).length === 0;
    if (empty) errs.push(fieldError.invalid('spec.selector', selector, `empty selector is invalid for ${options.kindWord}`));
    else if (template !== undefined && !selectorMatches(selector, labels)) {
      errs.push(fieldError.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
  }
  if (template === undefined) errs.push(fieldError.required('spec.template'));
  else {
    errs.push(...validateLabelMap(labels, 'spec.template.metadata.labels'));
    errs.push(...validatePodSpec(record(template['spec']), 'spec.template.spec', options.restartPolicies ?? ['Always']));
    const deadline = record(template['spec'])?.['activeDeadlineSeconds'];
    if (options.deadlineWord !== undefined && deadline !== undefined && deadline !== null) {
      errs.push(fieldError.invalid('spec.template.spec.activeDeadlineSeconds', deadline, `activeDeadlineSeconds in ${options.deadlineWord} is not Supported`));
    }
  }
  errs.push(...nonNegative(spec, 'replicas', 'spec.replicas'), ...nonNegative(spec, 'minReadySeconds', 'spec.minReadySeconds'));
  errs.push(...nonNegative(spec, 'revisionHistoryLimit', 'spec.revisionHistoryLimit'));
  return [...errs, ...(options.validateSpec?.(spec) ?? [])];
}

/** The strategy of a workload kind. */
export function workloadStrategy(options: WorkloadOptions): Strategy {
  const prepare = (object: KubeObject, old?: KubeObject): void => {
    const spec = specOf(object);
    dropDisabledTemplateFields(spec['template'], record(old?.['spec'])?.['template']);
    options.defaults?.(spec, object);
    defaultPodTemplate(spec);
  };
  return defineStrategy({
    hasStatus: true,
    initialStatus: options.initialStatus,
    tracksGeneration: true,
    returnDeletedObject: false,
    prepareForCreate: (object) => prepare(object),
    prepareForUpdate: prepare,
    validate: (object) => validateWorkload(object, options),
    warnings: (object) => (options.names === undefined ? [] : podTemplateWarnings(options.names, record(object['spec'])?.['template'], 'spec.template.')),
    validateUpdate(object, old) {
      const spec = record(object['spec']) ?? {};
      const before = record(old['spec']) ?? {};
      return [
        ...validateWorkload(object, options),
        ...immutable('spec.selector', spec['selector'], before['selector']),
        ...(options.validateSpecUpdate?.(spec, before, object, old) ?? []),
      ];
    },
  });
}
