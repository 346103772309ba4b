/**
 * The writer check of kube's policy-based RBAC storage (a Role may not grant what its writer does not hold, a
 * binding may not grant a role its writer could not grant), as the RBAC strategies call it. The registry owns the
 * shape and authorization implements it (auth/authz/rbac/escalation.ts); the strategies reach it through a
 * late-bound getter, since the check needs the authorizer the server builds after its registry.
 */
import type { Status } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';
import type { BindingObject, RoleObject } from './rbac-types.js';

/** Checks of RBAC writes beyond authorization. */
export interface RbacWriteGuard {
  /** Role/ClusterRole create or update (old undefined on create): undefined = allowed, else the Status to fail with. */
  checkRole(resource: 'roles' | 'clusterroles', object: RoleObject, old: RoleObject | undefined, user: UserInfo): Promise<Status | undefined>;
  /** RoleBinding/ClusterRoleBinding create or update. */
  checkBinding(resource: 'rolebindings' | 'clusterrolebindings', object: BindingObject, old: BindingObject | undefined, user: UserInfo): Promise<Status | undefined>;
}

/** The guard of the moment, or undefined when the server runs without one (every writer may then grant anything). */
export type RbacWriteGuardSource = () => RbacWriteGuard | undefined;
