/**
 * MutatingWebhookConfigurations and ValidatingWebhookConfigurations (pkg/registry/admissionregistration and
 * pkg/apis/admissionregistration/validation; document 3 §Webhook configuration resources): v1's defaults
 * (`failurePolicy: Fail`, `matchPolicy: Equivalent`, `timeoutSeconds: 10`, empty selectors, rule `scope: "*"`,
 * service `port: 443`, and for mutating webhooks `reinvocationPolicy: Never`), and validation — unique webhook
 * names of at least three DNS segments, well-formed rules, `admissionReviewVersions` with a version the server
 * speaks, `sideEffects` None or NoneOnDryRun, `timeoutSeconds` from 1 to 30, selectors, and exactly one of an
 * https URL without user info, query or fragment, or a Service reference. An update may keep what an older
 * object already had (unknown review versions, side effects, duplicate names), as kube's update validation allows.
 * With the AdmissionWebhookMatchConditions gate off (1.27's default), webhooks' `matchConditions` are dropped on
 * create, and on update unless the stored object already uses them (kube's DropDisabled…WebhookConfigurationFields):
 * objects written while the gate was on keep their conditions, which the dispatchers then leave unevaluated. They
 * are the only gated fields of 1.27's webhook configurations; the policies' types are served only with their gate.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { validateWebhookService, validateWebhookUrl } from '../../meta/webhook-client-config.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { record } from '../conversion/resource-conversion.js';
import { setDefault, validateLabelSelector } from './pod-spec.js';
import { validateMatchConditions } from '../../cel/match-conditions.js';

type Json = Record<string, unknown>;

/** The review versions the server speaks (AcceptedAdmissionReviewVersions). */
const acceptedReviewVersions = ['v1', 'v1beta1'];
const sideEffectClasses = ['None', 'NoneOnDryRun'];
const legacySideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const scopes = ['*', 'Cluster', 'Namespaced'];

const webhooksOf = (o: KubeObject): Json[] => (Array.isArray(o['webhooks']) ? o['webhooks'] : []).map((w) => record(w) ?? {});
const stringList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** SetDefaults_ValidatingWebhook / SetDefaults_MutatingWebhook and their rules and service references. */
export function defaultWebhooks(object: KubeObject, mutating: boolean): void {
  for (const w of webhooksOf(object)) {
    setDefault(w, 'failurePolicy', 'Fail');
    setDefault(w, 'matchPolicy', 'Equivalent');
    setDefault(w, 'namespaceSelector', {});
    setDefault(w, 'objectSelector', {});
    setDefault(w, 'timeoutSeconds', 10);
    if (mutating) setDefault(w, 'reinvocationPolicy', 'Never');
    for (const rule of stringList(w['rules'])) {
      const r = record(rule);
      if (r !== undefined) setDefault(r, 'scope', '*');
    }
    const service = record(record(w['clientConfig'])?.['service']);
    if (service !== undefined) setDefault(service, 'port', 443);
  }
}

/** The gates the strategies follow: AdmissionWebhookMatchConditions (off by default in 1.27). */
type WebhookGates = Pick<FeatureGates, 'AdmissionWebhookMatchConditions'>;

/** matchConditionsInUse: does any webhook of `object` have conditions. */
function matchConditionsInUse(object: KubeObject | undefined): boolean {
  return object !== undefined && webhooksOf(object).some((w) => Array.isArray(w['matchConditions']) && w['matchConditions'].length > 0);
}

/** DropDisabledMutatingWebhookConfigurationFields / its validating twin (`old` absent on create). */
export function dropDisabledWebhookFields(object: KubeObject, old: KubeObject | undefined, gates: WebhookGates): void {
  if (gates.AdmissionWebhookMatchConditions || matchConditionsInUse(old)) return;
  for (const w of webhooksOf(object)) delete w['matchConditions'];
}

/** validateResources. */
function validateResources(resources: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldError.required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((value, i) => {
    const rs = typeof value === 'string' ? value : '';
    if (rs === '') {
      errs.push(fieldError.required(`${path}[${i}]`));
      return;
    }
    if (rs === '*/*') doubleWildcard = true;
    if (rs === '*') singleWildcard = true;
    const slash = rs.indexOf('/');
    if (slash < 0) {
      if (rs !== '*') withoutSub = true;
      return;
    }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (withWildcardSub.has(res)) errs.push(fieldError.invalid(`${path}[${i}]`, rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (subWithWildcardRes.has(sub)) errs.push(fieldError.invalid(`${path}[${i}]`, rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(fieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(fieldError.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** ValidateRuleWithOperations (policies' resource rules are checked with it too). */
export function validateRule(rule: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = stringList(rule['operations']);
  if (ops.length === 0) errs.push(fieldError.required(`${path}.operations`));
  if (ops.length > 1 && ops.includes('*')) errs.push(fieldError.invalid(`${path}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (typeof op !== 'string' || !operations.includes(op)) errs.push(fieldError.notSupported(`${path}.operations[${i}]`, op, operations));
  });
  const groups = stringList(rule['apiGroups']);
  if (groups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldError.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = stringList(rule['apiVersions']);
  if (versions.length === 0) errs.push(fieldError.required(`${path}.apiVersions`));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldError.invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '' || typeof v !== 'string') errs.push(fieldError.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(stringList(rule['resources']), `${path}.resources`));
  const scope = rule['scope'];
  if (scope !== undefined && (typeof scope !== 'string' || !scopes.includes(scope))) errs.push(fieldError.notSupported(`${path}.scope`, scope, scopes));
  return errs;
}

/** What an update may keep of its old object. */
interface ValidationOptions {
  readonly requireNoSideEffects: boolean;
  readonly requireRecognizedReviewVersion: boolean;
  readonly requireUniqueNames: boolean;
}

const strictOptions: ValidationOptions = { requireNoSideEffects: true, requireRecognizedReviewVersion: true, requireUniqueNames: true };

/** validateWebhook (both kinds; `mutating` adds the reinvocation policy). */
function validateWebhook(w: Json, path: string, mutating: boolean, options: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const name = w['name'];
  if (typeof name !== 'string' || name === '') errs.push(fieldError.required(`${path}.name`));
  else {
    for (const msg of isDns1123Subdomain(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
    if (name.split('.').length < 3) errs.push(fieldError.invalid(`${path}.name`, name, 'should be a domain with at least three segments separated by dots'));
  }
  stringList(w['rules']).forEach((r, i) => errs.push(...validateRule(record(r) ?? {}, `${path}.rules[${i}]`)));
  const failurePolicy = w['failurePolicy'];
  if (failurePolicy !== undefined && failurePolicy !== 'Fail' && failurePolicy !== 'Ignore') {
    errs.push(fieldError.notSupported(`${path}.failurePolicy`, failurePolicy, ['Fail', 'Ignore']));
  }
  const matchPolicy = w['matchPolicy'];
  if (matchPolicy !== undefined && matchPolicy !== 'Equivalent' && matchPolicy !== 'Exact') {
    errs.push(fieldError.notSupported(`${path}.matchPolicy`, matchPolicy, ['Equivalent', 'Exact']));
  }
  const allowedSideEffects = options.requireNoSideEffects ? sideEffectClasses : legacySideEffectClasses;
  const sideEffects = w['sideEffects'];
  if (sideEffects === undefined || sideEffects === null) errs.push(fieldError.required(`${path}.sideEffects`, `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (typeof sideEffects !== 'string' || !allowedSideEffects.includes(sideEffects)) {
    errs.push(fieldError.notSupported(`${path}.sideEffects`, sideEffects, allowedSideEffects));
  }
  const timeout = w['timeoutSeconds'];
  if (timeout !== undefined && (typeof timeout !== 'number' || timeout > 30 || timeout < 1)) {
    errs.push(fieldError.invalid(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  for (const key of ['namespaceSelector', 'objectSelector']) {
    if (w[key] !== undefined && w[key] !== null) errs.push(...validateLabelSelector(w[key], `${path}.${key}`));
  }
  const versions = stringList(w['admissionReviewVersions']);
  if (versions.length === 0) errs.push(fieldError.required(`${path}.admissionReviewVersions`, `must specify one of ${acceptedReviewVersions.join(', ')}`));
  else {
    const seen = new Set<unknown>();
    let accepted = false;
    versions.forEach((v, i) => {
      if (seen.has(v)) {
        errs.push(fieldError.invalid(`${path}.admissionReviewVersions[${i}]`, v, 'duplicate version'));
        return;
      }
      seen.add(v);
      if (typeof v !== 'string' || !/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(v)) {
        errs.push(fieldError.invalid(`${path}.admissionReviewVersions[${i}]`, v,
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"));
      }
      if (typeof v === 'string' && acceptedReviewVersions.includes(v)) accepted = true;
    });
    if (options.requireRecognizedReviewVersion && !accepted) {
      errs.push(fieldError.invalid(`${path}.admissionReviewVersions`, versions, `must include at least one of ${acceptedReviewVersions.join(', ')}`));
    }
  }
  const clientConfig = record(w['clientConfig']) ?? {};
  const url = clientConfig['url'];
  const service = record(clientConfig['service']);
  if ((url === undefined || url === null) === (service === undefined)) {
    errs.push(fieldError.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  } else if (typeof url === 'string') {
    errs.push(...validateWebhookUrl(url, `${path}.clientConfig.url`));
  } else if (service !== undefined) {
    errs.push(...validateWebhookService(service, `${path}.clientConfig.service`));
  }
  errs.push(...validateMatchConditions(w['matchConditions'], `${path}.matchConditions`, false));
  if (mutating) {
    const policy = w['reinvocationPolicy'];
    if (policy !== undefined && policy !== 'Never' && policy !== 'IfNeeded') {
      errs.push(fieldError.notSupported(`${path}.reinvocationPolicy`, policy, ['IfNeeded', 'Never']));
    }
  }
  return errs;
}

/** Validates a configuration's webhooks. */
export function validateWebhookConfiguration(object: KubeObject, mutating: boolean, options: ValidationOptions = strictOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(object).forEach((w, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(w, path, mutating, options));
    const name = w['name'];
    if (options.requireUniqueNames && typeof name === 'string' && name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
      names.add(name);
    }
  });
  return errs;
}

/** The update validation: an old object's leniencies carry over (kube's validationOptions of an update). */
function validateUpdate(object: KubeObject, old: KubeObject, mutating: boolean): FieldError[] {
  const oldHooks = webhooksOf(old);
  const names = oldHooks.map((w) => w['name']);
  return validateWebhookConfiguration(object, mutating, {
    requireNoSideEffects: oldHooks.every((w) => typeof w['sideEffects'] === 'string' && sideEffectClasses.includes(w['sideEffects'])),
    requireRecognizedReviewVersion: oldHooks.every((w) => stringList(w['admissionReviewVersions']).some((v) => acceptedReviewVersions.includes(String(v)))),
    requireUniqueNames: new Set(names).size === names.length,
  });
}

/** The strategy of one of the two kinds. */
function webhookConfigurationStrategy(mutating: boolean, gates: WebhookGates): Strategy {
  return defineStrategy({
    tracksGeneration: true,
    defaults: (o) => defaultWebhooks(o, mutating),
    prepareForCreate: (o) => dropDisabledWebhookFields(o, undefined, gates),
    prepareForUpdate: (o, old) => dropDisabledWebhookFields(o, old, gates),
    validate: (o) => validateWebhookConfiguration(o, mutating),
    validateUpdate: (o, old) => validateUpdate(o, old, mutating),
  });
}

/** The mutatingwebhookconfiguration strategy under the server's gates (by default, 1.27's defaults). */
export function mutatingWebhookConfigurationStrategy(_names?: Names, gates: WebhookGates = defaultFeatureGates): Strategy {
  return webhookConfigurationStrategy(true, gates);
}

/** The validatingwebhookconfiguration strategy under the server's gates (by default, 1.27's defaults). */
export function validatingWebhookConfigurationStrategy(_names?: Names, gates: WebhookGates = defaultFeatureGates): Strategy {
  return webhookConfigurationStrategy(false, gates);
}
