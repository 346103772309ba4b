/**
 * The AlwaysDeny authorization mode (k8s.io/apiserver's authorizerfactory.NewAlwaysDenyAuthorizer). As in
 * kube-apiserver it answers no opinion with the reason "Everything is forbidden.", not an explicit deny: alone it
 * forbids every request (no opinion from all is a 403), but a later mode can still allow.
 */
import type { Authorizer, RulesResult } from '../../request/authorizer.js';

const nothing: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };

/** Forbids everything no later mode allows. */
export function alwaysDeny(): Authorizer {
  return {
    name: 'AlwaysDeny',
    authorize: async () => ({ decision: 'no-opinion', reason: 'Everything is forbidden.' }),
    rulesFor: async () => nothing,
  };
}
