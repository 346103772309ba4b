/**
 * apps/v1 Deployments (pkg/registry/apps/deployment, apps/v1 defaults): `replicas` 1, `strategy` RollingUpdate
 * with `maxUnavailable` and `maxSurge` 25%, `revisionHistoryLimit` 10, `progressDeadlineSeconds` 600 (document 1's
 * apps/v1 row), the progress deadline above `minReadySeconds`, and the workload rules (workload.ts).
 */
import { fieldError, type FieldError, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { child, setDefault } from './pod-spec.js';
import { workloadStrategy } from './workload.js';

function validateDeployment(spec: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const strategy = record(spec['strategy']) ?? {};
  const type = strategy['type'];
  if (type !== undefined && type !== 'Recreate' && type !== 'RollingUpdate') errs.push(fieldError.notSupported('spec.strategy.type', type, ['Recreate', 'RollingUpdate']));
  if (type === 'Recreate' && strategy['rollingUpdate'] !== undefined) {
    errs.push(fieldError.forbidden('spec.strategy.rollingUpdate', 'may not be specified when strategy `type` is \'Recreate\''));
  }
  const deadline = spec['progressDeadlineSeconds'];
  const minReady = spec['minReadySeconds'];
  if (typeof deadline === 'number' && typeof minReady === 'number' && deadline <= minReady) {
    errs.push(fieldError.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** The deployment strategy. */
export function deploymentStrategy(names?: Names): Strategy {
  return workloadStrategy({
    kindWord: 'deployment',
    ...(names ? { names } : {}),
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
    validateSpec: validateDeployment,
  });
}
