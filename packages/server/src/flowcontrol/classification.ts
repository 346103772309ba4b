/**
 * Classification of a request (k8s.io/apiserver/pkg/util/flowcontrol's matching): the FlowSchemas in order of
 * matchingPrecedence (then name), the first whose rules match the request's user and target wins; its
 * distinguisher method splits its requests into flows by user or namespace.
 */
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';
import type { FlowSchema, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from './configuration-objects.js';

const any = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((v) => v === '*' || v === value);

function subjectMatches(s: Subject, r: UserInfo): boolean {
  switch (s.kind) {
    case 'User':
      return s.user.name === '*' || s.user.name === r.username;
    case 'Group':
      return s.group.name === '*' || r.groups.includes(s.group.name);
    case 'ServiceAccount': {
      const prefix = `system:serviceaccount:${s.serviceAccount.namespace}:`;
      return r.username.startsWith(prefix) && (s.serviceAccount.name === '*' || r.username === prefix + s.serviceAccount.name);
    }
  }
}

function resourceRuleMatches(rule: ResourcePolicyRule, r: RequestInfo): boolean {
  if (!r.isResourceRequest) return false;
  const resource = r.subresource === '' ? r.resource : `${r.resource}/${r.subresource}`;
  if (!any(rule.verbs, r.verb) || !any(rule.apiGroups, r.apiGroup) || !any(rule.resources, resource)) return false;
  return r.namespace === '' ? rule.clusterScope === true : any(rule.namespaces, r.namespace);
}

function nonResourceRuleMatches(rule: NonResourcePolicyRule, r: RequestInfo): boolean {
  if (r.isResourceRequest || !any(rule.verbs, r.verb)) return false;
  return rule.nonResourceURLs.some((u) => {
    if (u === '*' || u === r.path) return true;
    if (!u.endsWith('/*')) return false;
    const prefix = u.slice(0, -2);
    return r.path === prefix || r.path.startsWith(`${prefix}/`);
  });
}

function rulesMatch(rules: PolicyRulesWithSubjects, user: UserInfo, info: RequestInfo): boolean {
  if (!rules.subjects.some((s) => subjectMatches(s, user))) return false;
  return (rules.resourceRules ?? []).some((x) => resourceRuleMatches(x, info)) || (rules.nonResourceRules ?? []).some((x) => nonResourceRuleMatches(x, info));
}

/** Whether a FlowSchema matches the request of `user`. */
export function flowSchemaMatches(fs: FlowSchema, user: UserInfo, info: RequestInfo): boolean {
  return (fs.spec.rules ?? []).some((rules) => rulesMatch(rules, user, info));
}

/** FlowSchemas in the order they are tried: matchingPrecedence, then name. */
export function inMatchingOrder(schemas: readonly FlowSchema[]): FlowSchema[] {
  const precedence = (fs: FlowSchema): number => fs.spec.matchingPrecedence ?? 1000;
  return [...schemas].sort((a, b) => precedence(a) - precedence(b) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
}

/** The flow distinguisher of a request under a FlowSchema: the user, the namespace, or nothing. */
export function flowDistinguisher(fs: FlowSchema, user: UserInfo, info: RequestInfo): string {
  switch (fs.spec.distinguisherMethod?.type) {
    case 'ByUser':
      return user.username;
    case 'ByNamespace':
      return info.namespace;
    default:
      return '';
  }
}
