import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fieldErrorMessage, type KubeObject } from '@svc-apiserver/api';
import {
  defaultBinding, validateAggregationRule, validateBinding, validatePolicyRule, validateRoleRefUpdate, validateRules,
} from './rbac-validation.js';

const rbac = 'rbac.authorization.svc.io';
const messages = (errs: readonly Parameters<typeof fieldErrorMessage>[0][]) => errs.map(fieldErrorMessage);

describe('policy rules (ValidatePolicyRule)', () => {
  const cases: { name: string; rule: unknown; namespaced: boolean; want: string[] }[] = [
    { name: 'resource rule', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, namespaced: true, want: [] },
    { name: 'core group as ""', rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }, namespaced: true, want: [] },
    { name: 'no verbs', rule: { apiGroups: [''], resources: ['pods'] }, namespaced: true, want: ['rules[0].verbs: Required value: verbs must contain at least one value'] },
    { name: 'empty verbs', rule: { verbs: [], apiGroups: [''], resources: ['pods'] }, namespaced: false, want: ['rules[0].verbs: Required value: verbs must contain at least one value'] },
    {
      name: 'no apiGroups, no resources', rule: { verbs: ['get'] }, namespaced: false,
      want: ['rules[0].apiGroups: Required value: resource rules must supply at least one api group', 'rules[0].resources: Required value: resource rules must supply at least one resource'],
    },
    {
      name: 'resourceNames over several resources', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'] }, namespaced: true,
      want: ['rules[0].resourceNames: Required value: resource names cannot apply to multiple resources'],
    },
    { name: 'resourceNames on one resource', rule: { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, namespaced: true, want: [] },
    { name: 'non-resource rule in a cluster role', rule: { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*', '*'] }, namespaced: false, want: [] },
    {
      name: 'non-resource URLs in a namespaced role', rule: { verbs: ['get'], nonResourceURLs: ['/healthz'] }, namespaced: true,
      want: ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs'],
    },
    {
      name: 'resources and non-resource URLs mixed', rule: { verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/healthz'] }, namespaced: false,
      want: ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs'],
    },
    {
      name: 'apiGroups with non-resource URLs', rule: { verbs: ['get'], apiGroups: [''], nonResourceURLs: ['/x'] }, namespaced: false,
      want: ['rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs'],
    },
    {
      name: '* not the whole last segment', rule: { verbs: ['get'], nonResourceURLs: ['/api*', '/a/*/b', '/ok/*'] }, namespaced: false,
      want: [
        `rules[0].nonResourceURLs[0]: Invalid value: "/api*": '*' is allowed only as the full, final segment of the path`,
        `rules[0].nonResourceURLs[1]: Invalid value: "/a/*/b": '*' is allowed only as the full, final segment of the path`,
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(messages(validatePolicyRule(c.rule, c.namespaced, 'rules[0]')), c.want);
    });
  }
  test('every rule of a role is checked, with its index', () => {
    const role = { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { apiGroups: [''], resources: ['pods'] }] } as unknown as KubeObject;
    assert.deepEqual(messages(validateRules(role, true)), ['rules[1].verbs: Required value: verbs must contain at least one value']);
    assert.deepEqual(validateRules({ rules: null } as unknown as KubeObject, true), []);
  });
});

describe('aggregation rules', () => {
  test('no selectors is required, bad selectors are reported', () => {
    assert.deepEqual(validateAggregationRule({} as KubeObject), []);
    assert.deepEqual(validateAggregationRule({ aggregationRule: null } as unknown as KubeObject), []);
    assert.deepEqual(messages(validateAggregationRule({ aggregationRule: {} } as unknown as KubeObject)),
      ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
    assert.deepEqual(validateAggregationRule({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-x': 'true' } }] } } as unknown as KubeObject), []);
    const bad = messages(validateAggregationRule({
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { ok: 'true' } }, { matchExpressions: [{ key: 'k', operator: 'In', values: [] }] }] },
    } as unknown as KubeObject));
    assert.equal(bad.length, 2, bad.join('\n'));
    assert.match(bad[0]!, /^aggregationRule\.clusterRoleSelectors\[1\]\.matchExpressions\[0\]\.values: Required value/);
    assert.equal(bad[1], 'aggregationRule.clusterRoleSelectors[1]: Invalid value: null: invalid label selector.');
  });
});

describe('bindings (ValidateRoleBinding, ValidateClusterRoleBinding)', () => {
  const ref = { apiGroup: rbac, kind: 'ClusterRole', name: 'view' };
  const binding = (extra: Record<string, unknown>) => ({ roleRef: ref, ...extra }) as unknown as KubeObject;
  const cases: { name: string; object: KubeObject; namespaced: boolean; want: string[] }[] = [
    { name: 'RoleBinding to a ClusterRole', object: binding({}), namespaced: true, want: [] },
    { name: 'RoleBinding to a Role', object: binding({ roleRef: { ...ref, kind: 'Role', name: 'system:reader' } }), namespaced: true, want: [] },
    {
      name: 'ClusterRoleBinding to a Role', object: binding({ roleRef: { ...ref, kind: 'Role' } }), namespaced: false,
      want: ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    },
    {
      name: 'roleRef of another group and kind', object: binding({ roleRef: { apiGroup: 'example.com', kind: 'Thing', name: 'a' } }), namespaced: true,
      want: [`roleRef.apiGroup: Unsupported value: "example.com": supported values: "${rbac}"`, 'roleRef.kind: Unsupported value: "Thing": supported values: "Role", "ClusterRole"'],
    },
    {
      name: 'roleRef missing', object: {} as KubeObject, namespaced: false,
      want: [`roleRef.apiGroup: Unsupported value: "": supported values: "${rbac}"`, 'roleRef.kind: Unsupported value: "": supported values: "ClusterRole"', 'roleRef.name: Required value'],
    },
    { name: 'roleRef name not a path segment', object: binding({ roleRef: { ...ref, name: 'a/b' } }), namespaced: false, want: [`roleRef.name: Invalid value: "a/b": may not contain '/'`] },
    {
      name: 'valid subjects', namespaced: false, want: [],
      object: binding({ subjects: [{ kind: 'User', name: 'alice', apiGroup: rbac }, { kind: 'Group', name: 'system:masters', apiGroup: rbac }, { kind: 'ServiceAccount', name: 'default', namespace: 'ns' }] }),
    },
    { name: 'RoleBinding: ServiceAccount without namespace', object: binding({ subjects: [{ kind: 'ServiceAccount', name: 'default' }] }), namespaced: true, want: [] },
    {
      name: 'ClusterRoleBinding: ServiceAccount without namespace', object: binding({ subjects: [{ kind: 'ServiceAccount', name: 'default' }] }), namespaced: false,
      want: ['subjects[0].namespace: Required value'],
    },
    {
      name: 'ServiceAccount in the rbac group, bad name', object: binding({ subjects: [{ kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: rbac, namespace: 'ns' }] }), namespaced: false,
      want: [
        `subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        `subjects[0].apiGroup: Unsupported value: "${rbac}": supported values: ""`,
      ],
    },
    {
      name: 'User without name, in the core group', object: binding({ subjects: [{ kind: 'User', name: '', apiGroup: '' }] }), namespaced: true,
      want: ['subjects[0].name: Required value', 'subjects[0].name: Invalid value: "": user name cannot be empty', `subjects[0].apiGroup: Unsupported value: "": supported values: "${rbac}"`],
    },
    {
      name: 'Group without name', object: binding({ subjects: [{ kind: 'Group', apiGroup: rbac }] }), namespaced: false,
      want: ['subjects[0].name: Required value', 'subjects[0].name: Invalid value: "": group name cannot be empty'],
    },
    {
      name: 'unknown subject kind', object: binding({ subjects: [{ kind: 'Robot', name: 'r2' }] }), namespaced: true,
      want: ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(messages(validateBinding(c.object, c.namespaced, rbac)), c.want);
    });
  }

  test('roleRef never changes', () => {
    const old = binding({});
    assert.deepEqual(validateRoleRefUpdate(binding({ subjects: [] }), old), []);
    assert.deepEqual(messages(validateRoleRefUpdate(binding({ roleRef: { ...ref, name: 'edit' } }), old)),
      [`roleRef: Invalid value: {"apiGroup":"${rbac}","kind":"ClusterRole","name":"edit"}: cannot change roleRef`]);
  });

  test('defaults: roleRef.apiGroup, subjects apiGroup by kind', () => {
    const object = {
      roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'u' }, { kind: 'Group', name: 'g', apiGroup: '' }, { kind: 'ServiceAccount', name: 'sa', apiGroup: '' }, { kind: 'User', name: 'x', apiGroup: 'other' }, { kind: 'Robot', name: 'r' }],
    } as unknown as KubeObject;
    defaultBinding(object, rbac);
    assert.deepEqual(object['roleRef'], { apiGroup: rbac, kind: 'ClusterRole', name: 'view' });
    assert.deepEqual(object['subjects'], [
      { kind: 'User', name: 'u', apiGroup: rbac }, { kind: 'Group', name: 'g', apiGroup: rbac }, { kind: 'ServiceAccount', name: 'sa' },
      { kind: 'User', name: 'x', apiGroup: 'other' }, { kind: 'Robot', name: 'r' },
    ]);
  });
});
