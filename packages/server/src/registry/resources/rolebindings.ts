/**
 * RoleBindings (pkg/registry/rbac/rolebinding): names are path segments; `roleRef` names a Role or ClusterRole of
 * the RBAC group and never changes; subjects per validateRoleBindingSubject (a ServiceAccount may leave its
 * namespace to the binding's); rbac/v1 defaults for `roleRef.apiGroup` and subjects' `apiGroup`; create on update
 * allowed; the writer check of kube's policy-based storage before every create and update.
 */
import type { FieldError, KubeObject, Names } from '@svc-apiserver/api';
import type { BindingObject } from './rbac-types.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { defaultBinding, validateBinding, validateRoleRefUpdate } from './rbac-validation.js';
import type { RbacWriteGuardSource } from './rbac-write-guard.js';

/** The strategy of RoleBindings (`namespaced`) or ClusterRoleBindings, sharing everything but the scope rules. */
export function bindingStrategy(names: Names, namespaced: boolean, guard?: RbacWriteGuardSource): Strategy {
  const rbacGroup = names.group('rbac.authorization');
  const resource = namespaced ? 'rolebindings' : 'clusterrolebindings';
  const validate = (object: KubeObject): FieldError[] => validateBinding(object, namespaced, rbacGroup);
  return {
    ...defineStrategy({
      nameRule: 'pathSegment',
      allowCreateOnUpdate: true,
      defaults: (object) => defaultBinding(object, rbacGroup),
      validate,
      validateUpdate: (object, old) => [...validate(object), ...validateRoleRefUpdate(object, old)],
    }),
    authorizeWrite: async (object, old, user) => {
      // kube defaults at decoding, before its policy check: the check sees the defaulted role reference and subjects
      // (a body was defaulted on decode; an in-process write is defaulted here).
      defaultBinding(object, rbacGroup);
      return guard?.()?.checkBinding(resource, object as BindingObject, old as BindingObject | undefined, user);
    },
  };
}

/** The rolebinding strategy; `guard` gives the escalation check of the moment. */
export function roleBindingStrategy(names: Names, guard?: RbacWriteGuardSource): Strategy {
  return bindingStrategy(names, true, guard);
}
