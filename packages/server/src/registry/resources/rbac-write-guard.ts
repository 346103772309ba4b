/**
 * How the RBAC strategies reach the writer check of kube's policy-based RBAC storage (a Role may not grant what
 * its writer does not hold, a binding may not grant a role its writer could not grant): through a late-bound
 * getter, since the check needs the authorizer the server builds after its registry.
 */
import type { RbacWriteGuard } from '../../auth/authz/rbac/escalation.js';

/** The guard of the moment, or undefined when the server runs without one (every writer may then grant anything). */
export type RbacWriteGuardSource = () => RbacWriteGuard | undefined;
