/** Builders of RBAC objects for tests, and the suite's grants turned into roles and bindings. */
import type { Names } from '@svc-apiserver/api';
import type { SuiteGrant } from '../auth/authz/authorizer-suite.js';
import { rbacGroupKey, type PolicyObjects } from '../auth/authz/rbac/policy-source.js';
import type { BindingObject, PolicyRule, RoleObject, Subject } from '../registry/resources/rbac-types.js';

/** A Role (with a namespace) or ClusterRole (without). */
export function role(name: string, rules: PolicyRule[], namespace?: string): RoleObject {
  return { metadata: { name, ...(namespace !== undefined ? { namespace } : {}) }, rules };
}

/** A RoleBinding (with a namespace) or ClusterRoleBinding (without). */
export function binding(names: Names, name: string, roleRef: { kind: string; name: string }, subjects: Subject[], namespace?: string): BindingObject {
  return {
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}) },
    roleRef: { apiGroup: names.group(rbacGroupKey), kind: roleRef.kind, name: roleRef.name },
    subjects,
  };
}

/** A User subject. */
export const user = (names: Names, name: string): Subject => ({ kind: 'User', apiGroup: names.group(rbacGroupKey), name });
/** A Group subject. */
export const group = (names: Names, name: string): Subject => ({ kind: 'Group', apiGroup: names.group(rbacGroupKey), name });
/** A ServiceAccount subject. */
export const serviceAccount = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, ...(namespace !== undefined ? { namespace } : {}) });

/** Policy objects in plain lists. */
export interface MutablePolicy extends PolicyObjects {
  roles: RoleObject[];
  clusterRoles: RoleObject[];
  roleBindings: BindingObject[];
  clusterRoleBindings: BindingObject[];
}

/**
 * The suite's grants as policy: cluster-wide grants as ClusterRoles with ClusterRoleBindings; namespaced ones as
 * RoleBindings, alternately to a Role and to a ClusterRole (a RoleBinding to a ClusterRole grants it in its
 * namespace only).
 */
export function policyForGrants(names: Names, grants: readonly SuiteGrant[]): MutablePolicy {
  const out: MutablePolicy = { roles: [], clusterRoles: [], roleBindings: [], clusterRoleBindings: [] };
  grants.forEach((g, i) => {
    const rule: PolicyRule = {
      verbs: [...g.verbs],
      ...(g.apiGroups ? { apiGroups: [...g.apiGroups] } : {}),
      ...(g.resources ? { resources: [...g.resources] } : {}),
      ...(g.resourceNames ? { resourceNames: [...g.resourceNames] } : {}),
      ...(g.nonResourceURLs ? { nonResourceURLs: [...g.nonResourceURLs] } : {}),
    };
    const subject = g.subject.kind === 'User' ? user(names, g.subject.name) : group(names, g.subject.name);
    const roleName = `grant-${i}`;
    if (g.namespace === '') {
      out.clusterRoles.push(role(roleName, [rule]));
      out.clusterRoleBindings.push(binding(names, roleName, { kind: 'ClusterRole', name: roleName }, [subject]));
    } else if (i % 2 === 0) {
      out.roles.push(role(roleName, [rule], g.namespace));
      out.roleBindings.push(binding(names, roleName, { kind: 'Role', name: roleName }, [subject], g.namespace));
    } else {
      out.clusterRoles.push(role(roleName, [rule]));
      out.roleBindings.push(binding(names, roleName, { kind: 'ClusterRole', name: roleName }, [subject], g.namespace));
    }
  });
  return out;
}
