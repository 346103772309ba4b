/**
 * Matching one RBAC rule against one request: kube's rbac/v1 evaluation helpers (VerbMatches, APIGroupMatches,
 * ResourceMatches, ResourceNameMatches, NonResourceURLMatches) and the RBAC authorizer's RuleAllows.
 */
import type { RequestInfo } from '../../../request/request-info.js';
import type { PolicyRule } from '../../../registry/resources/rbac-types.js';

/** The wildcard of verbs, groups, resources and non-resource URLs (rbacv1.VerbAll and friends). */
export const ruleWildcard = '*';

/** True when the rule lists the verb or `*` (rbacv1 VerbMatches). */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  for (const v of rule.verbs) if (v === ruleWildcard || v === verb) return true;
  return false;
}

/** True when the rule lists the group (`""` is the core group) or `*` (rbacv1 APIGroupMatches). */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  for (const g of rule.apiGroups ?? []) if (g === ruleWildcard || g === group) return true;
  return false;
}

/**
 * True when the rule lists `*`, the combined `<resource>/<subresource>`, or `*\/<subresource>` (rbacv1
 * ResourceMatches). A bare resource never grants its subresources.
 */
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ruleWildcard || r === combinedResource) return true;
    if (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** True when the rule has no resourceNames (all names) or lists the name (rbacv1 ResourceNameMatches). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  if (names.length === 0) return true;
  return names.includes(name);
}

/**
 * True when the rule lists `*`, the exact path, or a path ending in `*` that the requested path starts with
 * (rbacv1 NonResourceURLMatches; validation keeps `*` to the whole last segment, as in `/apis/*`).
 */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ruleWildcard || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** `<resource>/<subresource>`, or the resource alone. */
export function combinedResource(info: Pick<RequestInfo, 'resource' | 'subresource'>): string {
  return info.subresource !== '' ? `${info.resource}/${info.subresource}` : info.resource;
}

/**
 * True when the rule grants the request (kube's RBAC RuleAllows): a resource request matches verb, group,
 * resource (with subresource) and name; any other request matches verb (the lowercase HTTP method) and path.
 */
export function ruleAllows(info: RequestInfo, rule: PolicyRule): boolean {
  if (info.isResourceRequest) {
    return verbMatches(rule, info.verb) && apiGroupMatches(rule, info.apiGroup)
      && resourceMatches(rule, combinedResource(info), info.subresource) && resourceNameMatches(rule, info.name);
  }
  return verbMatches(rule, info.verb) && nonResourceURLMatches(rule, info.path);
}

/** True when some rule grants the request (kube's RulesAllow). */
export function rulesAllow(info: RequestInfo, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(info, r));
}
