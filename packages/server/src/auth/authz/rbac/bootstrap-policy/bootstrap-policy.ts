/**
 * kube-apiserver's default RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): the ClusterRoles,
 * ClusterRoleBindings, controller roles (`system:controller:*`) with their bindings, and the Roles and RoleBindings
 * of the system and public namespaces. The objects are upstream data (upstream/k8s-1.27/bootstrap-policy/, the
 * policy's own test fixtures, which are the policy as the server builds it with default feature gates), turned into
 * generated/bootstrap-policy.json by the generate script and renamed into the flavour when loaded.
 */
import { readFileSync } from 'node:fs';
import type { Names } from '@svc-apiserver/api';
import type { BindingObject, RoleObject } from '../../../../registry/resources/rbac-types.js';
import { renameBinding, renameRole } from './rename-upstream.js';

/** Where the upstream policy files live (the generate script's input; tests compare against them). */
export const upstreamPolicyDir = new URL('../../../../../upstream/k8s-1.27/bootstrap-policy/', import.meta.url);

/** The generated policy, upstream names kept. */
const generatedPolicy = new URL('../../../../../generated/bootstrap-policy.json', import.meta.url);

/** The files of the policy, as upstream names them. */
export const policyFiles = [
  'cluster-roles.yaml', 'controller-roles.yaml', 'cluster-role-bindings.yaml', 'controller-role-bindings.yaml',
  'namespace-roles.yaml', 'namespace-role-bindings.yaml',
] as const;

/** The default policy of one flavour. */
export interface BootstrapPolicy {
  /** ClusterRoles, the controller roles after the others (kube's ClusterRoles() then ControllerRoles()). */
  readonly clusterRoles: readonly RoleObject[];
  readonly clusterRoleBindings: readonly BindingObject[];
  /** Roles of the system and public namespaces. */
  readonly roles: readonly RoleObject[];
  readonly roleBindings: readonly BindingObject[];
}

const cache = new Map<string, BootstrapPolicy>();

/** The default policy renamed into `names`' flavour (read once per flavour). */
export function bootstrapPolicy(names: Names): BootstrapPolicy {
  const cached = cache.get(names.flavour);
  if (cached !== undefined) return cached;
  const raw = JSON.parse(readFileSync(generatedPolicy, 'utf8')) as Record<keyof BootstrapPolicy, unknown[]>;
  const roles = (items: unknown[]) => items.map((o) => renameRole(names, o as RoleObject));
  const bindings = (items: unknown[]) => items.map((o) => renameBinding(names, o as BindingObject));
  const policy: BootstrapPolicy = {
    clusterRoles: roles(raw.clusterRoles),
    clusterRoleBindings: bindings(raw.clusterRoleBindings),
    roles: roles(raw.roles),
    roleBindings: bindings(raw.roleBindings),
  };
  cache.set(names.flavour, policy);
  return policy;
}

/** The annotation whose value `"false"` keeps the bootstrap from reconciling an object (`…/autoupdate`). */
export function autoupdateAnnotation(names: Names): string {
  return names.domain('autoupdate', 'rbac.authorization');
}

/** The label a ClusterRole carries to be aggregated into `admin`, `edit` or `view` (`…/aggregate-to-<role>`). */
export function aggregateToLabel(names: Names, role: 'admin' | 'edit' | 'view'): string {
  return `${names.group('rbac.authorization')}/aggregate-to-${role}`;
}
