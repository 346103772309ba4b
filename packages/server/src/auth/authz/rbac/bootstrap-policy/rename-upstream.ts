/**
 * Renames one upstream RBAC object (Kubernetes names, as kube-apiserver's bootstrap policy spells them) into a
 * flavour: API groups, label and annotation keys, namespaces, signer and lease names go through the naming module.
 * In the `k8s` flavour every name comes out as upstream spells it.
 */
import type { KubeObject, Names, ObjectMeta } from '@svc-apiserver/api';
import type { BindingObject, MetaLabelSelector, PolicyRule, RoleObject, Subject } from '../../../../registry/resources/rbac-types.js';

/** A label or annotation key: its prefix (a domain or group) renamed, its name kept. */
export function renameKey(names: Names, key: string): string {
  const slash = key.lastIndexOf('/');
  if (slash < 0) return key;
  return `${names.fromUpstream(key.slice(0, slash))}${key.slice(slash)}`;
}

/**
 * A role name: each `:`-separated part renamed (`system:certificates.k8s.io:…` names a group in its second part).
 * Parts equal to a name of the naming table are left alone here: role names are not objects of that table.
 */
export function renameRoleName(names: Names, name: string): string {
  return name.split(':').map((part) => (part.includes('.') ? names.fromUpstream(part) : part)).join(':');
}

function renameMap(names: Names, map: Readonly<Record<string, string>> | undefined | null): Record<string, string> | undefined {
  if (map === undefined || map === null) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) out[renameKey(names, k)] = v;
  return out;
}

function renameRule(names: Names, rule: PolicyRule): PolicyRule {
  return {
    verbs: [...rule.verbs],
    ...(rule.apiGroups ? { apiGroups: rule.apiGroups.map((g) => names.fromUpstream(g)) } : {}),
    ...(rule.resources ? { resources: [...rule.resources] } : {}),
    // Signer names (`kubernetes.io/kube-apiserver-client`) and the controller-manager Lease are renamed names.
    ...(rule.resourceNames ? { resourceNames: rule.resourceNames.map((n) => names.fromUpstream(n)) } : {}),
    ...(rule.nonResourceURLs ? { nonResourceURLs: [...rule.nonResourceURLs] } : {}),
  };
}

function renameSelector(names: Names, s: MetaLabelSelector): MetaLabelSelector {
  const matchLabels = renameMap(names, s.matchLabels);
  return {
    ...(matchLabels ? { matchLabels } : {}),
    ...(s.matchExpressions
      ? { matchExpressions: s.matchExpressions.map((e) => ({ ...e, key: renameKey(names, e.key), ...(e.values ? { values: [...e.values] } : {}) })) }
      : {}),
  };
}

function renameSubject(names: Names, s: Subject): Subject {
  return {
    kind: s.kind,
    ...(s.apiGroup !== undefined ? { apiGroup: names.fromUpstream(s.apiGroup) } : {}),
    name: s.name,
    ...(s.namespace !== undefined ? { namespace: names.fromUpstream(s.namespace) } : {}),
  };
}

function renameMetadata(names: Names, object: KubeObject): ObjectMeta {
  const m = object.metadata ?? {};
  const labels = renameMap(names, m.labels);
  const annotations = renameMap(names, m.annotations);
  return {
    name: renameRoleName(names, m.name ?? ''),
    ...(m.namespace ? { namespace: names.fromUpstream(m.namespace) } : {}),
    ...(labels ? { labels } : {}),
    ...(annotations ? { annotations } : {}),
  };
}

/** Renames a Role or ClusterRole; `creationTimestamp: null` and other server-set fields are dropped. */
export function renameRole(names: Names, role: RoleObject): RoleObject {
  const out: RoleObject = {
    apiVersion: names.fromUpstream(role.apiVersion!.split('/')[0]!) + '/' + role.apiVersion!.split('/')[1]!,
    kind: role.kind!,
    metadata: renameMetadata(names, role),
    rules: (role.rules ?? []).map((r) => renameRule(names, r)),
  };
  if (role.aggregationRule) {
    out.aggregationRule = { clusterRoleSelectors: (role.aggregationRule.clusterRoleSelectors ?? []).map((s) => renameSelector(names, s)) };
    // An aggregated role's rules are the controller's to fill.
    out.rules = [];
  }
  return out;
}

/** Renames a RoleBinding or ClusterRoleBinding. */
export function renameBinding(names: Names, binding: BindingObject): BindingObject {
  return {
    apiVersion: names.fromUpstream(binding.apiVersion!.split('/')[0]!) + '/' + binding.apiVersion!.split('/')[1]!,
    kind: binding.kind!,
    metadata: renameMetadata(names, binding),
    roleRef: { apiGroup: names.fromUpstream(binding.roleRef.apiGroup), kind: binding.roleRef.kind, name: renameRoleName(names, binding.roleRef.name) },
    ...(binding.subjects ? { subjects: binding.subjects.map((s) => renameSubject(names, s)) } : {}),
  };
}
