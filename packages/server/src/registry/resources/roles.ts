/**
 * Roles (pkg/registry/rbac/role): names are path segments (ValidateRBACName), rules per ValidatePolicyRule for a
 * namespaced role (no non-resource URLs), create on update and unconditional updates allowed, and the writer check
 * of kube's policy-based storage before every create and update.
 */
import type { FieldError, KubeObject } from '@svc-apiserver/api';
import type { RoleObject } from './rbac-types.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { validateRules } from './rbac-validation.js';
import type { RbacWriteGuardSource } from './rbac-write-guard.js';

/** ValidateRole (object metadata aside, which the generic store checks). */
export function validateRole(object: KubeObject): FieldError[] {
  return validateRules(object, true);
}

/** The role strategy; `guard` gives the escalation check of the moment (none: every writer may grant anything). */
export function roleStrategy(guard?: RbacWriteGuardSource): Strategy {
  return {
    ...defineStrategy({ nameRule: 'pathSegment', allowCreateOnUpdate: true, validate: validateRole, validateUpdate: validateRole }),
    authorizeWrite: async (object, old, user) =>
      guard?.()?.checkRole('roles', object as RoleObject, old as RoleObject | undefined, user),
  };
}
