/**
 * The scheduling parts of a pod spec as kube-apiserver 1.27 validates them (pkg/apis/core/validation): node
 * selector terms (also a PersistentVolume's node affinity), node and pod (anti-)affinity, tolerations, topology
 * spread constraints (with minDomains, the node inclusion policies and matchLabelKeys, whose gates 1.27 enables),
 * DNS config, host aliases, readiness and scheduling gates.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isDns1123Label, isLabelValue } from '../../meta/name-rules.js';
import { dns1123Subdomain, ipErrors, isSet, list, num, obj, objects, oneOf, qualifiedName, text, type Json } from './field-checks.js';
import { requirementErrors, validateLabelSelector } from './label-checks.js';

/** ValidateNodeSelectorRequirement (a node label requirement). */
function nodeSelectorRequirement(rq: Json, path: string): FieldError[] {
  return [...requirementErrors(rq, path, true), ...qualifiedName(text(rq['key']), `${path}.key`)];
}

/** ValidateNodeFieldSelectorRequirement: only `metadata.name`, with In or NotIn and one node name. */
function nodeFieldSelectorRequirement(rq: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = list(rq['values']);
  if (rq['operator'] === 'In' || rq['operator'] === 'NotIn') {
    if (values.length !== 1) errs.push(fieldError.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(fieldError.invalid(`${path}.operator`, text(rq['operator']), 'not a valid selector operator'));
  }
  if (rq['key'] !== 'metadata.name') errs.push(fieldError.invalid(`${path}.key`, text(rq['key']), 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...dns1123Subdomain(text(v), `${path}.values[${i}]`)));
  return errs;
}

/** ValidateNodeSelectorTerm. */
function nodeSelectorTerm(term: Json, path: string): FieldError[] {
  return [
    ...objects(term['matchExpressions']).flatMap((rq, j) => nodeSelectorRequirement(rq, `${path}.matchExpressions[${j}]`)),
    ...objects(term['matchFields']).flatMap((rq, j) => nodeFieldSelectorRequirement(rq, `${path}.matchFields[${j}]`)),
  ];
}

/** ValidateNodeSelector: at least one term, each valid. */
export function nodeSelectorErrors(selector: Json, path: string): FieldError[] {
  const terms = objects(selector['nodeSelectorTerms']);
  if (terms.length === 0) return [fieldError.required(`${path}.nodeSelectorTerms`, 'must have at least one node selector term')];
  return terms.flatMap((term, i) => nodeSelectorTerm(term, `${path}.nodeSelectorTerms[${i}]`));
}

function weight(value: unknown, path: string): FieldError[] {
  const w = num(value);
  return w <= 0 || w > 100 ? [fieldError.invalid(path, w, 'must be in the range 1-100')] : [];
}

function nodeAffinity(na: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const required = na['requiredDuringSchedulingIgnoredDuringExecution'];
  if (isSet(required)) errs.push(...nodeSelectorErrors(obj(required), `${path}.requiredDuringSchedulingIgnoredDuringExecution`));
  objects(na['preferredDuringSchedulingIgnoredDuringExecution']).forEach((term, i) => {
    const at = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    errs.push(...weight(term['weight'], `${at}.weight`), ...nodeSelectorTerm(obj(term['preference']), `${at}.preference`));
  });
  return errs;
}

/** validatePodAffinityTerm. */
function podAffinityTerm(term: Json, allowInvalidLabelValue: boolean, path: string): FieldError[] {
  const options = { allowInvalidLabelValueInSelector: allowInvalidLabelValue };
  const errs = [
    ...validateLabelSelector(term['labelSelector'], `${path}.labelSelector`, options),
    ...validateLabelSelector(term['namespaceSelector'], `${path}.namespaceSelector`, options),
  ];
  for (const ns of list(term['namespaces'])) {
    for (const msg of isDns1123Label(text(ns))) errs.push(fieldError.invalid(`${path}.namespace`, text(ns), msg));
  }
  const key = text(term['topologyKey']);
  if (key === '') errs.push(fieldError.required(`${path}.topologyKey`, 'can not be empty'));
  return [...errs, ...qualifiedName(key, `${path}.topologyKey`)];
}

function podAffinity(affinity: Json, allowInvalidLabelValue: boolean, path: string): FieldError[] {
  return [
    ...objects(affinity['requiredDuringSchedulingIgnoredDuringExecution']).flatMap((t, i) => podAffinityTerm(t, allowInvalidLabelValue, `${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`)),
    ...objects(affinity['preferredDuringSchedulingIgnoredDuringExecution']).flatMap((t, i) => {
      const at = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      return [...weight(t['weight'], `${at}.weight`), ...podAffinityTerm(obj(t['podAffinityTerm']), allowInvalidLabelValue, `${at}.podAffinityTerm`)];
    }),
  ];
}

/** validateAffinity. */
export function affinityErrors(affinity: unknown, allowInvalidLabelValue: boolean, path: string): FieldError[] {
  if (!isSet(affinity)) return [];
  const a = obj(affinity);
  return [
    ...(isSet(a['nodeAffinity']) ? nodeAffinity(obj(a['nodeAffinity']), `${path}.nodeAffinity`) : []),
    ...(isSet(a['podAffinity']) ? podAffinity(obj(a['podAffinity']), allowInvalidLabelValue, `${path}.podAffinity`) : []),
    ...(isSet(a['podAntiAffinity']) ? podAffinity(obj(a['podAntiAffinity']), allowInvalidLabelValue, `${path}.podAntiAffinity`) : []),
  ];
}

/** The taint effects (validateTaintEffect). */
export const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaintEffect; an empty effect is Required unless `allowEmpty`. */
export function taintEffectErrors(effect: string, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && effect === '') return [fieldError.required(path)];
  return taintEffects.includes(effect) ? [] : [fieldError.notSupported(path, effect, taintEffects)];
}

/** ValidateTolerations. */
export function tolerationErrors(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objects(tolerations).forEach((t, i) => {
    const at = `${path}[${i}]`;
    const key = text(t['key']);
    const operator = text(t['operator']);
    const effect = text(t['effect']);
    if (key !== '') errs.push(...qualifiedName(key, `${at}.key`));
    if (key === '' && operator !== 'Exists') {
      errs.push(fieldError.invalid(`${at}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (isSet(t['tolerationSeconds']) && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    const value = text(t['value']);
    if (operator === 'Equal' || operator === '') {
      const msgs = isLabelValue(value);
      if (msgs.length > 0) errs.push(fieldError.invalid(`${at}.operator`, value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') errs.push(fieldError.invalid(`${at}.operator`, t, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(fieldError.notSupported(`${at}.operator`, operator, ['Equal', 'Exists']));
    }
    if (effect !== '') errs.push(...taintEffectErrors(effect, true, `${at}.effect`));
  });
  return errs;
}

/** validateTopologySpreadConstraints (1.27's form, with the label selector checked unless the old object had it wrong). */
export function topologySpreadErrors(constraints: unknown, allowInvalidSelector: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const all = objects(constraints);
  all.forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (num(c['maxSkew']) <= 0) errs.push(fieldError.invalid(`${at}.maxSkew`, num(c['maxSkew']), 'must be greater than zero'));
    if (text(c['topologyKey']) === '') errs.push(fieldError.required(`${at}.topologyKey`, 'can not be empty'));
    const action = text(c['whenUnsatisfiable']);
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') errs.push(fieldError.notSupported(`${at}.whenUnsatisfiable`, action, ['DoNotSchedule', 'ScheduleAnyway']));
    if (all.slice(i + 1).some((o) => o['topologyKey'] === c['topologyKey'] && o['whenUnsatisfiable'] === c['whenUnsatisfiable'])) {
      errs.push(fieldError.duplicate(`${at}.{topologyKey, whenUnsatisfiable}`, `{${text(c['topologyKey'])}, ${action}}`));
    }
    if (isSet(c['minDomains'])) {
      const min = num(c['minDomains']);
      if (min <= 0) errs.push(fieldError.invalid(`${at}.minDomains`, min, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(fieldError.invalid(`${at}.minDomains`, min, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (isSet(c[policy])) errs.push(...oneOf(c[policy], `${at}.${policy}`, ['Honor', 'Ignore'], false));
    }
    const keys = list(c['matchLabelKeys']);
    if (keys.length > 0) {
      const selector = c['labelSelector'];
      const selectorKeys = new Set<string>();
      if (isSet(selector)) {
        for (const k of Object.keys(obj(obj(selector)['matchLabels']))) selectorKeys.add(k);
        for (const e of objects(obj(selector)['matchExpressions'])) selectorKeys.add(text(e['key']));
      } else {
        errs.push(fieldError.forbidden(`${at}.matchLabelKeys`, 'must not be specified when labelSelector is not set'));
      }
      keys.forEach((k, j) => {
        errs.push(...qualifiedName(text(k), `${at}.matchLabelKeys[${j}]`));
        if (selectorKeys.has(text(k))) errs.push(fieldError.invalid(`${at}.matchLabelKeys[${j}]`, k, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    if (!allowInvalidSelector) errs.push(...validateLabelSelector(c['labelSelector'], `${at}.labelSelector`));
  });
  return errs;
}

/** True when a topology spread constraint's selector is invalid (the old object's relaxation). */
export function hasInvalidTopologySpreadSelector(constraints: unknown): boolean {
  return objects(constraints).some((c) => validateLabelSelector(c['labelSelector'], '').length > 0);
}

/**
 * validatePodDNSConfig: the expanded limits (32 search paths, 2048 characters) where AllowExpandedDNSConfig holds
 * (ExpandedDNSConfig on, by default in 1.27, or the stored spec already used them), else 6 and 256.
 */
export function dnsConfigErrors(config: unknown, policy: string, path: string, expanded = true): FieldError[] {
  if (policy === 'None') {
    if (!isSet(config)) return [fieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(obj(config)['nameservers']).length === 0) return [fieldError.required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!isSet(config)) return [];
  const c = obj(config);
  const errs: FieldError[] = [];
  const nameservers = list(c['nameservers']);
  if (nameservers.length > 3) errs.push(fieldError.invalid(`${path}.nameservers`, nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => errs.push(...ipErrors(ns, `${path}.nameservers[${i}]`)));
  const searches = list(c['searches']).map(text);
  const [maxPaths, maxChars] = expanded ? [32, 2048] : [6, 256];
  if (searches.length > maxPaths) errs.push(fieldError.invalid(`${path}.searches`, searches, `must not have more than ${maxPaths} search paths`));
  if (searches.join(' ').length > maxChars) errs.push(fieldError.invalid(`${path}.searches`, searches, `must not have more than ${maxChars} characters (including spaces) in the search list`));
  searches.forEach((s, i) => errs.push(...dns1123Subdomain(s.endsWith('.') ? s.slice(0, -1) : s, `${path}.searches[${i}]`)));
  objects(c['options']).forEach((o, i) => {
    if (text(o['name']) === '') errs.push(fieldError.required(`${path}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

/** ValidateHostAliases. */
export function hostAliasErrors(aliases: unknown, path: string): FieldError[] {
  return objects(aliases).flatMap((a, i) => [
    ...ipErrors(a['ip'], `${path}[${i}].ip`),
    ...list(a['hostnames']).flatMap((h, j) => dns1123Subdomain(text(h), `${path}[${i}].hostnames[${j}]`)),
  ]);
}

/** validateReadinessGates. */
export function readinessGateErrors(gates: unknown, path: string): FieldError[] {
  return objects(gates).flatMap((g, i) => qualifiedName(text(g['conditionType']), `${path}[${i}].conditionType`));
}

/** validateSchedulingGates: qualified names, no duplicates. */
export function schedulingGateErrors(gates: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(gates).forEach((g, i) => {
    const name = text(g['name']);
    errs.push(...qualifiedName(name, `${path}[${i}]`));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}[${i}]`, name));
    seen.add(name);
  });
  return errs;
}
