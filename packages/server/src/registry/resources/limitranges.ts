/**
 * LimitRanges (pkg/registry/core/limitrange; SetDefaults_LimitRangeItem; ValidateLimitRange, 1.27): created by PUT
 * as well; a Container limit takes its default limit from `max` and its default request from the default limit or
 * `min`; quantities are written canonically. Each limit has a standard or qualified type, used once; resource
 * names suit the type; a Pod limit has no defaults; a PersistentVolumeClaim limit bounds storage; min, default
 * request, default and max are ordered; a limit/request ratio is at least 1 and within max/min; resources that may
 * not be overcommitted request what they limit.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { compareQuantities, formatQuantity, milliValue, parseQuantity, quantityOf, unitValue, type Quantity } from '../../meta/quantity.js';
import { isQualifiedName } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { obj, objects, text, type Json } from './field-checks.js';
import { canonicalizeResourceList, containerResourceNameErrors, isOvercommitAllowed, resourceNameErrors } from './resource-names.js';
import { coreMetaErrors } from './core-meta.js';

const standardTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];
const kinds = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** SetDefaults_LimitRangeItem (Container limits) and the quantity round trip of every list. */
function defaultLimitRange(object: KubeObject): void {
  for (const raw of objects(obj(object['spec'])['limits'])) {
    for (const kind of kinds) canonicalizeResourceList(raw[kind]);
    if (raw['type'] !== 'Container') continue;
    const defaults = record(raw['default']) ?? {};
    const requests = record(raw['defaultRequest']) ?? {};
    for (const [k, v] of Object.entries(obj(raw['max']))) if (defaults[k] === undefined) defaults[k] = v;
    for (const [k, v] of Object.entries(defaults)) if (requests[k] === undefined) requests[k] = v;
    for (const [k, v] of Object.entries(obj(raw['min']))) if (requests[k] === undefined) requests[k] = v;
    if (Object.keys(defaults).length > 0) raw['default'] = defaults;
    if (Object.keys(requests).length > 0) raw['defaultRequest'] = requests;
  }
}

/** Go's %f of a float64. */
function goFloat(value: number): string {
  return value.toFixed(6);
}

/** ValidateLimitRange's checks of one limit at `at`. */
function limitErrors(limit: Json, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = text(limit['type']);
  const nameCheck = type === 'Pod' || type === 'Container' ? containerResourceNameErrors : resourceNameErrors;
  const lists: Record<string, Map<string, Quantity>> = {};
  for (const kind of kinds) {
    lists[kind] = new Map();
    if (type === 'Pod' && (kind === 'default' || kind === 'defaultRequest')) {
      if (Object.keys(obj(limit[kind])).length > 0) errs.push(fieldError.forbidden(`${at}.${kind}`, "may not be specified when `type` is 'Pod'"));
      continue;
    }
    for (const [name, value] of Object.entries(obj(limit[kind]))) {
      errs.push(...nameCheck(name, `${at}.${kind}[${name}]`));
      const q = parseQuantity(value);
      if (q !== undefined) lists[kind]!.set(name, q);
    }
  }
  if (type === 'PersistentVolumeClaim' && obj(limit['min'])['storage'] === undefined && obj(limit['max'])['storage'] === undefined) {
    errs.push(fieldError.required(`${at}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
  }
  const keys = new Set(kinds.flatMap((kind) => [...lists[kind]!.keys()]));
  for (const k of keys) {
    const min = lists['min']!.get(k);
    const max = lists['max']!.get(k);
    const def = lists['default']!.get(k);
    const req = lists['defaultRequest']!.get(k);
    const ratio = lists['maxLimitRequestRatio']!.get(k);
    const s = (q: Quantity): string => formatQuantity(q);
    if (min && max && compareQuantities(min, max) > 0) errs.push(fieldError.invalid(`${at}.min[${k}]`, s(min), `min value ${s(min)} is greater than max value ${s(max)}`));
    if (req && min && compareQuantities(min, req) > 0) errs.push(fieldError.invalid(`${at}.defaultRequest[${k}]`, s(req), `min value ${s(min)} is greater than default request value ${s(req)}`));
    if (req && max && compareQuantities(req, max) > 0) errs.push(fieldError.invalid(`${at}.defaultRequest[${k}]`, s(req), `default request value ${s(req)} is greater than max value ${s(max)}`));
    if (req && def && compareQuantities(req, def) > 0) errs.push(fieldError.invalid(`${at}.defaultRequest[${k}]`, s(req), `default request value ${s(req)} is greater than default limit value ${s(def)}`));
    if (def && min && compareQuantities(min, def) > 0) errs.push(fieldError.invalid(`${at}.default[${k}]`, s(min), `min value ${s(min)} is greater than default value ${s(def)}`));
    if (def && max && compareQuantities(def, max) > 0) errs.push(fieldError.invalid(`${at}.default[${k}]`, s(max), `default value ${s(def)} is greater than max value ${s(max)}`));
    if (ratio && compareQuantities(ratio, quantityOf(1)) < 0) errs.push(fieldError.invalid(`${at}.maxLimitRequestRatio[${k}]`, s(ratio), `ratio ${s(ratio)} is less than 1`));
    if (ratio && min && max) {
      // kube compares in milli-units unless that overflows (resource.MaxMilliValue).
      const maxMilli = 2n ** 63n / 1000n;
      const useMilli = unitValue(ratio) < maxMilli && unitValue(min) < maxMilli && unitValue(max) < maxMilli;
      const ratioValue = useMilli ? Number(milliValue(ratio)) / 1000 : Number(unitValue(ratio));
      const limitRatio = useMilli ? Number(milliValue(max)) / Number(milliValue(min)) : Number(unitValue(max)) / Number(unitValue(min));
      if (ratioValue > limitRatio) errs.push(fieldError.invalid(`${at}.maxLimitRequestRatio[${k}]`, s(ratio), `ratio ${s(ratio)} is greater than max/min = ${goFloat(limitRatio)}`));
    }
    if (!isOvercommitAllowed(k) && def && req && compareQuantities(def, req) !== 0) {
      errs.push(fieldError.invalid(`${at}.defaultRequest[${k}]`, s(req), `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`));
    }
  }
  return errs;
}

function validateLimitRange(object: KubeObject, names: Names): FieldError[] {
  const errs = coreMetaErrors(object, names);
  const seen = new Set<string>();
  objects(obj(object['spec'])['limits']).forEach((limit, i) => {
    const at = `spec.limits[${i}]`;
    const type = text(limit['type']);
    const typeErrs = isQualifiedName(type).map((msg) => fieldError.invalid(`${at}.type`, type, msg));
    if (typeErrs.length === 0 && !type.includes('/') && !standardTypes.includes(type)) typeErrs.push(fieldError.invalid(`${at}.type`, type, 'must be a standard limit type or fully qualified'));
    errs.push(...typeErrs);
    if (seen.has(type)) errs.push(fieldError.duplicate(`${at}.type`, type));
    seen.add(type);
    errs.push(...limitErrors(limit, at));
  });
  return errs;
}

/** The limitrange strategy of a flavour. */
export function limitRangeStrategy(names: Names): Strategy {
  return defineStrategy({
    allowCreateOnUpdate: true,
    defaults: defaultLimitRange,
    validate: (object) => validateLimitRange(object, names),
    validateUpdate: (object) => validateLimitRange(object, names),
  });
}
