/**
 * ValidatingAdmissionPolicies and their bindings (`admissionregistration/v1alpha1`) as the plugin reads them from
 * the watch cache, with v1alpha1's defaults filled where a stored object lacks them (failurePolicy Fail,
 * matchPolicy Equivalent, empty selectors selecting everything, rule scope `*`). A policy's match constraints and a
 * binding's match resources become the same matcher the webhooks use, so selectors, rules and equivalent
 * resources match alike.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { asObject, objectsOf, stringOf } from '../object-access.js';
import { matchConditionsOf, type MatchCondition } from '../../cel/match-conditions.js';
import { parseSelector, type ParsedSelector, type WebhookRule } from '../webhooks/webhook-accessor.js';

/** A rule of MatchResources (NamedRuleWithOperations): a webhook rule with optional resource names. */
export interface NamedRule extends WebhookRule {
  readonly resourceNames: readonly string[];
}

/** MatchResources. */
export interface MatchResources {
  readonly namespaceSelector: ParsedSelector;
  readonly objectSelector: ParsedSelector;
  readonly resourceRules: readonly NamedRule[];
  readonly excludeResourceRules: readonly NamedRule[];
  readonly matchPolicy: 'Exact' | 'Equivalent';
}

/** One validation of a policy. */
export interface PolicyValidation {
  readonly expression: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: string;
}

/** One audit annotation of a policy. */
export interface PolicyAuditAnnotation {
  readonly key: string;
  readonly valueExpression: string;
}

/** A policy. */
export interface Policy {
  readonly name: string;
  readonly generation: number;
  readonly paramKind?: { readonly apiVersion: string; readonly kind: string };
  readonly matchConstraints?: MatchResources;
  readonly validations: readonly PolicyValidation[];
  readonly auditAnnotations: readonly PolicyAuditAnnotation[];
  readonly matchConditions: readonly MatchCondition[];
  readonly failurePolicy: 'Fail' | 'Ignore';
}

/** The actions of a binding. */
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

/** A binding. */
export interface PolicyBinding {
  readonly name: string;
  readonly policyName: string;
  readonly paramRef?: { readonly name: string; readonly namespace: string };
  readonly matchResources?: MatchResources;
  readonly validationActions: readonly ValidationAction[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

function namedRules(value: unknown): NamedRule[] {
  return objectsOf(value).map((r) => ({
    operations: strings(r['operations']), apiGroups: strings(r['apiGroups']), apiVersions: strings(r['apiVersions']),
    resources: strings(r['resources']), scope: typeof r['scope'] === 'string' ? r['scope'] : '*', resourceNames: strings(r['resourceNames']),
  }));
}

/** MatchResources with v1alpha1's defaults. */
export function matchResourcesOf(value: unknown): MatchResources | undefined {
  const m = asObject(value);
  if (m === undefined) return undefined;
  return {
    namespaceSelector: parseSelector(m['namespaceSelector']),
    objectSelector: parseSelector(m['objectSelector']),
    resourceRules: namedRules(m['resourceRules']),
    excludeResourceRules: namedRules(m['excludeResourceRules']),
    matchPolicy: m['matchPolicy'] === 'Exact' ? 'Exact' : 'Equivalent',
  };
}

/** A stored policy, read. */
export function policyOf(object: KubeObject): Policy {
  const spec = asObject(object['spec']) ?? {};
  const paramKind = asObject(spec['paramKind']);
  const matchConstraints = matchResourcesOf(spec['matchConstraints']);
  return {
    name: object.metadata?.name ?? '',
    generation: object.metadata?.generation ?? 0,
    ...(paramKind !== undefined ? { paramKind: { apiVersion: stringOf(paramKind['apiVersion']), kind: stringOf(paramKind['kind']) } } : {}),
    ...(matchConstraints !== undefined ? { matchConstraints } : {}),
    validations: objectsOf(spec['validations']).map((v) => ({
      expression: stringOf(v['expression']),
      ...(typeof v['message'] === 'string' ? { message: v['message'] } : {}),
      ...(typeof v['messageExpression'] === 'string' ? { messageExpression: v['messageExpression'] } : {}),
      ...(typeof v['reason'] === 'string' ? { reason: v['reason'] } : {}),
    })),
    auditAnnotations: objectsOf(spec['auditAnnotations']).map((a) => ({ key: stringOf(a['key']), valueExpression: stringOf(a['valueExpression']) })),
    matchConditions: matchConditionsOf(spec['matchConditions']),
    failurePolicy: spec['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail',
  };
}

/** A stored binding, read. */
export function bindingOf(object: KubeObject): PolicyBinding {
  const spec = asObject(object['spec']) ?? {};
  const paramRef = asObject(spec['paramRef']);
  const matchResources = matchResourcesOf(spec['matchResources']);
  return {
    name: object.metadata?.name ?? '',
    policyName: stringOf(spec['policyName']),
    ...(paramRef !== undefined ? { paramRef: { name: stringOf(paramRef['name']), namespace: stringOf(paramRef['namespace']) } } : {}),
    ...(matchResources !== undefined ? { matchResources } : {}),
    validationActions: strings(spec['validationActions']).filter((a): a is ValidationAction => a === 'Deny' || a === 'Warn' || a === 'Audit'),
  };
}
