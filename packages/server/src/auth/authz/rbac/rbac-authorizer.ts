/**
 * The RBAC authorizer (plugin/pkg/auth/authorizer/rbac): allows a request when a rule granted to the user allows it,
 * and otherwise has no opinion, reporting the errors met resolving the user's rules.
 */
import type { Names } from '@svc-apiserver/api';
import type { Authorizer, NonResourceRuleInfo, ResourceRuleInfo, RulesResult } from '../../../request/authorizer.js';
import type { RbacPolicySource } from './policy-source.js';
import { aggregateErrors, createRuleResolver, type RuleResolver } from './rule-resolver.js';
import { ruleAllows } from './rule-matching.js';

/** The RBAC authorizer and the resolver it decides with (the escalation checks share it). */
export interface RbacAuthorizer extends Authorizer {
  readonly resolver: RuleResolver;
}

/**
 * Builds the RBAC authorizer (kube's RBACAuthorizer with its authorizingVisitor): the first rule that allows wins,
 * with the reason `RBAC: allowed by <binding description>`; without one, no opinion, with the resolution errors
 * as `RBAC: <errors>` in the reason and the errors as the evaluation error.
 */
export function rbacAuthorizer(source: RbacPolicySource, names: Names): RbacAuthorizer {
  const resolver = createRuleResolver(source, names);
  return {
    name: 'RBAC',
    resolver,
    async authorize({ user, info }) {
      let allowedBy: string | undefined;
      let errors: string[] | undefined;
      resolver.visitRulesFor(user, info.namespace, (src, rule, error) => {
        if (rule !== undefined && src !== undefined && ruleAllows(info, rule)) {
          allowedBy = src.toString();
          return false;
        }
        if (error !== undefined) (errors ??= []).push(error);
        return true;
      });
      if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy}` };
      if (errors === undefined) return { decision: 'no-opinion' };
      const aggregate = aggregateErrors(errors);
      return { decision: 'no-opinion', reason: `RBAC: ${aggregate}`, evaluationError: aggregate };
    },
    async rulesFor(user, namespace): Promise<RulesResult> {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      const errors: string[] = [];
      resolver.visitRulesFor(user, namespace, (src, rule, error) => {
        if (error !== undefined) errors.push(error);
        if (rule === undefined || src === undefined) return true;
        if ((rule.resources ?? []).length > 0) {
          resourceRules.push({
            verbs: [...rule.verbs], apiGroups: [...(rule.apiGroups ?? [])], resources: [...(rule.resources ?? [])],
            resourceNames: [...(rule.resourceNames ?? [])],
          });
        }
        // Non-resource URLs are granted only through ClusterRoleBindings (non-resource requests have no
        // namespace): a RoleBinding's role lists them without granting them, so they are not reported.
        if ((rule.nonResourceURLs ?? []).length > 0 && src.kind === 'ClusterRoleBinding') {
          nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...(rule.nonResourceURLs ?? [])] });
        }
        return true;
      });
      const result: RulesResult = { resourceRules, nonResourceRules, incomplete: false };
      return errors.length > 0 ? { ...result, evaluationError: aggregateErrors(errors) } : result;
    },
  };
}
