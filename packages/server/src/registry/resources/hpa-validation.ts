/**
 * HorizontalPodAutoscaler rules on the autoscaling/v2 form, which is the shape of kube's internal type: the v2
 * defaults (pkg/apis/autoscaling/v2 SetDefaults_HorizontalPodAutoscaler: `minReplicas` 1, a CPU utilization target
 * of 80% without metrics, each direction of a `behavior` completed from the controller's built-in rules) and
 * pkg/apis/autoscaling/validation of 1.27: replica bounds, the scale target reference, every metric source and
 * target, and the scaling rules and policies. autoscaling/v1 objects are converted to this form and validated here,
 * so their errors carry the v2 field paths, as kube's do.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isPathSegmentName } from '../../meta/name-rules.js';
import { parseQuantity } from '../../meta/quantity.js';
import { dns1123Label, isSet, num, obj, objects, text, type Json } from './field-checks.js';
import { setDefault } from './object-fields.js';
import { containerResourceNameErrors } from './resource-names.js';

/** MaxPeriodSeconds and MaxStabilizationWindowSeconds. */
const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;
const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];

/** The CPU utilization an HPA without metrics targets (autoscaling.DefaultCPUUtilization). */
export const defaultCpuUtilization = 80;

/** A v2 metric targeting CPU utilization. */
export function cpuUtilizationMetric(percent: unknown): Json {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } } };
}

/** The rules a direction of a v2 `behavior` starts from (defaultHPAScaleUpRules, defaultHPAScaleDownRules). */
const builtInRules = {
  scaleUp: (): Json => ({
    stabilizationWindowSeconds: 0, selectPolicy: 'Max',
    policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
  }),
  // The scale-down window stays unset: the controller's flag decides it.
  scaleDown: (): Json => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] }),
};

/** SetDefaults_HorizontalPodAutoscaler (v2) on a spec. */
export function defaultHpaSpec(spec: Json): void {
  setDefault(spec, 'minReplicas', 1);
  if (objects(spec['metrics']).length === 0) spec['metrics'] = [cpuUtilizationMetric(defaultCpuUtilization)];
  const behavior = spec['behavior'];
  if (!isSet(behavior) || typeof behavior !== 'object') return;
  const b = behavior as Json;
  for (const direction of ['scaleUp', 'scaleDown'] as const) {
    // GenerateHPAScale{Up,Down}Rules: what the object sets replaces the built-in rules field by field.
    const given = obj(b[direction]);
    const rules = builtInRules[direction]();
    for (const field of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) {
      if (isSet(given[field])) rules[field] = given[field];
    }
    b[direction] = rules;
  }
}

/** What an HPA's validation depends on beyond the object (the 1.27 strategy's options). */
export interface HpaValidationOptions {
  /** 0 with HPAScaleToZero, or when the stored object already has `minReplicas: 0`; else 1. */
  readonly minReplicasLowerBound: number;
  /** HPAContainerMetrics (worded into the missing-source message when off). */
  readonly containerMetrics: boolean;
}

/** ValidateCrossVersionObjectReference. */
function crossVersionReferenceErrors(ref: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const value = text(ref[key]);
    if (value === '') errs.push(fieldError.required(`${path}.${key}`));
    else for (const msg of isPathSegmentName(value)) errs.push(fieldError.invalid(`${path}.${key}`, value, msg));
  }
  return errs;
}

/** A quantity's sign, or undefined when it is not set or does not parse. */
function sign(value: unknown): number | undefined {
  if (!isSet(value)) return undefined;
  const q = parseQuantity(value);
  if (q === undefined) return undefined;
  return q.nano > 0n ? 1 : q.nano < 0n ? -1 : 0;
}

/** validateMetricTarget. */
function metricTargetErrors(target: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = text(target['type']);
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) errs.push(fieldError.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  for (const key of ['value', 'averageValue']) {
    const s = sign(target[key]);
    if (s !== undefined && s !== 1) errs.push(fieldError.invalid(`${path}.${key}`, target[key], 'must be positive'));
  }
  if (isSet(target['averageUtilization']) && num(target['averageUtilization']) < 1) {
    errs.push(fieldError.invalid(`${path}.averageUtilization`, target['averageUtilization'], 'must be greater than 0'));
  }
  return errs;
}

/** validateMetricIdentifier. */
function metricIdentifierErrors(metric: Json, path: string): FieldError[] {
  const name = text(metric['name']);
  if (name === '') return [fieldError.required(`${path}.name`, 'must specify a metric name')];
  return isPathSegmentName(name).map((msg) => fieldError.invalid(`${path}.name`, name, msg));
}

/** validateResourceSource and validateContainerResourceSource. */
function resourceSourceErrors(source: Json, path: string, container: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(source['name']);
  if (name === '') errs.push(fieldError.required(`${path}.name`, 'must specify a resource name'));
  else if (container) errs.push(...containerResourceNameErrors(name, `${path}.name`));
  if (container) {
    const c = text(source['container']);
    if (c === '') errs.push(fieldError.required(`${path}.container`, 'must specify a container'));
    else errs.push(...dns1123Label(c, `${path}.container`));
  }
  const target = obj(source['target']);
  errs.push(...metricTargetErrors(target, `${path}.target`));
  if (!isSet(target['averageUtilization']) && !isSet(target['averageValue'])) {
    errs.push(fieldError.required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (isSet(target['averageUtilization']) && isSet(target['averageValue'])) {
    errs.push(fieldError.forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

/** The checks of one metric source, by its field name. */
const sourceChecks: Readonly<Record<string, (source: Json, path: string) => FieldError[]>> = {
  object: (source, path) => {
    const target = obj(source['target']);
    const errs = [
      ...crossVersionReferenceErrors(obj(source['describedObject']), `${path}.describedObject`),
      ...metricIdentifierErrors(obj(source['metric']), `${path}.metric`),
      ...metricTargetErrors(target, `${path}.target`),
    ];
    if (!isSet(target['value']) && !isSet(target['averageValue'])) errs.push(fieldError.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'));
    return errs;
  },
  external: (source, path) => {
    const target = obj(source['target']);
    const errs = [...metricIdentifierErrors(obj(source['metric']), `${path}.metric`), ...metricTargetErrors(target, `${path}.target`)];
    if (!isSet(target['value']) && !isSet(target['averageValue'])) {
      errs.push(fieldError.required(`${path}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
    }
    if (isSet(target['value']) && isSet(target['averageValue'])) {
      errs.push(fieldError.forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
    }
    return errs;
  },
  pods: (source, path) => {
    const target = obj(source['target']);
    const errs = [...metricIdentifierErrors(obj(source['metric']), `${path}.metric`), ...metricTargetErrors(target, `${path}.target`)];
    if (!isSet(target['averageValue'])) errs.push(fieldError.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
    return errs;
  },
  resource: (source, path) => resourceSourceErrors(source, path, false),
  containerResource: (source, path) => resourceSourceErrors(source, path, true),
};

/** The source field of each metric type. */
const sourceFieldOf: Readonly<Record<string, string>> = {
  Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource',
};

/** validateMetricSpec. */
function metricSpecErrors(metric: Json, path: string, options: HpaValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = text(metric['type']);
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'must specify a metric source type'));
  if (!metricSourceTypes.includes(type)) errs.push(fieldError.notSupported(`${path}.type`, type, metricSourceTypes));
  // Only the first source present (in kube's order) is checked; the others are reported below.
  const present: string[] = [];
  for (const field of ['object', 'external', 'pods', 'resource', 'containerResource']) {
    if (!isSet(metric[field])) continue;
    present.push(field);
    if (present.length === 1) errs.push(...sourceChecks[field]!(obj(metric[field]), `${path}.${field}`));
  }
  const expected = sourceFieldOf[type];
  if (expected === undefined) errs.push(fieldError.notSupported(`${path}.type`, type, metricSourceTypes));
  else if (!isSet(metric[expected])) {
    const suffix = expected === 'containerResource' && !options.containerMetrics ? ' (only allowed when HPAContainerMetrics feature is enabled)' : '';
    errs.push(fieldError.required(`${path}.${expected}`, `must populate information for the given metric source${suffix}`));
  }
  if (present.length !== 1) {
    for (const field of present.filter((f) => f !== expected)) errs.push(fieldError.forbidden(`${path}.${field}`, 'must populate the given metric source only'));
  }
  return errs;
}

/** validateScalingRules of one direction. */
function scalingRulesErrors(rules: unknown, path: string): FieldError[] {
  if (!isSet(rules)) return [];
  const r = obj(rules);
  const errs: FieldError[] = [];
  const window = r['stabilizationWindowSeconds'];
  if (isSet(window) && num(window) < 0) errs.push(fieldError.invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (isSet(window) && num(window) > maxStabilizationWindowSeconds) {
    errs.push(fieldError.invalid(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  }
  if (isSet(r['selectPolicy']) && !selectPolicies.includes(text(r['selectPolicy']))) errs.push(fieldError.notSupported(`${path}.selectPolicy`, r['selectPolicy'], selectPolicies));
  const policies = objects(r['policies']);
  if (policies.length === 0) errs.push(fieldError.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const at = `${path}.policies[${i}]`;
    if (!policyTypes.includes(text(p['type']))) errs.push(fieldError.notSupported(`${at}.type`, text(p['type']), policyTypes));
    if (num(p['value']) <= 0) errs.push(fieldError.invalid(`${at}.value`, num(p['value']), 'must be greater than zero'));
    const period = num(p['periodSeconds']);
    if (period <= 0) errs.push(fieldError.invalid(`${at}.periodSeconds`, period, 'must be greater than zero'));
    if (period > maxPeriodSeconds) errs.push(fieldError.invalid(`${at}.periodSeconds`, period, `must be less than or equal to ${maxPeriodSeconds}`));
  });
  return errs;
}

/** validateHorizontalPodAutoscalerSpec on the v2 form. */
export function hpaSpecErrors(spec: Json, options: HpaValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const min = spec['minReplicas'];
  const max = num(spec['maxReplicas']);
  if (isSet(min) && num(min) < options.minReplicasLowerBound) {
    errs.push(fieldError.invalid('spec.minReplicas', min, `must be greater than or equal to ${options.minReplicasLowerBound}`));
  }
  if (max < 1) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (isSet(min) && max < num(min)) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...crossVersionReferenceErrors(obj(spec['scaleTargetRef']), 'spec.scaleTargetRef'));
  const metrics = objects(spec['metrics']);
  metrics.forEach((m, i) => errs.push(...metricSpecErrors(m, `spec.metrics[${i}]`, options)));
  if (isSet(min) && num(min) === 0 && !metrics.some((m) => m['type'] === 'Object' || m['type'] === 'External')) {
    errs.push(fieldError.forbidden('spec.metrics', 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  if (isSet(spec['behavior'])) {
    const behavior = obj(spec['behavior']);
    errs.push(...scalingRulesErrors(behavior['scaleUp'], 'spec.behavior.scaleUp'), ...scalingRulesErrors(behavior['scaleDown'], 'spec.behavior.scaleDown'));
  }
  return errs;
}

/** ValidateHorizontalPodAutoscalerStatusUpdate: replica counts not negative. */
export function hpaStatusErrors(status: Json): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['currentReplicas', 'desiredReplicas']) {
    if (num(status[key]) < 0) errs.push(fieldError.invalid(`status.${key}`, num(status[key]), 'must be greater than or equal to 0'));
  }
  return errs;
}

/** dropContainerMetricSources: ContainerResource metrics while HPAContainerMetrics is off, unless stored. */
export function dropContainerMetrics(spec: Json, old: Json | undefined, gates: { readonly HPAContainerMetrics: boolean }): void {
  if (gates.HPAContainerMetrics) return;
  if (old !== undefined && objects(old['metrics']).some((m) => isSet(m['containerResource']))) return;
  for (const m of objects(spec['metrics'])) delete m['containerResource'];
}
