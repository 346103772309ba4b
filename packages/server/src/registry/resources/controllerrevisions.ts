/**
 * apps/v1 ControllerRevisions (pkg/registry/apps/controllerrevision; ValidateControllerRevision and its update):
 * `data` is required and immutable, `revision` not negative.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { immutable } from './pod-spec.js';

function validateRevision(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (object['data'] === undefined || object['data'] === null) errs.push(fieldError.required('data', 'data is mandatory'));
  const revision = object['revision'];
  if (typeof revision === 'number' && revision < 0) errs.push(fieldError.invalid('revision', revision, 'must be greater than or equal to 0'));
  return errs;
}

/** The controllerrevision strategy. */
export function controllerRevisionStrategy(): Strategy {
  return defineStrategy({
    validate: validateRevision,
    validateUpdate: (object, old) => [...validateRevision(object), ...immutable('data', object['data'], old['data'])],
  });
}
