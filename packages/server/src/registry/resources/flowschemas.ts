/**
 * FlowSchemas (pkg/registry/flowcontrol/flowschema): status subresource, generation, the v1beta3 default
 * `matchingPrecedence` 1000 (SetDefaults_FlowSchemaSpec) and 1.27's ValidateFlowSchema rule by rule: a priority level
 * name that is a DNS subdomain, a precedence in 1..10000 (1 only for `exempt`), a distinguisher method `ByUser` or
 * `ByNamespace`, subjects of kind User, Group or ServiceAccount carrying only the matching member, and resource
 * and non-resource rules (verbs, `*` alone, namespaces as labels, URL paths as kube checks them).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { isDns1123Label } from '../../meta/name-rules.js';
import { dns1123Label, dns1123Subdomain, isSet, list, num, obj, objects, text, type Json } from './field-checks.js';
import { specOf } from './object-fields.js';

/** FlowSchemaDefaultMatchingPrecedence. */
export const defaultMatchingPrecedence = 1000;
const maxMatchingPrecedence = 10000;
const subjectKinds = ['Group', 'ServiceAccount', 'User'];

/** SetDefaults_FlowSchemaSpec. */
export function defaultFlowSchema(object: KubeObject): void {
  const spec = specOf(object);
  if (spec['matchingPrecedence'] === undefined || spec['matchingPrecedence'] === 0) spec['matchingPrecedence'] = defaultMatchingPrecedence;
}

/** supportedVerbs, in kube's sorted order. */
const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";

function hasWildcard(values: readonly string[]): boolean {
  return values.includes('*');
}

/** The verbs of a rule: at least one, `*` alone, else only supported ones. */
function verbErrors(values: string[], path: string): FieldError[] {
  if (values.length === 0) return [fieldError.required(path, 'verbs must contain at least one value')];
  if (hasWildcard(values)) return values.length > 1 ? [fieldError.invalid(path, values, "if '*' is present, must not specify other verbs")] : [];
  return values.every((v) => verbs.includes(v)) ? [] : [fieldError.notSupported(path, values, verbs)];
}

/** ValidateNonResourceURLPath. */
function nonResourceUrlError(url: string, path: string): FieldError[] {
  if (url === '') return [fieldError.invalid(path, url, 'must not be empty')];
  if (url === '/') return [];
  if (!url.startsWith('/')) return [fieldError.invalid(path, url, 'must start with slash')];
  if (url.includes(' ')) return [fieldError.invalid(path, url, 'must not contain white-space')];
  if (url.includes('//')) return [fieldError.invalid(path, url, 'must not contain double slash')];
  const stars = url.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !url.endsWith('/*'))) return [fieldError.invalid(path, url, 'wildcard can only do suffix matching')];
  return [];
}

/** ValidateFlowSchemaResourcePolicyRule. */
function resourceRuleErrors(rule: Json, at: string): FieldError[] {
  const errs = verbErrors(list(rule['verbs']).map(text), `${at}.verbs`);
  for (const [key, noun, wording] of [['apiGroups', 'api group', 'api groups'], ['resources', 'resource', 'resources']] as const) {
    const values = list(rule[key]).map(text);
    if (values.length === 0) errs.push(fieldError.required(`${at}.${key}`, `resource rules must supply at least one ${noun}`));
    else if (values.length > 1 && hasWildcard(values)) errs.push(fieldError.invalid(`${at}.${key}`, values, `if '*' is present, must not specify other ${wording}`));
  }
  const namespaces = list(rule['namespaces']).map(text);
  if (namespaces.length === 0 && rule['clusterScope'] !== true) {
    errs.push(fieldError.required(`${at}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) errs.push(fieldError.invalid(`${at}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces"));
  } else {
    namespaces.forEach((ns, k) => {
      for (const msg of isDns1123Label(ns)) errs.push(fieldError.invalid(`${at}.namespaces[${k}]`, ns, nsErrIntro + msg));
    });
  }
  return errs;
}

/** ValidateFlowSchemaNonResourcePolicyRule. */
function nonResourceRuleErrors(rule: Json, at: string): FieldError[] {
  const errs = verbErrors(list(rule['verbs']).map(text), `${at}.verbs`);
  const urls = list(rule['nonResourceURLs']).map(text);
  if (urls.length === 0) errs.push(fieldError.required(`${at}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1) errs.push(fieldError.invalid(`${at}.nonResourceURLs`, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else urls.forEach((u, k) => errs.push(...nonResourceUrlError(u, `${at}.nonResourceURLs[${k}]`)));
  return errs;
}

/** The member field of each subject kind. */
const memberOf: Readonly<Record<string, string>> = { ServiceAccount: 'serviceAccount', User: 'user', Group: 'group' };

/** ValidateFlowSchemaSubject. */
function subjectErrors(subject: Json, at: string): FieldError[] {
  const kind = text(subject['kind']);
  const member = memberOf[kind];
  if (member === undefined) return [fieldError.notSupported(`${at}.kind`, kind, subjectKinds)];
  const errs: FieldError[] = [];
  const value = subject[member];
  if (!isSet(value)) errs.push(fieldError.required(`${at}.${member}`, `${member} is required when subject kind is '${kind}'`));
  else {
    const name = text(obj(value)['name']);
    if (name === '') errs.push(fieldError.required(`${at}.${member}.name`));
    else if (kind === 'ServiceAccount' && name !== '*') errs.push(...dns1123Subdomain(name, `${at}.${member}.name`));
    if (kind === 'ServiceAccount') {
      const ns = text(obj(value)['namespace']);
      if (ns === '') errs.push(fieldError.required(`${at}.${member}.namespace`, 'must specify namespace for service account'));
      else errs.push(...dns1123Label(ns, `${at}.${member}.namespace`));
    }
  }
  for (const [otherKind, other] of Object.entries(memberOf)) {
    if (other !== member && isSet(subject[other])) errs.push(fieldError.forbidden(`${at}.${other}`, `${other} is forbidden when subject kind is not '${otherKind}'`));
  }
  return errs;
}

/** ValidateFlowSchemaSpec of 1.27 (the mandatory schemas' fixed specs are not compared). */
export function validateFlowSchema(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(object['spec']);
  const precedence = num(spec['matchingPrecedence']);
  if (precedence <= 0) errs.push(fieldError.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > maxMatchingPrecedence) errs.push(fieldError.invalid('spec.matchingPrecedence', precedence, `must not be greater than ${maxMatchingPrecedence}`));
  if (precedence === 1 && object.metadata?.name !== 'exempt') {
    errs.push(fieldError.invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  }
  if (isSet(spec['distinguisherMethod'])) {
    const type = text(obj(spec['distinguisherMethod'])['type']);
    if (!['ByNamespace', 'ByUser'].includes(type)) errs.push(fieldError.notSupported('spec.distinguisherMethod.type', type, ['ByNamespace', 'ByUser']));
  }
  const level = text(obj(spec['priorityLevelConfiguration'])['name']);
  if (level === '') errs.push(fieldError.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  else errs.push(...dns1123Subdomain(level, 'spec.priorityLevelConfiguration.name'));
  objects(spec['rules']).forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    const subjects = objects(rule['subjects']);
    if (subjects.length === 0) errs.push(fieldError.required(`${at}.subjects`, 'subjects must contain at least one value'));
    subjects.forEach((s, j) => errs.push(...subjectErrors(s, `${at}.subjects[${j}]`)));
    const resourceRules = objects(rule['resourceRules']);
    const nonResourceRules = objects(rule['nonResourceRules']);
    if (resourceRules.length === 0 && nonResourceRules.length === 0) errs.push(fieldError.required(at, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    resourceRules.forEach((r, k) => errs.push(...resourceRuleErrors(r, `${at}.resourceRules[${k}]`)));
    nonResourceRules.forEach((r, k) => errs.push(...nonResourceRuleErrors(r, `${at}.nonResourceRules[${k}]`)));
  });
  return errs;
}

/** The flowschema strategy. */
export function flowSchemaStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    initialStatus: () => ({}),
    tracksGeneration: true,
    defaults: defaultFlowSchema,
    validate: validateFlowSchema,
    validateUpdate: (object) => validateFlowSchema(object),
  });
}
