/**
 * The privileged groups authorizer (k8s.io/apiserver's authorizerfactory.NewPrivilegedGroups), placed before every
 * mode by kube-apiserver with `system:masters`: members of these groups may do anything, whatever the modes say.
 */
import type { Authorizer, RulesResult } from '../../request/authorizer.js';

/** The group kube-apiserver always allows (user.SystemPrivilegedGroup). */
export const systemPrivilegedGroup = 'system:masters';

const nothing: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };

/**
 * Allows members of `groups`; no opinion for others. kube-apiserver does not count it among the rule resolvers,
 * so its rules are empty and complete: a rules review shows what the modes grant.
 */
export function privilegedGroups(groups: readonly string[] = [systemPrivilegedGroup]): Authorizer {
  const privileged = new Set(groups);
  return {
    name: 'privileged-groups',
    authorize: async ({ user }) => (user.groups.some((g) => privileged.has(g)) ? { decision: 'allow' } : { decision: 'no-opinion' }),
    rulesFor: async () => nothing,
  };
}
