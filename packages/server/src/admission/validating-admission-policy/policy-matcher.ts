/**
 * Whether a policy's `matchConstraints` or a binding's `matchResources` select a request
 * (k8s.io/apiserver/pkg/admission/plugin/validatingadmissionpolicy/matching): the namespace and object selectors
 * and the resource rules with `matchPolicy` are the webhooks' (webhook-matcher.ts); beyond them a rule with
 * `resourceNames` matches only those names, and a request any `excludeResourceRules` rule matches is not selected.
 * A binding's match resources without resource rules select whatever its policy selects.
 */
import { ok, type Result } from '@svc-apiserver/api';
import type { AdmissionAttributes } from '../plugin.js';
import type { ExpressionTarget } from '../expressions/admission-activation.js';
import type { WebhookAccessor } from '../webhooks/webhook-accessor.js';
import { ruleMatches, shouldCallWebhook, type MatchContext } from '../webhooks/webhook-matcher.js';
import type { MatchResources, NamedRule } from './policy-accessor.js';

/** The outcome of matching: the target the expressions see, none when the request does not match, or the failure to decide. */
export type PolicyMatch = Result<ExpressionTarget | undefined>;

const named = (rule: NamedRule, name: string): boolean => rule.resourceNames.length === 0 || rule.resourceNames.includes(name);

const everything: NamedRule = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*', resourceNames: [] };

/**
 * Matches `m` against the request; `label` names the policy or binding in selector errors. `binding`: no resource
 * rules means every resource.
 */
export async function matchResources(m: MatchResources, a: AdmissionAttributes, ctx: MatchContext, label: string, binding = false): Promise<PolicyMatch> {
  const target = { operation: a.operation, group: a.group, version: a.version, resource: a.resource, subresource: a.subresource, namespace: a.namespace };
  if (m.excludeResourceRules.some((r) => named(r, a.name) && ruleMatches(r, target))) return ok(undefined);
  const rules = (binding && m.resourceRules.length === 0 ? [everything] : m.resourceRules).filter((r) => named(r, a.name));
  if (rules.length === 0) return ok(undefined);
  // The webhooks' matcher, given the rules and selectors in a webhook's shape.
  const accessor = {
    uid: label, configurationName: label, name: label, type: 'validating', rules, failurePolicy: 'Fail', matchPolicy: m.matchPolicy,
    namespaceSelector: m.namespaceSelector, objectSelector: m.objectSelector, sideEffects: 'None', timeoutSeconds: 0,
    admissionReviewVersions: [], clientConfig: {}, reinvocationPolicy: 'Never', matchConditions: [],
  } satisfies WebhookAccessor;
  const outcome = await shouldCallWebhook(accessor, a, ctx);
  if (!outcome.ok || outcome.value === undefined) return outcome;
  const i = outcome.value;
  return ok({ group: i.group, version: i.version, resource: i.resource, subresource: i.subresource, kind: i.kind });
}
