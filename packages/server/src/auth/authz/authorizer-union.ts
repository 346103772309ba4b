/**
 * The union of authorizers (k8s.io/apiserver's union.New and union.NewRuleResolvers): asked in order, the first
 * allow or deny wins; when all have no opinion their reasons and evaluation errors are joined. Rules are the
 * concatenation of the members' rules.
 */
import type { UserInfo } from '../../request/user-info.js';
import { aggregateErrors } from './aggregate-errors.js';
import { authMetrics, type AuthMetrics } from '../../metrics/auth-metrics.js';
import type { AuthorizationDecision, Authorizer, NonResourceRuleInfo, ResourceRuleInfo, RulesResult } from '../../request/authorizer.js';

/**
 * The union of `authorizers`, in order. Its `rulesFor` concatenates the rules of the members; the result is
 * incomplete when a member cannot list rules (has no `rulesFor`) or says its list is incomplete.
 */
export function authorizerUnion(authorizers: readonly Authorizer[], metrics: AuthMetrics = authMetrics()): Authorizer {
  return {
    name: 'union',
    async authorize(attributes) {
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const a of authorizers) {
        const d = await a.authorize(attributes);
        if (d.decision !== 'no-opinion') {
          metrics.observeDecision(a.name, a.name.toLowerCase(), d.decision === 'allow');
          return d;
        }
        if (d.reason) reasons.push(d.reason);
        if (d.evaluationError) errors.push(d.evaluationError);
      }
      const evaluationError = aggregateErrors(errors);
      const decision: AuthorizationDecision = {
        decision: 'no-opinion',
        ...(reasons.length > 0 ? { reason: reasons.join('\n') } : {}),
        ...(evaluationError !== undefined ? { evaluationError } : {}),
      };
      return decision;
    },
    async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const a of authorizers) {
        if (a.rulesFor === undefined) {
          // kube's webhook rule resolver answers so: incomplete, with this error.
          incomplete = true;
          errors.push(`${a.name.toLowerCase()} authorizer does not support user rule resolution`);
          continue;
        }
        const r = await a.rulesFor(user, namespace);
        resourceRules.push(...r.resourceRules);
        nonResourceRules.push(...r.nonResourceRules);
        if (r.incomplete) incomplete = true;
        if (r.evaluationError) errors.push(r.evaluationError);
      }
      const evaluationError = aggregateErrors(errors);
      return { resourceRules, nonResourceRules, incomplete, ...(evaluationError !== undefined ? { evaluationError } : {}) };
    },
  };
}
