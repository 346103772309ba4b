/**
 * PodTemplates (pkg/registry/core/podtemplate): a delete answers with the object.
 */
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';

/** The podtemplate strategy. */
export function podTemplateStrategy(): Strategy {
  return defineStrategy({ returnDeletedObject: true });
}
