/**
 * RuntimeClasses (pkg/registry/node/runtimeclass and ValidateRuntimeClass/ValidateRuntimeClassUpdate of 1.27, rule
 * by rule): `handler` a DNS-1123 label (an empty one fails the label check, as kube words it) and immutable;
 * `overhead.podFixed` checked as the limits of resource requirements (so reported under `overhead.limits`);
 * `scheduling` node selector labels and tolerations. An update checks the handler only.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Label } from '../../meta/name-rules.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { isSet, obj, text } from './field-checks.js';
import { validateLabelMap } from './label-checks.js';
import { immutable } from './object-fields.js';
import { tolerationErrors } from './pod-scheduling.js';
import { resourceRequirementsErrors } from './resource-names.js';

/** ValidateRuntimeClass. */
export function validateRuntimeClass(object: KubeObject): FieldError[] {
  const handler = text(object['handler']);
  const errs = isDns1123Label(handler).map((msg) => fieldError.invalid('handler', handler, msg));
  if (isSet(object['overhead'])) {
    errs.push(...resourceRequirementsErrors({ limits: obj(object['overhead'])['podFixed'] }, 'overhead', { allowIndivisibleHugePages: false }));
  }
  if (isSet(object['scheduling'])) {
    const scheduling = obj(object['scheduling']);
    if (isSet(scheduling['nodeSelector'])) errs.push(...validateLabelMap(scheduling['nodeSelector'], 'scheduling.nodeSelector'));
    errs.push(...tolerationErrors(scheduling['tolerations'], 'scheduling.tolerations'));
  }
  return errs;
}

/** The runtimeclass strategy. */
export function runtimeClassStrategy(): Strategy {
  return defineStrategy({
    validate: validateRuntimeClass,
    validateUpdate: (object, old) => immutable('handler', object['handler'], old['handler']),
  });
}
