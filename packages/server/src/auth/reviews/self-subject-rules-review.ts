/**
 * SelfSubjectRulesReview (kube's selfsubjectrulesreview REST, `authorization.svc.io/v1`): what the caller may do
 * in `spec.namespace`, as far as the authorizer can list it (authorizer.RuleResolver). An authorizer that cannot
 * list makes the answer `incomplete`; listed rules are granted even then. For display only: decisions belong to the
 * access reviews.
 */
import { badRequest, fail, ok } from '@svc-apiserver/api';
import type { VirtualCreate } from '../../registry/virtual-resource.js';
import type { Authorizer, NonResourceRuleInfo, ResourceRuleInfo, RulesResult } from '../../request/authorizer.js';
import { record, reviewAnswer } from './access-review-attributes.js';

/** ResourceRule as authorization/v1 encodes it (empty lists but `verbs` left out). */
function resourceRule(rule: ResourceRuleInfo): Record<string, unknown> {
  return {
    verbs: [...rule.verbs],
    ...(rule.apiGroups.length > 0 ? { apiGroups: [...rule.apiGroups] } : {}),
    ...(rule.resources.length > 0 ? { resources: [...rule.resources] } : {}),
    ...(rule.resourceNames.length > 0 ? { resourceNames: [...rule.resourceNames] } : {}),
  };
}

/** NonResourceRule as authorization/v1 encodes it. */
function nonResourceRule(rule: NonResourceRuleInfo): Record<string, unknown> {
  return { verbs: [...rule.verbs], ...(rule.nonResourceURLs.length > 0 ? { nonResourceURLs: [...rule.nonResourceURLs] } : {}) };
}

/** What an authorizer without a rule listing contributes: nothing, and an incomplete answer. */
const unlistable: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: true };

/** The SelfSubjectRulesReview create over `authorizer`. */
export function selfSubjectRulesReview(authorizer: Authorizer): VirtualCreate {
  return async (request, def, object) => {
    const namespace = record(object['spec'])?.['namespace'];
    if (typeof namespace !== 'string' || namespace === '') return fail(badRequest('no namespace on request'));
    const rules = authorizer.rulesFor !== undefined ? await authorizer.rulesFor(request.user, namespace) : unlistable;
    const status: Record<string, unknown> = {
      resourceRules: rules.resourceRules.map(resourceRule),
      nonResourceRules: rules.nonResourceRules.map(nonResourceRule),
      incomplete: rules.incomplete,
      ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
    };
    // kube answers with a new object: its spec is empty.
    return ok(reviewAnswer(def, {}, {}, status));
  };
}
