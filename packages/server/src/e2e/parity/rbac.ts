/**
 * rbac/v1 validation compared one by one with kube-apiserver 1.27's rbac validation (the escalation checks are
 * covered elsewhere): policy rules, aggregation rules, role references and subjects, which already matched; these
 * cases hold them there.
 */
import type { Names } from '@svc-apiserver/api';
import { grouped, rejectedCreate, type ParityCase } from './corpus.js';

/** The rbac rules' corpus in a flavour. */
export function rbacCases(names: Names): ParityCase[] {
  const rbacGroup = names.group('rbac.authorization');
  const roles = grouped('rbac.authorization', 'v1', 'roles', 'Role');
  const clusterRoles = grouped('rbac.authorization', 'v1', 'clusterroles', 'ClusterRole', false);
  const bindings = grouped('rbac.authorization', 'v1', 'rolebindings', 'RoleBinding');
  const clusterBindings = grouped('rbac.authorization', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false);
  return [
    rejectedCreate('Role: non-resource URLs only in cluster roles; resource names for one resource; groups and resources required', roles,
      {
        rules: [
          { verbs: ['get'], nonResourceURLs: ['/healthz'], apiGroups: [''] },
          { verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] },
          { verbs: [] },
        ],
      },
      ['rules[0].nonResourceURLs', 'rules[0].nonResourceURLs', 'rules[1].resourceNames', 'rules[2].verbs', 'rules[2].apiGroups', 'rules[2].resources'],
      ['namespaced rules cannot apply to non-resource URLs', 'resource names cannot apply to multiple resources']),
    rejectedCreate('ClusterRole: an aggregation rule needs selectors, each valid', clusterRoles,
      { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Near' }] }] } },
      ['aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator', 'aggregationRule.clusterRoleSelectors[0]'], ['invalid label selector.']),
    rejectedCreate('RoleBinding: the RBAC group, a known kind, subjects of known kinds in their groups', bindings,
      {
        roleRef: { apiGroup: 'example.com', kind: 'Policy', name: 'a/b' },
        subjects: [
          { kind: 'ServiceAccount', name: 'Bad_SA', apiGroup: rbacGroup },
          // rbac/v1 defaults an empty group of a User or Group to the RBAC group.
          { kind: 'User', name: '', apiGroup: '' },
          { kind: 'Robot', name: 'r' },
        ],
      },
      [
        'roleRef.apiGroup', 'roleRef.kind', 'roleRef.name', 'subjects[0].name', 'subjects[0].apiGroup',
        'subjects[1].name', 'subjects[1].name', 'subjects[2].kind',
      ],
      ['user name cannot be empty', 'Unsupported value: "Robot"']),
    rejectedCreate('ClusterRoleBinding: only ClusterRoles; service accounts name their namespace', clusterBindings,
      { roleRef: { apiGroup: rbacGroup, kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] },
      ['roleRef.kind', 'subjects[0].namespace']),
  ];
}
