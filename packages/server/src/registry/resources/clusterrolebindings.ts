/**
 * ClusterRoleBindings (pkg/registry/rbac/clusterrolebinding): as RoleBindings, but `roleRef` names only a
 * ClusterRole and ServiceAccount subjects need a namespace.
 */
import type { Names } from '@svc-apiserver/api';
import type { Strategy } from '../strategy.js';
import { bindingStrategy } from './rolebindings.js';
import type { RbacWriteGuardSource } from './rbac-write-guard.js';

/** The clusterrolebinding strategy; `guard` gives the escalation check of the moment. */
export function clusterRoleBindingStrategy(names: Names, guard?: RbacWriteGuardSource): Strategy {
  return bindingStrategy(names, false, guard);
}
