/**
 * ClusterRoles (pkg/registry/rbac/clusterrole): names are path segments, rules per ValidatePolicyRule (non-resource
 * URLs allowed), a valid `aggregationRule`, create on update and unconditional updates allowed, and the writer
 * check of kube's policy-based storage before every create and update.
 */
import type { FieldError, KubeObject } from '@svc-apiserver/api';
import type { RoleObject } from './rbac-types.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { validateAggregationRule, validateRules } from './rbac-validation.js';
import type { RbacWriteGuardSource } from './rbac-write-guard.js';

/** ValidateClusterRole (object metadata aside). */
export function validateClusterRole(object: KubeObject): FieldError[] {
  return [...validateRules(object, false), ...validateAggregationRule(object)];
}

/** The clusterrole strategy; `guard` gives the escalation check of the moment. */
export function clusterRoleStrategy(guard?: RbacWriteGuardSource): Strategy {
  return {
    ...defineStrategy({
      nameRule: 'pathSegment', allowCreateOnUpdate: true, validate: validateClusterRole, validateUpdate: validateClusterRole,
    }),
    authorizeWrite: async (object, old, user) =>
      guard?.()?.checkRole('clusterroles', object as RoleObject, old as RoleObject | undefined, user),
  };
}
