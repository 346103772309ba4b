/**
 * Escalation prevention (kube's pkg/registry/rbac: escalation_check.go, validation/ConfirmNoEscalation, the
 * policy-based storages of roles, clusterroles, rolebindings and clusterrolebindings, and component-helpers'
 * Covers): a user may write a role, or bind one, only with every permission it grants, unless allowed to
 * `escalate` roles or `bind` that role, or a member of `system:masters`.
 */
import {
  fail, forbidden, notFound, ok, type KubeObject, type Names, type Result, type Status,
} from '@svc-apiserver/api';
import type { RequestInfo } from '../../../request/request-info.js';
import type { UserInfo } from '../../../request/user-info.js';
import type { Authorizer } from '../../../request/authorizer.js';
import { rbacGroupKey, type RoleGetter } from './policy-source.js';
import type { BindingObject, PolicyRule, RoleObject } from '../../../registry/resources/rbac-types.js';
import type { RbacWriteGuard } from '../../../registry/resources/rbac-write-guard.js';
import { onlyGcFieldsChanged } from '../../../registry/gc-fields.js';
import { aggregateErrors, type RuleResolver } from './rule-resolver.js';
import { ruleWildcard } from './rule-matching.js';

/** The group whose members may always escalate (user.SystemPrivilegedGroup). */
export const systemMastersGroup = 'system:masters';

/** Every permission: what setting an aggregationRule needs (kube's fullAuthority). */
export const fullAuthority: readonly PolicyRule[] = [
  { verbs: [ruleWildcard], apiGroups: [ruleWildcard], resources: [ruleWildcard] },
  { verbs: [ruleWildcard], nonResourceURLs: [ruleWildcard] },
];

/**
 * Splits a rule into rules of one group, resource, verb and resource name (or one non-resource URL and verb):
 * kube's BreakdownRule, so that each piece is covered by a single owner rule or not at all.
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length > 0) {
          for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]): boolean => wanted.every((w) => set.includes(w));

function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ruleWildcard) || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0 || !owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

/** kube's ruleCovers: whether one owner rule covers a broken-down rule. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerGroups = owner.apiGroups ?? [];
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  return (owner.verbs.includes(ruleWildcard) || hasAll(owner.verbs, sub.verbs))
    && (ownerGroups.includes(ruleWildcard) || hasAll(ownerGroups, sub.apiGroups ?? []))
    && resourcesCover(owner.resources ?? [], sub.resources ?? [])
    && (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, p)))
    && (subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames));
}

/** Whether the owner's rules cover the servant's (kube's Covers), with the broken-down rules they do not. */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const servant of servantRules) {
    for (const sub of breakdownRule(servant)) if (!ownerRules.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return { covered: missing.length === 0, missing };
}

/**
 * Merges rules of one group and one resource, without names or URLs, that differ only by verb (kube's
 * CompactRules, for the missing-rules message).
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, { apiGroups: string[]; resources: string[]; verbs: string[] }>();
  for (const rule of rules) {
    const groups = rule.apiGroups ?? [];
    const resources = rule.resources ?? [];
    const isSimple = (rule.resourceNames ?? []).length === 0 && (rule.nonResourceURLs ?? []).length === 0
      && groups.length === 1 && resources.length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([groups[0], resources[0]]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...rule.verbs);
    else simple.set(key, { apiGroups: [...groups], resources: [...resources], verbs: [...rule.verbs] });
  }
  out.push(...simple.values());
  return out;
}

/** Go's `%q` of a string list: `["a" "b"]`. */
function goQuoteList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

/** A rule as kube's escalation messages print it: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactRuleString(rule: PolicyRule): string {
  const parts: string[] = [];
  if ((rule.apiGroups ?? []).length > 0) parts.push(`APIGroups:${goQuoteList(rule.apiGroups!)}`);
  if ((rule.resources ?? []).length > 0) parts.push(`Resources:${goQuoteList(rule.resources!)}`);
  if ((rule.nonResourceURLs ?? []).length > 0) parts.push(`NonResourceURLs:${goQuoteList(rule.nonResourceURLs!)}`);
  if ((rule.resourceNames ?? []).length > 0) parts.push(`ResourceNames:${goQuoteList(rule.resourceNames!)}`);
  if (rule.verbs.length > 0) parts.push(`Verbs:${goQuoteList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** Byte-wise string order, as Go's sort.Strings. */
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * kube's ConfirmNoEscalation: undefined when the user's rules in `namespace` cover `rules`, else the message
 * `user "u" (groups=["g"]) is attempting to grant RBAC permissions not currently held:` with each missing rule
 * (compacted, sorted, one a line), and `; resolution errors: [...]` when the user's own rules had errors.
 */
export function confirmNoEscalation(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const owner = resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(owner.rules, rules);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactRuleString))].sort(byteOrder);
  let message = `user ${JSON.stringify(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // kube prints its list of one aggregate error with `%v`.
  if (owner.errors.length > 0) message += `; resolution errors: [${aggregateErrors(owner.errors)}]`;
  return message;
}

/** What {@link createRbacWriteGuard} needs. */
export interface RbacWriteGuardDeps {
  /** The RBAC rules of the writer (kube resolves them from RBAC alone, whatever the authorization modes). */
  readonly resolver: RuleResolver;
  /** The server's whole authorizer, asked about `escalate` and `bind` (late-bound: built after the registry). */
  readonly authorizer: () => Authorizer;
  readonly names: Names;
  /**
   * An authoritative read of a binding's role (kube reads it from storage); without it, the resolver's view,
   * which may lag a role written just before.
   */
  readonly getRole?: RoleGetter;
}

function hasAggregationRule(role: RoleObject | undefined): boolean {
  return (role?.aggregationRule?.clusterRoleSelectors ?? []).length > 0;
}

/** Builds the checks kube's policy-based RBAC storages make (the registry's {@link RbacWriteGuard}). */
export function createRbacWriteGuard(deps: RbacWriteGuardDeps): RbacWriteGuard {
  const group = deps.names.group(rbacGroupKey);
  const isMaster = (user: UserInfo): boolean => user.groups.includes(systemMastersGroup);

  const allowedTo = async (user: UserInfo, verb: string, apiGroup: string, resource: string, namespace: string, name: string): Promise<boolean> => {
    const info: RequestInfo = {
      isResourceRequest: true, path: '', verb, apiPrefix: 'apis', apiGroup, apiVersion: '*', namespace, resource,
      subresource: '', name, parts: [],
    };
    const d = await deps.authorizer().authorize({ user, info });
    return d.decision === 'allow';
  };

  const resolveRoleRef = async (object: BindingObject, namespace: string): Promise<Result<readonly PolicyRule[], Status | undefined>> => {
    const ref = object.roleRef;
    if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole') return fail(undefined);
    if (deps.getRole !== undefined) {
      const got = await deps.getRole(ref.kind, ref.kind === 'Role' ? namespace : '', ref.name);
      return got.ok ? ok(got.value.rules ?? []) : got;
    }
    const got = deps.resolver.getRoleReferenceRules(ref, namespace);
    if (got.ok) return got;
    return fail(notFound({ group, resource: ref.kind === 'Role' ? 'roles' : 'clusterroles' }, ref.name));
  };

  return {
    async checkRole(resource, object, old, user) {
      if (isMaster(user)) return undefined;
      if (old !== undefined && onlyGcFieldsChanged(object, old)) return undefined;
      const name = object.metadata?.name ?? '';
      const namespace = resource === 'roles' ? object.metadata?.namespace ?? old?.metadata?.namespace ?? '' : '';
      // kube asks with the request's name: none on a create (POST to the collection).
      if (await allowedTo(user, 'escalate', group, resource, namespace, old === undefined ? '' : name)) return undefined;
      const qr = { group, resource };
      const missing = confirmNoEscalation(deps.resolver, user, namespace, object.rules ?? []);
      if (missing !== undefined) return forbidden(qr, name, missing);
      // An aggregation rule can gather any rule, and keeps a role from being tightened: it needs every permission.
      if (resource === 'clusterroles' && (hasAggregationRule(object) || hasAggregationRule(old))
        && confirmNoEscalation(deps.resolver, user, namespace, fullAuthority) !== undefined) {
        return forbidden(qr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
      return undefined;
    },

    async checkBinding(resource, object, old, user) {
      if (isMaster(user)) return undefined;
      if (old !== undefined && onlyGcFieldsChanged(object, old)) return undefined;
      const name = object.metadata?.name ?? '';
      const namespace = resource === 'rolebindings' ? object.metadata?.namespace ?? old?.metadata?.namespace ?? '' : '';
      const ref = object.roleRef;
      if (ref === undefined || ref === null) return undefined; // validation reports the missing roleRef
      // kube's BindingAuthorized: `bind` on the referenced role, in the binding's namespace ('' cluster-wide), in
      // the roleRef's group (validation rejects any group but RBAC's).
      if ((ref.kind === 'Role' || ref.kind === 'ClusterRole')
        && await allowedTo(user, 'bind', ref.apiGroup ?? '', ref.kind === 'Role' ? 'roles' : 'clusterroles', namespace, ref.name)) {
        return undefined;
      }
      // A ClusterRoleBinding to a Role, or an unknown kind, grants nothing and fails validation: leave it to that.
      if ((resource === 'clusterrolebindings' && ref.kind !== 'ClusterRole') || (ref.kind !== 'Role' && ref.kind !== 'ClusterRole')) return undefined;
      const rules = await resolveRoleRef(object, namespace);
      if (!rules.ok) return rules.error;
      const missing = confirmNoEscalation(deps.resolver, user, namespace, rules.value);
      return missing === undefined ? undefined : forbidden({ group, resource }, name, missing);
    },
  };
}
