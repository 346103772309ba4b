/**
 * The authorizer contract (k8s.io/apiserver's authorizer.Authorizer and authorizer.RuleResolver): each authorizer
 * answers allow, deny or no opinion; a union of them (authorizer-union.ts) asks them in order, and no opinion from
 * all is a deny at the filter.
 */
import type { RequestInfo } from './request-info.js';
import type { UserInfo } from './user-info.js';

/** What is being asked. */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  readonly info: RequestInfo;
}

/** An authorizer's answer. */
export interface AuthorizationDecision {
  readonly decision: 'allow' | 'deny' | 'no-opinion';
  readonly reason?: string;
  /**
   * An error met while deciding (an unresolvable roleRef, a webhook that failed): a decision may still have been
   * possible (SubjectAccessReviewStatus.evaluationError).
   */
  readonly evaluationError?: string;
}

/** A rule about API resources as a rules review reports it (authorization/v1 ResourceRule). */
export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** A rule about non-resource paths (authorization/v1 NonResourceRule). */
export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** What a user may do in a namespace, as far as an authorizer can tell (authorizer.RuleResolver's answer). */
export interface RulesResult {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  /** True when the lists are not complete (an authorizer that cannot list what it allows). */
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

/** One authorizer. */
export interface Authorizer {
  readonly name: string;
  authorize(attributes: AuthorizationAttributes): Promise<AuthorizationDecision>;
  /**
   * The rules `user` has in `namespace` (authorizer.RuleResolver). Authorizers without it make a rules review
   * incomplete.
   */
  rulesFor?(user: UserInfo, namespace: string): Promise<RulesResult>;
}
