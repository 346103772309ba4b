/**
 * autoscaling HorizontalPodAutoscalers (pkg/registry/autoscaling/horizontalpodautoscaler and the v1/v2 defaults):
 * `minReplicas` 1 in both versions; v2 without metrics targets 80% CPU utilization, and a given `behavior` has each
 * direction's unset parts filled from the controller's built-in rules (GenerateHPAScaleUpRules and
 * GenerateHPAScaleDownRules; the scale-down window stays unset, the controller's flag decides it); `maxReplicas` at
 * least 1 and at least `minReplicas`; status subresource.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { setDefault, specOf } from './pod-spec.js';

function validate(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs: FieldError[] = [];
  const min = spec['minReplicas'];
  const max = spec['maxReplicas'];
  if (typeof min === 'number' && min < 1) errs.push(fieldError.invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (typeof max !== 'number' || max < 1) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  else if (typeof min === 'number' && max < min) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const target = record(spec['scaleTargetRef']);
  if (typeof target?.['kind'] !== 'string' || target['kind'] === '') errs.push(fieldError.required('spec.scaleTargetRef.kind'));
  if (typeof target?.['name'] !== 'string' || target['name'] === '') errs.push(fieldError.required('spec.scaleTargetRef.name'));
  return errs;
}

function strategy(defaults: (spec: Record<string, unknown>) => void, initialStatus: () => Record<string, unknown>): Strategy {
  const prepare = (object: KubeObject): void => defaults(specOf(object));
  return defineStrategy({ hasStatus: true, initialStatus, tracksGeneration: true, prepareForCreate: prepare, prepareForUpdate: prepare, validate, validateUpdate: validate });
}

/** The autoscaling/v1 strategy. */
export function hpaV1Strategy(): Strategy {
  return strategy((spec) => setDefault(spec, 'minReplicas', 1), () => ({ currentReplicas: 0, desiredReplicas: 0 }));
}

/** The rules a direction of a v2 `behavior` starts from; what the object sets replaces them field by field. */
const builtInRules = {
  scaleUp: () => ({
    stabilizationWindowSeconds: 0, selectPolicy: 'Max',
    policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
  }),
  scaleDown: () => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] }),
};

function defaultBehavior(spec: Record<string, unknown>): void {
  const behavior = record(spec['behavior']);
  if (behavior === undefined) return;
  for (const direction of ['scaleUp', 'scaleDown'] as const) {
    const given = record(behavior[direction]) ?? {};
    const rules: Record<string, unknown> = builtInRules[direction]();
    for (const field of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) {
      if (given[field] !== undefined && given[field] !== null) rules[field] = given[field];
    }
    behavior[direction] = rules;
  }
}

/** The autoscaling/v2 strategy. */
export function hpaV2Strategy(): Strategy {
  return strategy((spec) => {
    setDefault(spec, 'minReplicas', 1);
    if (!Array.isArray(spec['metrics']) || spec['metrics'].length === 0) {
      spec['metrics'] = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
    }
    defaultBehavior(spec);
  }, () => ({ desiredReplicas: 0 }));
}
