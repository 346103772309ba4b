/**
 * apps/v1 Deployments (pkg/registry/apps/deployment, apps/v1 defaults): `replicas` 1, `strategy` RollingUpdate
 * with `maxUnavailable` and `maxSurge` 25%, `revisionHistoryLimit` 10, `progressDeadlineSeconds` 600 (document 1's
 * apps/v1 row), the progress deadline above `minReadySeconds`, and the workload rules (workload.ts).
 */
import { fieldError, type FieldError, type Names } from '@svc-apiserver/api';
import type { FeatureGates } from '../../feature-gates.js';
import { record } from '../conversion/resource-conversion.js';
import { sameJson } from './object-fields.js';
import type { Strategy } from '../strategy.js';
import { child, setDefault } from './pod-spec.js';
import { nonNegative, workloadStrategy } from './workload.js';

/** getIntOrPercentValue: a percent's number (`25%` → 25), an int, else 0 (as IntValue reads other strings). */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^[0-9]+%$/.test(value)) return Number(value.slice(0, -1));
  return 0;
}

/** ValidatePositiveIntOrPercent at `path`. */
export function positiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string' && !/^[0-9]+%$/.test(value)) {
    return [fieldError.invalid(path, value, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
  }
  const v = intOrPercentValue(value);
  return v < 0 ? [fieldError.invalid(path, v, 'must be greater than or equal to 0')] : [];
}

/** IsNotMoreThan100Percent: a percent at `path` is at most 100%. */
export function notMoreThan100Percent(value: unknown, path: string): FieldError[] {
  return typeof value === 'string' && /^[0-9]+%$/.test(value) && Number(value.slice(0, -1)) > 100 ? [fieldError.invalid(path, value, 'must not be greater than 100%')] : [];
}

/** ValidateRollingUpdateDeployment. */
function validateRollingUpdate(rolling: Record<string, unknown>, path: string): FieldError[] {
  const errs = [
    ...positiveIntOrPercent(rolling['maxUnavailable'], `${path}.maxUnavailable`),
    ...positiveIntOrPercent(rolling['maxSurge'], `${path}.maxSurge`),
  ];
  if (intOrPercentValue(rolling['maxUnavailable']) === 0 && intOrPercentValue(rolling['maxSurge']) === 0) {
    errs.push(fieldError.invalid(`${path}.maxUnavailable`, rolling['maxUnavailable'] ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...notMoreThan100Percent(rolling['maxUnavailable'], `${path}.maxUnavailable`));
  return errs;
}

/** ValidateDeploymentSpec beyond the shared workload rules: counts, strategy, progress deadline. */
function validateDeployment(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [
    ...nonNegative(spec, 'replicas', 'spec.replicas'), ...nonNegative(spec, 'minReadySeconds', 'spec.minReadySeconds'),
    ...nonNegative(spec, 'revisionHistoryLimit', 'spec.revisionHistoryLimit'),
  ];
  const strategy = record(spec['strategy']) ?? {};
  const type = strategy['type'];
  const rolling = record(strategy['rollingUpdate']);
  if (type === 'Recreate') {
    if (rolling !== undefined) errs.push(fieldError.forbidden('spec.strategy.rollingUpdate', 'may not be specified when strategy `type` is \'Recreate\''));
  } else if (type === 'RollingUpdate') {
    if (rolling === undefined) errs.push(fieldError.required('spec.strategy.rollingUpdate', 'this should be defaulted and never be nil'));
    else errs.push(...validateRollingUpdate(rolling, 'spec.strategy.rollingUpdate'));
  } else {
    errs.push(fieldError.notSupported('spec.strategy', strategy, ['Recreate', 'RollingUpdate']));
  }
  const deadline = spec['progressDeadlineSeconds'];
  if (deadline !== undefined && deadline !== null) {
    errs.push(...nonNegative(spec, 'progressDeadlineSeconds', 'spec.progressDeadlineSeconds'));
    if (typeof deadline === 'number' && deadline <= (typeof spec['minReadySeconds'] === 'number' ? spec['minReadySeconds'] : 0)) {
      errs.push(fieldError.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** The deployment strategy of a flavour under the server's gates. */
export function deploymentStrategy(names: Names, gates?: FeatureGates): Strategy {
  return workloadStrategy({
    kind: 'Deployment',
    initialStatus: () => ({}),
    names,
    ...(gates === undefined ? {} : { gates }),
    // Annotations are copied to the deployment's replica sets: their changes bump the generation too.
    prepareUpdate(object, old) {
      if (!sameJson(object.metadata?.annotations ?? {}, old.metadata?.annotations ?? {})) (object.metadata ??= {}).generation = (old.metadata?.generation ?? 0) + 1;
    },
    defaults(spec) {
      setDefault(spec, 'replicas', 1);
      const strategy = child(spec, 'strategy');
      setDefault(strategy, 'type', 'RollingUpdate');
      if (strategy['type'] === 'RollingUpdate') {
        const rolling = child(strategy, 'rollingUpdate');
        setDefault(rolling, 'maxUnavailable', '25%');
        setDefault(rolling, 'maxSurge', '25%');
      }
      setDefault(spec, 'revisionHistoryLimit', 10);
      setDefault(spec, 'progressDeadlineSeconds', 600);
    },
    validate: (object) => validateDeployment(record(object['spec']) ?? {}),
  });
}
