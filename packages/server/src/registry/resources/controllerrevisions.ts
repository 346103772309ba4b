/**
 * ControllerRevisions (pkg/registry/apps/controllerrevision, ValidateControllerRevision and its update
 * counterpart): `data` is mandatory and immutable, `revision` is not negative.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable } from './pod-spec.js';
import { nonNegative } from './workload.js';

/** ValidateControllerRevision. */
export function validateControllerRevision(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (object['data'] === undefined || object['data'] === null) errs.push(fieldError.required('data', 'data is mandatory'));
  errs.push(...nonNegative(object, 'revision', 'revision'));
  return errs;
}

/** The controllerrevision strategy. */
export function controllerRevisionStrategy(): Strategy {
  return defineStrategy({
    validate: validateControllerRevision,
    validateUpdate: (object, old) => [...validateControllerRevision(object), ...immutable('data', object['data'], old['data'])],
  });
}
