/**
 * Core Events (pkg/registry/core/event): created by PUT as well, field selectors on the involved object, reason,
 * source (its component) and type.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { defineStrategy, fieldsAt, stringAt } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

const involved = fieldsAt(
  'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
  'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath',
  'reason', 'reportingComponent', 'type',
);

/** The event strategy. */
export function eventStrategy(): Strategy {
  return defineStrategy({
    allowCreateOnUpdate: true,
    selectableFields: (object: KubeObject) => ({ ...involved(object), source: stringAt(object, 'source.component') }),
  });
}
