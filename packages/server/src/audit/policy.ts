/**
 * The audit policy of `--audit-policy-file` (audit.k8s.io/v1 Policy, `audit.svc.io/v1` in the svc flavour) and its
 * evaluation, as k8s.io/apiserver's policy checker does it: the first rule that matches a request gives its level
 * and stages to omit; a request no rule matches is not audited (level None). A rule matches when each of its
 * non-empty lists matches: users, userGroups (any group), verbs, then either resources (with resourceNames) and
 * namespaces for resource requests, or nonResourceURLs (exact, or a prefix ending in `*`) for the others.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import type { UserInfo } from '../request/user-info.js';
import type { RequestInfo } from '../request/request-info.js';
import { auditLevels, auditStages, type AuditLevel, type AuditStage } from './event.js';

/** A group and resources of a rule (audit.GroupResources). */
export interface GroupResources {
  /** `''` is the core group. */
  readonly group: string;
  /** Resource names, `resource/subresource`, `*` / `*` forms; empty: every resource of the group. */
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** One rule of a policy (audit.PolicyRule). */
export interface PolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  /** `''` matches cluster-scoped resources. */
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields?: boolean;
}

/** A policy (audit.Policy). */
export interface AuditPolicy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** What the policy decides for a request (audit.RequestAuditConfig). */
export interface RuleEvaluation {
  readonly level: AuditLevel;
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

const has = (list: readonly string[], value: string): boolean => list.includes(value);

function matchesResource(rule: PolicyRule, a: RequestInfo): boolean {
  if (!a.isResourceRequest) return false;
  if (rule.namespaces.length > 0 && !has(rule.namespaces, a.namespace)) return false;
  if (rule.resources.length === 0) return true;
  const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  const wildSub = a.subresource === '' ? undefined : `*/${a.subresource}`;
  const allSubs = `${a.resource}/*`;
  for (const gr of rule.resources) {
    if (gr.group !== a.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    for (const r of gr.resources) {
      if (r === combined || r === '*' || r === wildSub || (a.subresource !== '' && r === allSubs)) {
        if (gr.resourceNames.length === 0 || has(gr.resourceNames, a.name)) return true;
      }
    }
  }
  return false;
}

function matchesNonResource(rule: PolicyRule, a: RequestInfo): boolean {
  if (a.isResourceRequest) return false;
  return rule.nonResourceURLs.some((u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))));
}

/** Whether `rule` matches the request of `user` (k8s.io/apiserver's ruleMatches). */
export function ruleMatches(rule: PolicyRule, user: UserInfo, info: RequestInfo): boolean {
  if (rule.users.length > 0 && !has(rule.users, user.username)) return false;
  if (rule.userGroups.length > 0 && !user.groups.some((g) => has(rule.userGroups, g))) return false;
  if (rule.verbs.length > 0 && !has(rule.verbs, info.verb)) return false;
  if (rule.namespaces.length > 0 || rule.resources.length > 0) return matchesResource(rule, info);
  if (rule.nonResourceURLs.length > 0) return matchesNonResource(rule, info);
  return true;
}

/** The level, stages to omit and managedFields choice for a request: the first matching rule's, else None. */
export function evaluatePolicy(policy: AuditPolicy, user: UserInfo, info: RequestInfo): RuleEvaluation {
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, user, info)) continue;
    return {
      level: rule.level,
      omitStages: [...new Set([...policy.omitStages, ...rule.omitStages])],
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
    };
  }
  return { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields };
}

type Fields = Record<string, unknown>;
const fieldsOf = (v: unknown): Fields | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : undefined);

function strings(v: unknown, path: string, errors: string[]): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    errors.push(`${path}: Invalid value: must be a list of strings`);
    return [];
  }
  return v as string[];
}

function stages(v: unknown, path: string, errors: string[]): AuditStage[] {
  const list = strings(v, path, errors);
  list.forEach((s, i) => {
    if (!(auditStages as readonly string[]).includes(s)) errors.push(`${path}[${i}]: Invalid value: "${s}": allowed stages are ${auditStages.join(', ')}`);
  });
  return list as AuditStage[];
}

function parseRule(v: unknown, path: string, errors: string[]): PolicyRule | undefined {
  const r = fieldsOf(v);
  if (r === undefined) {
    errors.push(`${path}: Invalid value: must be an object`);
    return undefined;
  }
  const level = r['level'];
  if (typeof level !== 'string' || !(auditLevels as readonly string[]).includes(level)) {
    errors.push(`${path}.level: ${level === undefined || level === '' ? 'Required value' : `Unsupported value: "${String(level)}": supported values: "${auditLevels.join('", "')}"`}`);
  }
  const resources: GroupResources[] = [];
  const rawResources = r['resources'];
  if (rawResources !== undefined && rawResources !== null && !Array.isArray(rawResources)) errors.push(`${path}.resources: Invalid value: must be a list`);
  (Array.isArray(rawResources) ? rawResources : []).forEach((g, i) => {
    const gr = fieldsOf(g) ?? {};
    const group = gr['group'] ?? '';
    const where = `${path}.resources[${i}]`;
    if (typeof group !== 'string') errors.push(`${where}.group: Invalid value: must be a string`);
    const res = strings(gr['resources'], `${where}.resources`, errors);
    const resourceNames = strings(gr['resourceNames'], `${where}.resourceNames`, errors);
    if (resourceNames.length > 0 && res.length === 0) errors.push(`${where}.resourceNames: Invalid value: using resourceNames requires at least one resource`);
    res.forEach((name, j) => {
      if (name === '' || name.split('/').length > 2 || (name.includes('*') && name !== '*' && !/^\*\/[^*/]+$/.test(name) && !/^[^*/]+\/\*$/.test(name))) {
        errors.push(`${where}.resources[${j}]: Invalid value: "${name}": must be a resource, resource/subresource, */subresource, resource/* or *`);
      }
      if (resourceNames.length > 0 && name.includes('*')) errors.push(`${where}.resourceNames: Invalid value: using resourceNames with a wildcard resource is not allowed`);
    });
    resources.push({ group: typeof group === 'string' ? group : '', resources: res, resourceNames });
  });
  const namespaces = strings(r['namespaces'], `${path}.namespaces`, errors);
  const nonResourceURLs = strings(r['nonResourceURLs'], `${path}.nonResourceURLs`, errors);
  nonResourceURLs.forEach((u, i) => {
    if (u !== '*' && (!u.startsWith('/') || u.slice(0, -1).includes('*'))) {
      errors.push(`${path}.nonResourceURLs[${i}]: Invalid value: "${u}": non-resource URLs must begin with "/" and may have "*" only at the end`);
    }
  });
  if (nonResourceURLs.length > 0 && (resources.length > 0 || namespaces.length > 0)) {
    errors.push(`${path}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`);
  }
  const omitManagedFields = r['omitManagedFields'];
  if (omitManagedFields !== undefined && omitManagedFields !== null && typeof omitManagedFields !== 'boolean') errors.push(`${path}.omitManagedFields: Invalid value: must be a boolean`);
  return {
    level: level as AuditLevel,
    users: strings(r['users'], `${path}.users`, errors),
    userGroups: strings(r['userGroups'], `${path}.userGroups`, errors),
    verbs: strings(r['verbs'], `${path}.verbs`, errors),
    resources,
    namespaces,
    nonResourceURLs,
    omitStages: stages(r['omitStages'], `${path}.omitStages`, errors),
    ...(typeof omitManagedFields === 'boolean' ? { omitManagedFields } : {}),
  };
}

/** Checks a policy document (YAML or JSON already parsed) and builds the policy, or lists what is wrong. */
export function parsePolicy(document: unknown, names: Names): Result<AuditPolicy, string> {
  const doc = fieldsOf(document);
  if (doc === undefined) return fail('the audit policy must be an object');
  const apiVersion = `${names.group('audit')}/v1`;
  if (doc['kind'] !== 'Policy' || doc['apiVersion'] !== apiVersion) {
    return fail(`the audit policy must be kind Policy in ${apiVersion}, not ${String(doc['kind'])} in ${String(doc['apiVersion'])}`);
  }
  const errors: string[] = [];
  const rawRules = doc['rules'];
  if (!Array.isArray(rawRules) || rawRules.length === 0) errors.push('rules: Required value: at least one rule is needed');
  const rules = (Array.isArray(rawRules) ? rawRules : []).map((r, i) => parseRule(r, `rules[${i}]`, errors));
  const omitStages = stages(doc['omitStages'], 'omitStages', errors);
  const omitManagedFields = doc['omitManagedFields'];
  if (omitManagedFields !== undefined && typeof omitManagedFields !== 'boolean') errors.push('omitManagedFields: Invalid value: must be a boolean');
  if (errors.length > 0) return fail(`invalid audit policy: ${errors.join(', ')}`);
  return ok({ rules: rules as PolicyRule[], omitStages, omitManagedFields: omitManagedFields === true });
}

/** Reads and checks the policy file (YAML or JSON). */
export function loadPolicyFile(path: string, names: Names): Result<AuditPolicy, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`unable to read the audit policy file "${path}": ${(e as Error).message}`);
  }
  let document: unknown;
  try {
    document = parse(text, { maxAliasCount: 100, prettyErrors: false });
  } catch (e) {
    return fail(`${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  const policy = parsePolicy(document, names);
  return policy.ok ? policy : fail(`${path}: ${policy.error}`);
}
