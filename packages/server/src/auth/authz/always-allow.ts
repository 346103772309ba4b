/**
 * The AlwaysAllow authorization mode (k8s.io/apiserver's authorizerfactory.NewAlwaysAllowAuthorizer): every
 * request is allowed, and a rules review lists `*` on every resource and every non-resource path.
 */
import type { Authorizer, RulesResult } from '../../request/authorizer.js';

const everything: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

/** Allows everything. */
export function alwaysAllow(): Authorizer {
  return {
    name: 'AlwaysAllow',
    authorize: async () => ({ decision: 'allow' }),
    rulesFor: async () => everything,
  };
}
