/**
 * What every pod-template workload shares (apps/v1 Deployment, ReplicaSet, DaemonSet, StatefulSet; batch/v1 Job),
 * as kube-apiserver 1.27's apps and batch validation and strategies have it: status subresource, generation
 * tracking, the pod template's defaults and dropped disabled fields, the selector (required where the kind
 * requires it, not empty, convertible, selecting the template's labels: "`selector` does not match template
 * `labels`" at `spec.template.metadata.labels`), the template as ValidatePodTemplateSpec checks it with the
 * validation options of the stored template (label errors at `spec.template.labels`), the kind's restart policy and
 * deadline rules, and on update an immutable selector. Each kind adds its own defaults and checks.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { podTemplateWarnings } from './pod-warnings.js';
import { dropDisabledTemplateFields } from './dropped-fields.js';
import { obj, text, type Json } from './field-checks.js';
import { hasInvalidLabelValue } from './label-checks.js';
import {
  child, defaultPodSpec, immutable, podAnnotationErrors, podAnnotationKeys, podTemplateOptions, selectorMatches, specOf, validateLabelSelector,
  validatePodTemplateSpec, type PodAnnotationKeys, type PodSpecOptions,
} from './pod-spec.js';
import { validateAnnotations, validateLabels } from '../../meta/object-meta-validation.js';

/** The workload kinds. */
export type WorkloadKind = 'Deployment' | 'ReplicaSet' | 'DaemonSet' | 'StatefulSet' | 'Job';

/** What one validation of a workload knows beyond the object. */
export interface WorkloadContext {
  /** The validation options of the pod template (GetValidationOptionsFromPodTemplate). */
  readonly options: PodSpecOptions;
  readonly keys: PodAnnotationKeys;
  readonly gates: FeatureGates;
}

/** What a workload kind adds. */
export interface WorkloadOptions {
  readonly kind: WorkloadKind;
  readonly names: Names;
  readonly gates?: FeatureGates;
  /** The kind's zero status, as a create leaves it (see StrategyOptions.initialStatus). */
  readonly initialStatus: () => Json;
  /** The kind's defaults (in place), run before the template's, on decode (Strategy.defaults). */
  readonly defaults?: (spec: Json, object: KubeObject) => void;
  /** The kind's dropDisabledFields beyond the template's (`old` the stored spec, absent on create). */
  readonly drop?: (spec: Json, old: Json | undefined, gates: FeatureGates) => void;
  /** What the kind's PrepareForUpdate does beyond keeping status and dropping fields. */
  readonly prepareUpdate?: (object: KubeObject, old: KubeObject) => void;
  /** What the kind's PrepareForCreate does beyond clearing status and dropping fields. */
  readonly prepareCreate?: (object: KubeObject) => void;
  /** What the kind's Validate changes before it checks (a Job's generated selector, once the name is known). */
  readonly beforeValidate?: (object: KubeObject, old?: KubeObject) => void;
  /** The kind's checks of its object (create and update), beyond the shared ones. */
  readonly validate?: (object: KubeObject, context: WorkloadContext, old?: KubeObject) => FieldError[];
  /** The kind's update checks beyond the immutable selector. */
  readonly validateUpdate?: (object: KubeObject, old: KubeObject, context: WorkloadContext) => FieldError[];
  /** The kind's warnings beyond the pod template's. */
  readonly warnings?: (object: KubeObject, old?: KubeObject) => string[];
}

/** A non-negative integer check at `path` (ValidateNonnegativeField), for an optional field. */
export function nonNegative(spec: Json, key: string, path: string): FieldError[] {
  const v = spec[key];
  if (v === undefined || v === null) return [];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? [] : [fieldError.invalid(path, v, 'must be greater than or equal to 0')];
}

/** The shared selector rules of each kind: required, options, empty-selector word, conversion failure message. */
const selectorRules: Readonly<Record<WorkloadKind, { required: boolean; strict: boolean; emptyWord?: string; badMessage?: string; matchWhenEmpty: boolean }>> = {
  Deployment: { required: true, strict: true, emptyWord: 'deployment', badMessage: 'invalid label selector', matchWhenEmpty: false },
  ReplicaSet: { required: true, strict: true, emptyWord: 'deployment', badMessage: 'invalid label selector', matchWhenEmpty: false },
  StatefulSet: { required: true, strict: true, emptyWord: 'statefulset', badMessage: '', matchWhenEmpty: false },
  DaemonSet: { required: false, strict: false, emptyWord: 'daemonset', matchWhenEmpty: true },
  Job: { required: true, strict: false, matchWhenEmpty: true },
};

/** The word kube names a kind by when its template sets activeDeadlineSeconds (Deployments' go through ReplicaSet's check). */
const deadlineWords: Readonly<Partial<Record<WorkloadKind, string>>> = {
  Deployment: 'ReplicaSet', ReplicaSet: 'ReplicaSet', DaemonSet: 'DaemonSet', StatefulSet: 'StatefulSet',
};

function isEmptySelector(selector: unknown): boolean {
  const s = obj(selector);
  return Object.keys(obj(s['matchLabels'])).length === 0 && (Array.isArray(s['matchExpressions']) ? s['matchExpressions'] : []).length === 0;
}

/**
 * The selector checks of a kind: ValidateLabelSelector, an empty selector refused, and, where LabelSelectorAsSelector
 * converts it (an absent selector selects nothing), the template's labels selected.
 */
function selectorErrors(kind: WorkloadKind, spec: Json, options: PodSpecOptions, oldSelector: unknown): FieldError[] {
  const rules = selectorRules[kind];
  const selector = spec['selector'];
  const labels = obj(obj(obj(spec['template'])['metadata'])['labels']) as Record<string, string>;
  const errs: FieldError[] = [];
  const present = selector !== undefined && selector !== null;
  if (!present && rules.required) errs.push(fieldError.required('spec.selector'));
  if (present) {
    const allowInvalid = !rules.strict && (options.allowInvalidLabelValueInSelector || hasInvalidLabelValue(oldSelector));
    errs.push(...validateLabelSelector(selector, 'spec.selector', { allowInvalidLabelValueInSelector: allowInvalid }));
    if (rules.emptyWord !== undefined && isEmptySelector(selector)) errs.push(fieldError.invalid('spec.selector', selector, `empty selector is invalid for ${rules.emptyWord}`));
  }
  // LabelSelectorAsSelector checks keys, operators and values strictly, whatever the validation options.
  const converts = !present || validateLabelSelector(selector, 'spec.selector').length === 0;
  if (!converts) {
    if (rules.badMessage !== undefined) errs.push(fieldError.invalid('spec.selector', selector, rules.badMessage));
  } else if (present ? (rules.matchWhenEmpty || !isEmptySelector(selector)) && !selectorMatches(selector, labels) : rules.matchWhenEmpty) {
    errs.push(fieldError.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  return errs;
}

/**
 * ValidatePodTemplateSpecForStatefulSet: a StatefulSet's template gets its labels, annotations and pod annotations
 * checked, not its pod spec (kube 1.27 leaves the spec to the pods the controller creates, so a container may
 * mount a volume claim template's name).
 */
function statefulSetTemplateErrors(template: Json, keys: PodAnnotationKeys, options: PodSpecOptions): FieldError[] {
  const meta = obj(template['metadata']);
  const annotations = obj(meta['annotations']);
  return [
    ...validateLabels(meta['labels'] as Record<string, string> | undefined, 'spec.template.labels'),
    ...validateAnnotations(annotations as Record<string, string>, 'spec.template.annotations'),
    ...podAnnotationErrors(annotations, obj(template['spec']), keys, options, 'spec.template.annotations'),
  ];
}

/** The template and restart policy checks of a kind. */
function templateErrors(kind: WorkloadKind, spec: Json, context: WorkloadContext): FieldError[] {
  const template = obj(spec['template']);
  const templateSpec = obj(template['spec']);
  const errs = kind === 'StatefulSet'
    ? statefulSetTemplateErrors(template, context.keys, context.options)
    : validatePodTemplateSpec(template, 'spec.template', context.keys, undefined, context.options);
  const restartPolicy = text(templateSpec['restartPolicy']);
  if (kind === 'Job') return [...errs, ...jobRestartPolicyErrors(spec, 'spec')];
  if (restartPolicy !== 'Always') errs.push(fieldError.notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
  const deadline = templateSpec['activeDeadlineSeconds'];
  if (deadline !== undefined && deadline !== null) {
    errs.push(fieldError.forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${deadlineWords[kind]!} is not Supported`));
  }
  return errs;
}

/**
 * A Job spec's restart policy rule at `path` (validateJobSpec): OnFailure or Never, and Never alone with a pod
 * failure policy.
 */
export function jobRestartPolicyErrors(spec: Json, path: string): FieldError[] {
  const restartPolicy = text(obj(obj(spec['template'])['spec'])['restartPolicy']);
  const at = `${path}.template.spec.restartPolicy`;
  if (restartPolicy === 'Always' || restartPolicy === '') return [fieldError.required(at, 'valid values: "OnFailure", "Never"')];
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') return [fieldError.notSupported(at, restartPolicy, ['OnFailure', 'Never'])];
  const failurePolicy = spec['podFailurePolicy'];
  if (failurePolicy !== undefined && failurePolicy !== null && restartPolicy !== 'Never') {
    return [fieldError.invalid(at, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified')];
  }
  return [];
}

/** Defaults of a pod template (`spec.template.spec`) inside a workload's spec; an absent template is Go's zero one. */
export function defaultWorkloadTemplate(spec: Json): void {
  defaultPodSpec(child(child(spec, 'template'), 'spec'));
}

/** The strategy of a workload kind. */
export function workloadStrategy(options: WorkloadOptions): Strategy {
  const gates = options.gates ?? defaultFeatureGates;
  const keys = podAnnotationKeys(options.names);
  const contextFor = (old?: KubeObject): WorkloadContext => ({ options: podTemplateOptions(record(old?.['spec'])?.['template'], gates), keys, gates });
  const prepare = (object: KubeObject, old?: KubeObject): void => {
    const spec = specOf(object);
    const oldSpec = record(old?.['spec']);
    dropDisabledTemplateFields(spec['template'], oldSpec?.['template'], gates);
    options.drop?.(spec, oldSpec, gates);
  };
  const validate = (object: KubeObject, old?: KubeObject): FieldError[] => {
    options.beforeValidate?.(object, old);
    const spec = obj(object['spec']);
    const context = contextFor(old);
    return [
      ...selectorErrors(options.kind, spec, context.options, obj(old?.['spec'])['selector']),
      ...templateErrors(options.kind, spec, context),
      ...(options.validate?.(object, context, old) ?? []),
    ];
  };
  return defineStrategy({
    nameRule: options.kind === 'StatefulSet' ? 'dns1123Label' : 'dns1123Subdomain',
    hasStatus: true,
    initialStatus: options.initialStatus,
    tracksGeneration: true,
    returnDeletedObject: false,
    defaults(object) {
      const spec = specOf(object);
      options.defaults?.(spec, object);
      defaultWorkloadTemplate(spec);
    },
    prepareForCreate(object) {
      prepare(object);
      options.prepareCreate?.(object);
    },
    prepareForUpdate(object, old) {
      prepare(object, old);
      options.prepareUpdate?.(object, old);
    },
    validate: (object) => validate(object),
    warnings: (object, old) => [
      ...podTemplateWarnings(options.names, record(object['spec'])?.['template'], 'spec.template.'),
      ...(options.warnings?.(object, old) ?? []),
    ],
    validateUpdate(object, old) {
      const spec = obj(object['spec']);
      const before = obj(old['spec']);
      return [
        ...validate(object, old),
        // A StatefulSet's selector is held by its rule of which spec fields may change.
        ...(options.kind === 'StatefulSet' ? [] : immutable('spec.selector', spec['selector'], before['selector'])),
        ...(options.validateUpdate?.(object, old, contextFor(old)) ?? []),
      ];
    },
  });
}
