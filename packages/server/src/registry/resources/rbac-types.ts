/**
 * The shapes of the RBAC objects (rbac.authorization.svc.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding)
 * as the authorizer, the escalation checks, the bootstrap policy and the strategies read them.
 */
import type { KubeObject } from '@svc-apiserver/api';

/** One permission rule (rbac/v1 PolicyRule). */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** Who a binding grants its role to (rbac/v1 Subject). */
export interface Subject {
  readonly kind: string;
  readonly apiGroup?: string;
  readonly name: string;
  readonly namespace?: string;
}

/** The role a binding grants (rbac/v1 RoleRef). */
export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

/** A Role or ClusterRole. */
export interface RoleObject extends KubeObject {
  rules?: PolicyRule[] | null;
  /** ClusterRole only. */
  aggregationRule?: { clusterRoleSelectors?: MetaLabelSelector[] | null } | null;
}

/** A RoleBinding or ClusterRoleBinding. */
export interface BindingObject extends KubeObject {
  roleRef: RoleRef;
  subjects?: Subject[] | null;
}

/** A label selector in its object form (metav1.LabelSelector), as aggregation rules hold it. */
export interface MetaLabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] | null }[] | null;
}
