/**
 * Which rules apply to a user in a namespace: kube's DefaultRuleResolver (pkg/registry/rbac/validation/rule.go).
 * ClusterRoleBindings first, then the RoleBindings of the namespace; each binding whose subjects include the user
 * contributes the rules of its role; unresolvable roles and malformed subjects are reported as errors beside the
 * rules still found, since rules only ever add permissions.
 */
import { fail, ok, type Names, type Result } from '@svc-apiserver/api';
import type { UserInfo } from '../../../request/user-info.js';
import { rbacGroupKey, serviceAccountUsernamePrefix, type RbacPolicySource } from './policy-source.js';
import type { BindingObject, PolicyRule, RoleRef, Subject } from '../../../registry/resources/rbac-types.js';

/** Where a rule came from (kube's clusterRoleBindingDescriber / roleBindingDescriber). */
export interface RuleSource {
  readonly kind: 'ClusterRoleBinding' | 'RoleBinding';
  readonly binding: BindingObject;
  /** The first subject of the binding that applies to the user. */
  readonly subject: Subject;
  /** `ClusterRoleBinding "x" of ClusterRole "y" to User "z"` or `RoleBinding "x/ns" of Role "y" to Group "g"`. */
  toString(): string;
}

/** Told of each rule (with its source) or error; returning false stops the visit. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

/** The rules a user holds, with the errors met finding them (the rules found still apply). */
export interface ResolvedRules {
  readonly rules: PolicyRule[];
  readonly errors: string[];
}

/** kube's AuthorizationRuleResolver. */
export interface RuleResolver {
  /** Visits the rules that apply to `user` in `namespace` (`''`: cluster-wide only). */
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void;
  rulesFor(user: UserInfo, namespace: string): ResolvedRules;
  /** The rules of a binding's roleRef, or why they cannot be had; `bindingNamespace` is `''` for a ClusterRoleBinding. */
  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string): Result<readonly PolicyRule[], string>;
}

/**
 * Joins errors as kube's utilerrors aggregate prints them: one error alone, several as `[a, b]`, duplicates once.
 * Empty for none.
 */
export function aggregateErrors(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

/** Go's %q for the names that appear here: plain quotes unless the text needs escapes (JSON's are close enough). */
const q = (s: string): string => (/["\\\x00-\x1f\x7f]/.test(s) ? JSON.stringify(s) : `"${s}"`);

/** kube's describeSubject: service accounts as `name/namespace`. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${q(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${q(s.name)}`;
}

function describeBinding(kind: RuleSource['kind'], binding: BindingObject): string {
  const name = binding.metadata?.name ?? '';
  return kind === 'ClusterRoleBinding' ? `ClusterRoleBinding ${q(name)}` : `RoleBinding ${q(`${name}/${binding.metadata?.namespace ?? ''}`)}`;
}

function ruleSource(kind: RuleSource['kind'], binding: BindingObject, subject: Subject): RuleSource {
  return {
    kind,
    binding,
    subject,
    toString: () => `${describeBinding(kind, binding)} of ${binding.roleRef.kind} ${q(binding.roleRef.name)} to ${describeSubject(subject, kind === 'RoleBinding' ? binding.metadata?.namespace ?? '' : '')}`,
  };
}

/** The index of the subject that names the user, why a subject naming them is broken, or undefined: none does. */
type Applies = Result<number, string> | undefined;

/**
 * kube's appliesTo: the first subject that names the user. Beyond kube, subjects that break the RBAC rules
 * (unknown kind; namespace on User or Group; wrong apiGroup) grant nothing and are reported as errors, as the
 * API's description of Subject asks of the authorizer; an unknown kind concerns everyone.
 */
function appliesTo(user: UserInfo, subjects: readonly Subject[], namespace: string, rbacGroup: string, describe: () => string): Applies {
  let error: string | undefined;
  const fault = (i: number, text: string): void => {
    error ??= `${describe()}: subjects[${i}].${text}`;
  };
  for (let i = 0; i < subjects.length; i++) {
    const s = subjects[i]!;
    const apiGroup = s.apiGroup ?? '';
    switch (s.kind) {
      case 'User':
      case 'Group': {
        const named = s.kind === 'User' ? user.username === s.name : user.groups.includes(s.name);
        if (!named) break;
        // An empty apiGroup is what defaulting fills in; objects read before defaulting may lack it.
        if (apiGroup !== '' && apiGroup !== rbacGroup) fault(i, `apiGroup: Unsupported value: ${q(apiGroup)}: supported values: ${q(rbacGroup)}`);
        else if (s.namespace) fault(i, `namespace: Invalid value: ${q(s.namespace)}: must be empty for kind ${q(s.kind)}`);
        else return ok(i);
        break;
      }
      case 'ServiceAccount': {
        const ns = s.namespace || namespace;
        if (ns === '' || user.username !== `${serviceAccountUsernamePrefix}${ns}:${s.name}`) break;
        if (apiGroup !== '') fault(i, `apiGroup: Unsupported value: ${q(apiGroup)}: supported values: ""`);
        else return ok(i);
        break;
      }
      default:
        fault(i, `kind: Unsupported value: ${q(s.kind)}: supported values: "Group", "ServiceAccount", "User"`);
    }
  }
  return error === undefined ? undefined : fail(error);
}

/** Builds the resolver over a policy source. */
export function createRuleResolver(source: RbacPolicySource, names: Names): RuleResolver {
  const rbacGroup = names.group(rbacGroupKey);

  const getRoleReferenceRules = (roleRef: RoleRef, bindingNamespace: string): Result<readonly PolicyRule[], string> => {
    switch (roleRef.kind) {
      case 'Role': {
        const role = bindingNamespace === '' ? undefined : source.getRole(bindingNamespace, roleRef.name);
        // The lister's NotFound: singular resource, qualified by the group.
        if (role === undefined) return fail(`role.${rbacGroup} ${q(roleRef.name)} not found`);
        return ok(role.rules ?? []);
      }
      case 'ClusterRole': {
        const role = source.getClusterRole(roleRef.name);
        if (role === undefined) return fail(`clusterrole.${rbacGroup} ${q(roleRef.name)} not found`);
        return ok(role.rules ?? []);
      }
      default:
        return fail(`unsupported role reference kind: ${q(roleRef.kind)}`);
    }
  };

  /** Visits the bindings of one scope; false when the visitor stopped. */
  const visitBindings = (
    kind: RuleSource['kind'], bindings: readonly BindingObject[], user: UserInfo, namespace: string, visitor: RuleVisitor,
  ): boolean => {
    for (const binding of bindings) {
      const subjects = binding.subjects ?? [];
      const applies = appliesTo(user, subjects, namespace, rbacGroup, () => describeBinding(kind, binding));
      if (applies === undefined) continue;
      if (!applies.ok) {
        if (!visitor(undefined, undefined, applies.error)) return false;
        continue;
      }
      const resolved = getRoleReferenceRules(binding.roleRef ?? { apiGroup: '', kind: '', name: '' }, namespace);
      if (!resolved.ok) {
        if (!visitor(undefined, undefined, resolved.error)) return false;
        continue;
      }
      if (resolved.value.length === 0) continue;
      const src = ruleSource(kind, binding, subjects[applies.value]!);
      for (const rule of resolved.value) if (!visitor(src, rule, undefined)) return false;
    }
    return true;
  };

  const visitRulesFor = (user: UserInfo, namespace: string, visitor: RuleVisitor): void => {
    if (!visitBindings('ClusterRoleBinding', source.clusterRoleBindingsFor(user), user, '', visitor)) return;
    if (namespace !== '') visitBindings('RoleBinding', source.roleBindingsFor(user, namespace), user, namespace, visitor);
  };

  return {
    visitRulesFor,
    rulesFor(user, namespace) {
      const rules: PolicyRule[] = [];
      const errors: string[] = [];
      visitRulesFor(user, namespace, (_source, rule, error) => {
        if (rule !== undefined) rules.push(rule);
        if (error !== undefined) errors.push(error);
        return true;
      });
      return { rules, errors };
    },
    getRoleReferenceRules,
  };
}
