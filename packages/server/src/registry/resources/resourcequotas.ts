/**
 * ResourceQuotas (pkg/registry/core/resourcequota; ValidateResourceQuota, its update and status update, 1.27): status
 * subresource, status cleared on create, quantities written canonically; `spec.hard` (and status `hard` and
 * `used`) name standard quota resources or qualified ones with valid quantities (whole for object counts and
 * extended resources); scopes are known, suit the resources they limit and do not contradict each other; a scope
 * selector's expressions are well formed; scopes are immutable.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { list, obj, objects, text, type Json } from './field-checks.js';
import { canonicalizeResourceList, isStandardQuotaResource, quotaResourceNameErrors, resourceQuantityErrors } from './resource-names.js';
import { coreMetaErrors } from './core-meta.js';

const scopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const podCompute = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

/** IsResourceQuotaScopeValidForResource. */
function scopeValidFor(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return resource === 'pods';
  if (scopes.includes(scope)) return resource === 'pods' || podCompute.has(resource);
  return true;
}

/** A resource list of a quota (`spec.hard`, `status.hard`, `status.used`) at `path`. */
function resourceListErrors(resources: unknown, path: string): FieldError[] {
  return Object.entries(obj(resources)).flatMap(([name, value]) => [...quotaResourceNameErrors(name, `${path}[${name}]`), ...resourceQuantityErrors(name, value, `${path}[${name}]`)]);
}

function conflicting(used: ReadonlySet<string>): boolean {
  return (used.has('BestEffort') && used.has('NotBestEffort')) || (used.has('Terminating') && used.has('NotTerminating'));
}

/** validateResourceQuotaScopes and validateScopeSelector. */
function scopeErrors(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  const hard = Object.keys(obj(spec['hard'])).sort();
  const given = list(spec['scopes']).map(text);
  if (given.length > 0) {
    const used = new Set<string>();
    for (const scope of given) {
      if (!scopes.includes(scope)) errs.push(fieldError.invalid('spec.scopes', given, 'unsupported scope'));
      for (const k of hard) if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) errs.push(fieldError.invalid('spec.scopes', given, 'unsupported scope applied to resource'));
      used.add(scope);
    }
    if (conflicting(used)) errs.push(fieldError.invalid('spec.scopes', given, 'conflicting scopes'));
  }
  const selector = spec['scopeSelector'];
  if (selector === undefined || selector === null) return errs;
  const path = 'spec.scopeSelector.matchExpressions';
  const used = new Set<string>();
  for (const req of objects(obj(selector)['matchExpressions'])) {
    const scope = text(req['scopeName']);
    if (!scopes.includes(scope)) errs.push(fieldError.invalid(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const k of hard) if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) errs.push(fieldError.invalid(path, selector, 'unsupported scope applied to resource'));
    const operator = text(req['operator']);
    if (['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(scope) && operator !== 'Exists') {
      errs.push(fieldError.invalid(`${path}.operator`, operator, 'must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity'));
    }
    const values = list(req['values']);
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) errs.push(fieldError.required(`${path}.values`, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length !== 0) errs.push(fieldError.invalid(`${path}.values`, values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    } else {
      errs.push(fieldError.invalid(`${path}.operator`, operator, 'not a valid selector operator'));
    }
    used.add(scope);
  }
  if (conflicting(used)) errs.push(fieldError.invalid(path, spec['scopes'] ?? null, 'conflicting scopes'));
  return errs;
}

function specErrors(object: KubeObject): FieldError[] {
  const spec = obj(object['spec']);
  return [...resourceListErrors(spec['hard'], 'spec.hard'), ...scopeErrors(spec)];
}

function statusErrors(object: KubeObject): FieldError[] {
  const status = obj(object.status);
  return [...resourceListErrors(status['hard'], 'status.hard'), ...resourceListErrors(status['used'], 'status.used')];
}

/** The quantity round trip of a quota's lists. */
function canonicalize(object: KubeObject): void {
  canonicalizeResourceList(record(object['spec'])?.['hard']);
  const status = record(object.status);
  canonicalizeResourceList(status?.['hard']);
  canonicalizeResourceList(status?.['used']);
}

/** The resourcequota strategy of a flavour. */
export function resourceQuotaStrategy(names: Names): Strategy {
  return defineStrategy({
    hasStatus: true, initialStatus: () => ({}), returnDeletedObject: true,
    prepareForCreate: canonicalize,
    prepareForUpdate: canonicalize,
    validate: (object) => [...coreMetaErrors(object, names), ...specErrors(object), ...statusErrors(object)],
    validateUpdate(object, old) {
      const errs = [...coreMetaErrors(object, names), ...specErrors(object)];
      const now = new Set(list(obj(object['spec'])['scopes']).map(text));
      const before = new Set(list(obj(old['spec'])['scopes']).map(text));
      if (now.size !== before.size || [...now].some((s) => !before.has(s))) errs.push(fieldError.invalid('spec.scopes', obj(object['spec'])['scopes'] ?? null, 'field is immutable'));
      return errs;
    },
    status: {
      prepareForUpdate(object, old) {
        genericStatusStrategy.prepareForUpdate(object, old);
        canonicalize(object);
      },
      validateUpdate: (object) => [...coreMetaErrors(object, names), ...statusErrors(object)],
    },
  });
}
