/**
 * kube-apiserver's default RBAC policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): the ClusterRoles,
 * ClusterRoleBindings, controller roles (`system:controller:*`) with their bindings, and the Roles and RoleBindings
 * of the system and public namespaces. The objects are upstream data (the policy's own test fixtures, which are the
 * policy as the server builds it with default feature gates), renamed into the flavour when loaded.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Names } from '@svc-apiserver/api';
import { parse } from 'yaml';
import type { BindingObject, RoleObject } from '../rbac-types.js';
import { renameBinding, renameRole } from './rename-upstream.js';

/** Where the upstream policy files live. */
export const upstreamPolicyDir = new URL('../../../../../upstream/k8s-1.27/bootstrap-policy/', import.meta.url);

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
  /** Policy files that were not found (their objects are absent from the policy). */
  readonly missingFiles: readonly string[];
}

function readList(dir: URL, file: string, missing: string[]): unknown[] {
  const url = new URL(file, dir);
  if (!existsSync(url)) {
    missing.push(file);
    return [];
  }
  const doc = parse(readFileSync(url, 'utf8')) as { items?: unknown[] } | null;
  if (!doc || !Array.isArray(doc.items)) throw new Error(`bootstrap policy file ${file} has no items`);
  return doc.items;
}

const cache = new Map<string, BootstrapPolicy>();

/**
 * The default policy renamed into `names`' flavour, read from `dir` (default: the upstream data; read once per
 * flavour and directory).
 */
export function bootstrapPolicy(names: Names, dir: URL = upstreamPolicyDir): BootstrapPolicy {
  const key = `${names.flavour} ${dir.href}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const missingFiles: string[] = [];
  const roles = (file: string) => readList(dir, file, missingFiles).map((o) => renameRole(names, o as RoleObject));
  const bindings = (file: string) => readList(dir, file, missingFiles).map((o) => renameBinding(names, o as BindingObject));
  const policy: BootstrapPolicy = {
    clusterRoles: [...roles('cluster-roles.yaml'), ...roles('controller-roles.yaml')],
    clusterRoleBindings: [...bindings('cluster-role-bindings.yaml'), ...bindings('controller-role-bindings.yaml')],
    roles: roles('namespace-roles.yaml'),
    roleBindings: bindings('namespace-role-bindings.yaml'),
    missingFiles,
  };
  cache.set(key, policy);
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
