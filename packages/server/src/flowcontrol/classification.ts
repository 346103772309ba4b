/**
 * Classification of a request (k8s.io/apiserver/pkg/util/flowcontrol's matching): the FlowSchemas in order of
 * matchingPrecedence (then name), the first whose rules match the request's user and target wins; its
 * distinguisher method splits its requests into flows by user or namespace.
 */
import type { FlowSchema, NonResourcePolicyRule, PolicyRulesWithSubjects, ResourcePolicyRule, Subject } from './configuration-objects.js';

/** What classification reads of a request. */
export interface ClassifiedRequest {
  readonly username: string;
  readonly groups: readonly string[];
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly path: string;
}

const any = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).some((v) => v === '*' || v === value);

function subjectMatches(s: Subject, r: ClassifiedRequest): boolean {
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

function resourceRuleMatches(rule: ResourcePolicyRule, r: ClassifiedRequest): boolean {
  if (!r.isResourceRequest) return false;
  const resource = r.subresource === '' ? r.resource : `${r.resource}/${r.subresource}`;
  if (!any(rule.verbs, r.verb) || !any(rule.apiGroups, r.apiGroup) || !any(rule.resources, resource)) return false;
  return r.namespace === '' ? rule.clusterScope === true : any(rule.namespaces, r.namespace);
}

function nonResourceRuleMatches(rule: NonResourcePolicyRule, r: ClassifiedRequest): boolean {
  if (r.isResourceRequest || !any(rule.verbs, r.verb)) return false;
  return rule.nonResourceURLs.some((u) => {
    if (u === '*' || u === r.path) return true;
    if (!u.endsWith('/*')) return false;
    const prefix = u.slice(0, -2);
    return r.path === prefix || r.path.startsWith(`${prefix}/`);
  });
}

function rulesMatch(rules: PolicyRulesWithSubjects, r: ClassifiedRequest): boolean {
  if (!rules.subjects.some((s) => subjectMatches(s, r))) return false;
  return (rules.resourceRules ?? []).some((x) => resourceRuleMatches(x, r)) || (rules.nonResourceRules ?? []).some((x) => nonResourceRuleMatches(x, r));
}

/** Whether a FlowSchema matches the request. */
export function flowSchemaMatches(fs: FlowSchema, r: ClassifiedRequest): boolean {
  return (fs.spec.rules ?? []).some((rules) => rulesMatch(rules, r));
}

/** FlowSchemas in the order they are tried: matchingPrecedence, then name. */
export function inMatchingOrder(schemas: readonly FlowSchema[]): FlowSchema[] {
  const precedence = (fs: FlowSchema): number => fs.spec.matchingPrecedence ?? 1000;
  return [...schemas].sort((a, b) => precedence(a) - precedence(b) || (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
}

/** The flow distinguisher of a request under a FlowSchema: the user, the namespace, or nothing. */
export function flowDistinguisher(fs: FlowSchema, r: ClassifiedRequest): string {
  switch (fs.spec.distinguisherMethod?.type) {
    case 'ByUser':
      return r.username;
    case 'ByNamespace':
      return r.namespace;
    default:
      return '';
  }
}
