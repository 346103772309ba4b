/**
 * ValidatingAdmissionPolicies and ValidatingAdmissionPolicyBindings (`admissionregistration/v1alpha1`;
 * pkg/registry/admissionregistration and pkg/apis/admissionregistration/validation of 1.27): v1alpha1's defaults
 * (failurePolicy Fail; matchPolicy Equivalent, empty selectors and rule scope `*` in match resources) and
 * validation — a policy needs `matchConstraints` with resource rules and at least one validation or audit
 * annotation; every expression must compile (validations and match conditions to a bool, message expressions
 * and audit annotation values to a string), declared `params` only with a `paramKind`; reasons, failure and match
 * policies from their sets; a binding names its policy and at least one of the actions Deny, Warn and Audit, never
 * Deny with Warn. A policy's status (`typeChecking`) is written through its status subresource.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { admissionVariables } from '../../cel/admission-variables.js';
import { compile } from '../../cel/compile.js';
import { celEnvironment } from '../../cel/environment.js';
import { booleanExpressionError, validateMatchConditions } from '../../cel/match-conditions.js';
import { isQualifiedName } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { setDefault, validateLabelSelector } from './pod-spec.js';
import { validateRule } from './webhook-configurations.js';

type Json = Record<string, unknown>;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const reasons = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const actions = ['Deny', 'Warn', 'Audit'];

function defaultMatchResources(m: Json | undefined): void {
  if (m === undefined) return;
  setDefault(m, 'matchPolicy', 'Equivalent');
  setDefault(m, 'namespaceSelector', {});
  setDefault(m, 'objectSelector', {});
  for (const key of ['resourceRules', 'excludeResourceRules']) {
    for (const r of list(m[key])) {
      const rule = record(r);
      if (rule !== undefined) setDefault(rule, 'scope', '*');
    }
  }
}

/** SetDefaults_ValidatingAdmissionPolicySpec. */
export function defaultPolicy(object: KubeObject): void {
  const spec = record(object['spec']);
  if (spec === undefined) return;
  setDefault(spec, 'failurePolicy', 'Fail');
  defaultMatchResources(record(spec['matchConstraints']));
}

/** SetDefaults_ValidatingAdmissionPolicyBindingSpec. */
export function defaultBinding(object: KubeObject): void {
  defaultMatchResources(record(record(object['spec'])?.['matchResources']));
}

/** validateMatchResources; `policy` requires resource rules. */
function validateMatchResources(m: Json, path: string, policy: boolean): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['namespaceSelector', 'objectSelector']) {
    if (m[key] !== undefined && m[key] !== null) errs.push(...validateLabelSelector(m[key], `${path}.${key}`));
  }
  const matchPolicy = m['matchPolicy'];
  if (matchPolicy !== undefined && matchPolicy !== 'Equivalent' && matchPolicy !== 'Exact') {
    errs.push(fieldError.notSupported(`${path}.matchPolicy`, matchPolicy, ['Equivalent', 'Exact']));
  }
  const rules = list(m['resourceRules']);
  if (policy && rules.length === 0) errs.push(fieldError.required(`${path}.resourceRules`));
  for (const key of ['resourceRules', 'excludeResourceRules']) {
    list(m[key]).forEach((r, i) => errs.push(...validateRule(record(r) ?? {}, `${path}.${key}[${i}]`)));
  }
  return errs;
}

/** A message's checks (non-empty when given, one line). */
function validateMessage(message: unknown, path: string): FieldError[] {
  if (typeof message !== 'string' || message === '') return [];
  const trimmed = message.trim();
  if (trimmed === '') return [fieldError.invalid(path, message, 'message must be non-empty if specified')];
  if (/[\r\n]/.test(trimmed)) return [fieldError.invalid(path, message, 'message must not contain line breaks')];
  return [];
}

/** An expression that must compile to a string (messageExpression, valueExpression). */
function stringExpressionError(expression: string, params: boolean): string | undefined {
  const c = compile(expression, celEnvironment(admissionVariables({ params })));
  if (!c.ok) return `compilation failed: ${c.error.message}`;
  if (c.value.outputType !== 'string' && c.value.outputType !== 'dyn') return 'must evaluate to string';
  return undefined;
}

/** ValidateValidatingAdmissionPolicy. */
export function validatePolicy(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = record(object['spec']) ?? {};
  const failurePolicy = spec['failurePolicy'];
  if (failurePolicy !== undefined && failurePolicy !== 'Fail' && failurePolicy !== 'Ignore') {
    errs.push(fieldError.notSupported('spec.failurePolicy', failurePolicy, ['Fail', 'Ignore']));
  }
  const paramKind = record(spec['paramKind']);
  if (paramKind !== undefined) {
    const apiVersion = paramKind['apiVersion'];
    if (typeof apiVersion !== 'string' || apiVersion === '') errs.push(fieldError.required('spec.paramKind.apiVersion'));
    else if (apiVersion.split('/').length > 2 || apiVersion.endsWith('/')) {
      errs.push(fieldError.invalid('spec.paramKind.apiVersion', apiVersion, 'an apiVersion is a DNS-1035 label, followed by a slash and a version'));
    }
    if (typeof paramKind['kind'] !== 'string' || paramKind['kind'] === '') errs.push(fieldError.required('spec.paramKind.kind'));
  }
  const params = paramKind !== undefined;
  const constraints = record(spec['matchConstraints']);
  if (constraints === undefined) errs.push(fieldError.required('spec.matchConstraints', ''));
  else errs.push(...validateMatchResources(constraints, 'spec.matchConstraints', true));
  const validations = list(spec['validations']);
  const annotations = list(spec['auditAnnotations']);
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(fieldError.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  }
  const env = celEnvironment(admissionVariables({ params }));
  validations.forEach((raw, i) => {
    const v = record(raw) ?? {};
    const path = `spec.validations[${i}]`;
    const expression = typeof v['expression'] === 'string' ? v['expression'] : '';
    if (expression.trim() === '') errs.push(fieldError.required(`${path}.expression`, 'expression is not specified'));
    else {
      const bad = booleanExpressionError(expression, env);
      if (bad !== undefined) errs.push(fieldError.invalid(`${path}.expression`, expression, bad));
    }
    errs.push(...validateMessage(v['message'], `${path}.message`));
    const reason = v['reason'];
    if (reason !== undefined && (typeof reason !== 'string' || !reasons.includes(reason))) errs.push(fieldError.notSupported(`${path}.reason`, reason, reasons));
    const messageExpression = v['messageExpression'];
    if (typeof messageExpression === 'string' && messageExpression !== '') {
      if (messageExpression.trim() === '') errs.push(fieldError.required(`${path}.messageExpression`, 'must be non-empty if specified'));
      else {
        const bad = stringExpressionError(messageExpression, params);
        if (bad !== undefined) errs.push(fieldError.invalid(`${path}.messageExpression`, messageExpression, bad));
      }
    }
  });
  const keys = new Set<string>();
  annotations.forEach((raw, i) => {
    const a = record(raw) ?? {};
    const path = `spec.auditAnnotations[${i}]`;
    const key = typeof a['key'] === 'string' ? a['key'] : '';
    if (key === '') errs.push(fieldError.required(`${path}.key`));
    else {
      const qualified = `${object.metadata?.name ?? ''}/${key}`;
      for (const msg of isQualifiedName(qualified)) errs.push(fieldError.invalid(`${path}.key`, key, msg));
      if (keys.has(key)) errs.push(fieldError.duplicate(`${path}.key`, key));
      keys.add(key);
    }
    const value = typeof a['valueExpression'] === 'string' ? a['valueExpression'] : '';
    if (value.trim() === '') errs.push(fieldError.required(`${path}.valueExpression`, 'valueExpression is not specified'));
    else {
      const bad = stringExpressionError(value, params);
      if (bad !== undefined) errs.push(fieldError.invalid(`${path}.valueExpression`, value, bad));
    }
  });
  errs.push(...validateMatchConditions(spec['matchConditions'], 'spec.matchConditions', params));
  return errs;
}

/** ValidateValidatingAdmissionPolicyBinding. */
export function validateBinding(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = record(object['spec']) ?? {};
  if (typeof spec['policyName'] !== 'string' || spec['policyName'] === '') errs.push(fieldError.required('spec.policyName'));
  const paramRef = record(spec['paramRef']);
  if (paramRef !== undefined && (typeof paramRef['name'] !== 'string' || paramRef['name'] === '')) errs.push(fieldError.required('spec.paramRef.name'));
  const m = record(spec['matchResources']);
  if (m !== undefined) errs.push(...validateMatchResources(m, 'spec.matchResources', false));
  const chosen = list(spec['validationActions']);
  if (chosen.length === 0) errs.push(fieldError.required('spec.validationActions', 'at least one validation action is required'));
  const seen = new Set<unknown>();
  chosen.forEach((a, i) => {
    if (typeof a !== 'string' || !actions.includes(a)) errs.push(fieldError.notSupported(`spec.validationActions[${i}]`, a, actions));
    if (seen.has(a)) errs.push(fieldError.duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(fieldError.invalid('spec.validationActions', chosen,
      'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  return errs;
}

/** The validatingadmissionpolicy strategy: status through its subresource, generation on spec changes. */
export function validatingAdmissionPolicyStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    tracksGeneration: true,
    defaults: defaultPolicy,
    validate: validatePolicy,
    validateUpdate: validatePolicy,
  });
}

/** The validatingadmissionpolicybinding strategy. */
export function validatingAdmissionPolicyBindingStrategy(): Strategy {
  return defineStrategy({
    tracksGeneration: true,
    defaults: defaultBinding,
    validate: validateBinding,
    validateUpdate: validateBinding,
  });
}
