/**
 * Authorizers and their union (k8s.io/apiserver's authorizer.Authorizer and union.New): each answers allow, deny
 * or no opinion; the first allow or deny wins; no opinion from all is a deny.
 */
import type { RequestInfo } from '../../http/request-info.js';
import type { UserInfo } from '../user-info.js';

/** What is being asked. */
export interface AuthorizationAttributes {
  readonly user: UserInfo;
  readonly info: RequestInfo;
}

/** An authorizer's answer. */
export interface AuthorizationDecision {
  readonly decision: 'allow' | 'deny' | 'no-opinion';
  readonly reason?: string;
}

/** One authorizer. */
export interface Authorizer {
  readonly name: string;
  authorize(attributes: AuthorizationAttributes): Promise<AuthorizationDecision>;
}

/** The union of authorizers, in order. */
export function authorizerUnion(authorizers: readonly Authorizer[]): Authorizer {
  return {
    name: 'union',
    async authorize(attributes) {
      const reasons: string[] = [];
      for (const a of authorizers) {
        const d = await a.authorize(attributes);
        if (d.decision !== 'no-opinion') return d;
        if (d.reason) reasons.push(d.reason);
      }
      return reasons.length > 0 ? { decision: 'no-opinion', reason: reasons.join(', ') } : { decision: 'no-opinion' };
    },
  };
}

/** Allows everything (kube-apiserver's AlwaysAllow mode): the placeholder until RBAC. */
export function alwaysAllow(): Authorizer {
  return { name: 'AlwaysAllow', authorize: async () => ({ decision: 'allow' }) };
}
