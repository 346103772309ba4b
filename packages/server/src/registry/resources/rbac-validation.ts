/**
 * Validation and defaulting of the RBAC objects (kube-apiserver 1.27's pkg/apis/rbac/validation and rbac/v1
 * defaults): policy rules, aggregation rules, role references and subjects, with kube's messages. Shared by the
 * Role, ClusterRole, RoleBinding and ClusterRoleBinding strategies.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain, isPathSegmentName } from '../../meta/name-rules.js';
import { validateLabelSelector } from './pod-spec.js';

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A list field as validation reads it: absent, null and non-lists are empty (the schema check reports types). */
function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The kinds a subject may have (rbac.UserKind, GroupKind, ServiceAccountKind), in kube's message order. */
export const subjectKinds: readonly string[] = ['ServiceAccount', 'User', 'Group'];

/**
 * `*` in a non-resource URL only as the whole last path segment (`*`, `/apis/*`). kube-apiserver itself accepts
 * any trailing `*` as a prefix match; the spec narrows it (document 2 §PolicyRule), so other forms are refused here.
 */
function nonResourceUrlErrors(urls: readonly unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  urls.forEach((raw, i) => {
    const url = str(raw);
    const star = url.indexOf('*');
    if (star === -1) return;
    const wholeLastSegment = star === url.length - 1 && (url === '*' || url.endsWith('/*'));
    if (!wholeLastSegment) errs.push(fieldError.invalid(`${path}[${i}]`, url, "'*' is allowed only as the full, final segment of the path"));
  });
  return errs;
}

/**
 * ValidatePolicyRule: verbs are required; a rule names non-resource URLs (cluster roles only) or API resources
 * (with groups and resources), never both; resource names apply to one resource.
 */
export function validatePolicyRule(rule: unknown, namespaced: boolean, path: string): FieldError[] {
  const r = record(rule) ?? {};
  const errs: FieldError[] = [];
  if (list(r['verbs']).length === 0) errs.push(fieldError.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = list(r['nonResourceURLs']);
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(r['apiGroups']).length > 0 || list(r['resources']).length > 0 || list(r['resourceNames']).length > 0) {
      errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    errs.push(...nonResourceUrlErrors(urls, `${path}.nonResourceURLs`));
    return errs;
  }
  if (list(r['apiGroups']).length === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(r['resources']).length === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  if (list(r['resourceNames']).length > 0 && list(r['resources']).length > 1) {
    // kube reports this one as Required, though nothing is missing.
    errs.push(fieldError.required(`${path}.resourceNames`, 'resource names cannot apply to multiple resources'));
  }
  return errs;
}

/** The rules of a Role (`namespaced`) or ClusterRole. */
export function validateRules(object: KubeObject, namespaced: boolean): FieldError[] {
  return list(object['rules']).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));
}

/**
 * ValidateClusterRole's aggregation part: an `aggregationRule` needs at least one selector, each a valid label
 * selector (an unconvertible one is also reported whole, as kube's LabelSelectorAsSelector failure).
 */
export function validateAggregationRule(object: KubeObject): FieldError[] {
  const rule = record(object['aggregationRule']);
  if (rule === undefined) return [];
  const selectors = list(rule['clusterRoleSelectors']);
  const base = 'aggregationRule.clusterRoleSelectors';
  const errs: FieldError[] = [];
  if (selectors.length === 0) errs.push(fieldError.required(base, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((selector, i) => {
    const selectorErrs = validateLabelSelector(selector ?? {}, `${base}[${i}]`);
    errs.push(...selectorErrs);
    if (selectorErrs.length > 0) errs.push(fieldError.invalid(`${base}[${i}]`, null, 'invalid label selector.'));
  });
  return errs;
}

/**
 * A binding's `roleRef` (ValidateRoleBinding / ValidateClusterRoleBinding): the RBAC group, one of `kinds`, and a
 * name that is a valid path segment.
 */
export function validateRoleRef(object: KubeObject, kinds: readonly string[], rbacGroup: string): FieldError[] {
  const ref = record(object['roleRef']) ?? {};
  const errs: FieldError[] = [];
  if (ref['apiGroup'] !== rbacGroup) errs.push(fieldError.notSupported('roleRef.apiGroup', str(ref['apiGroup']), [rbacGroup]));
  if (!kinds.includes(str(ref['kind']))) errs.push(fieldError.notSupported('roleRef.kind', str(ref['kind']), kinds));
  const name = str(ref['name']);
  if (name === '') errs.push(fieldError.required('roleRef.name'));
  else for (const msg of isPathSegmentName(name)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  return errs;
}

/**
 * validateRoleBindingSubject: a name; ServiceAccounts in the core group (`apiGroup` empty) with a valid name and,
 * in a ClusterRoleBinding, a namespace; Users and Groups in the RBAC group; no other kind.
 */
export function validateSubject(subject: unknown, namespaced: boolean, path: string, rbacGroup: string): FieldError[] {
  const s = record(subject) ?? {};
  const name = str(s['name']);
  const apiGroup = str(s['apiGroup']);
  const errs: FieldError[] = [];
  if (name === '') errs.push(fieldError.required(`${path}.name`));
  switch (s['kind']) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of isDns1123Subdomain(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
      if (apiGroup !== '') errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && str(s['namespace']) === '') errs.push(fieldError.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (name === '') errs.push(fieldError.invalid(`${path}.name`, name, `${s['kind'] === 'User' ? 'user' : 'group'} name cannot be empty`));
      if (apiGroup !== rbacGroup) errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.kind`, str(s['kind']), subjectKinds));
  }
  return errs;
}

/** The role reference and the subjects of a RoleBinding (`namespaced`) or ClusterRoleBinding. */
export function validateBinding(object: KubeObject, namespaced: boolean, rbacGroup: string): FieldError[] {
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  return [
    ...validateRoleRef(object, kinds, rbacGroup),
    ...list(object['subjects']).flatMap((subject, i) => validateSubject(subject, namespaced, `subjects[${i}]`, rbacGroup)),
  ];
}

/** ValidateRoleBindingUpdate's own rule: a binding's `roleRef` never changes (delete and recreate it instead). */
export function validateRoleRefUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const ref = record(object['roleRef']) ?? {};
  const oldRef = record(old['roleRef']) ?? {};
  const same = ['apiGroup', 'kind', 'name'].every((k) => str(ref[k]) === str(oldRef[k]));
  return same ? [] : [fieldError.invalid('roleRef', object['roleRef'] ?? null, 'cannot change roleRef')];
}

/**
 * SetDefaults_RoleBinding / SetDefaults_ClusterRoleBinding and SetDefaults_Subject: an empty `roleRef.apiGroup` is
 * the RBAC group; a subject without `apiGroup` gets the RBAC group for Users and Groups and `""` for
 * ServiceAccounts (which, empty, is not written).
 */
export function defaultBinding(object: KubeObject, rbacGroup: string): void {
  const ref = record(object['roleRef']);
  if (ref !== undefined && str(ref['apiGroup']) === '') ref['apiGroup'] = rbacGroup;
  for (const raw of list(object['subjects'])) {
    const s = record(raw);
    if (s === undefined || str(s['apiGroup']) !== '') continue;
    if (s['kind'] === 'User' || s['kind'] === 'Group') s['apiGroup'] = rbacGroup;
    // kube's empty `apiGroup` of a ServiceAccount is left out of the stored JSON (omitempty).
    else if (s['kind'] === 'ServiceAccount') delete s['apiGroup'];
  }
}
