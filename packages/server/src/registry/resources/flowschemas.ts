/**
 * FlowSchemas (pkg/registry/flowcontrol/flowschema): status subresource, generation, the v1beta3 default
 * `matchingPrecedence` 1000 (SetDefaults_FlowSchemaSpec) and the basics of ValidateFlowSchema: a priority level
 * name, a precedence in 1..10000, a distinguisher method `ByUser` or `ByNamespace`, and subjects of kind User,
 * Group or ServiceAccount carrying the matching member.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import { record } from '../conversion/resource-conversion.js';
import type { Strategy } from '../strategy.js';
import { specOf } from './pod-spec.js';

/** FlowSchemaDefaultMatchingPrecedence. */
export const defaultMatchingPrecedence = 1000;
const maxMatchingPrecedence = 10000;
const subjectKinds = ['Group', 'ServiceAccount', 'User'];

/** SetDefaults_FlowSchemaSpec. */
export function defaultFlowSchema(object: KubeObject): void {
  const spec = specOf(object);
  if (spec['matchingPrecedence'] === undefined || spec['matchingPrecedence'] === 0) spec['matchingPrecedence'] = defaultMatchingPrecedence;
}

/** ValidateFlowSchema's basics. */
export function validateFlowSchema(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = record(object['spec']) ?? {};
  const level = record(spec['priorityLevelConfiguration']);
  if (level === undefined || typeof level['name'] !== 'string' || level['name'] === '') {
    errs.push(fieldError.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  }
  const precedence = spec['matchingPrecedence'];
  if (typeof precedence === 'number' && (precedence <= 0 || precedence > maxMatchingPrecedence)) {
    errs.push(fieldError.invalid('spec.matchingPrecedence', precedence, `must be between 1 and ${maxMatchingPrecedence}, inclusive`));
  }
  const distinguisher = record(spec['distinguisherMethod']);
  if (distinguisher !== undefined && !['ByNamespace', 'ByUser'].includes(String(distinguisher['type']))) {
    errs.push(fieldError.notSupported('spec.distinguisherMethod.type', distinguisher['type'], ['ByNamespace', 'ByUser']));
  }
  (Array.isArray(spec['rules']) ? spec['rules'] : []).forEach((rawRule, i) => {
    const rule = record(rawRule) ?? {};
    const subjects = Array.isArray(rule['subjects']) ? rule['subjects'] : [];
    if (subjects.length === 0) errs.push(fieldError.required(`spec.rules[${i}].subjects`, 'subjects must contain at least one value'));
    subjects.forEach((rawSubject, j) => {
      const s = record(rawSubject) ?? {};
      const at = `spec.rules[${i}].subjects[${j}]`;
      const kind = String(s['kind'] ?? '');
      if (!subjectKinds.includes(kind)) errs.push(fieldError.notSupported(`${at}.kind`, s['kind'] ?? '', subjectKinds));
      const member = kind === 'User' ? 'user' : kind === 'Group' ? 'group' : kind === 'ServiceAccount' ? 'serviceAccount' : undefined;
      if (member !== undefined && record(s[member]) === undefined) errs.push(fieldError.required(`${at}.${member}`, `${member} is required when subject kind is '${kind}'`));
    });
  });
  return errs;
}

/** The flowschema strategy. */
export function flowSchemaStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    initialStatus: () => ({}),
    tracksGeneration: true,
    prepareForCreate: defaultFlowSchema,
    prepareForUpdate: defaultFlowSchema,
    validate: validateFlowSchema,
    validateUpdate: (object) => validateFlowSchema(object),
  });
}
