/**
 * StorageClasses (pkg/registry/storage/storageclass): `reclaimPolicy` defaults to `Delete` and
 * `volumeBindingMode` to `Immediate` (SetDefaults_StorageClass); ValidateStorageClass of 1.27 rule by rule: a
 * provisioner that is a qualified name, parameters bounded in number and size, known policies and binding modes,
 * allowed topologies; an update may not change the provisioner, parameters, reclaim policy or binding mode, and
 * checks nothing else (ValidateStorageClassUpdate).
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { isSet, list, obj, objects, qualifiedName, text, type Json } from './field-checks.js';
import { immutable, sameJson, setDefault } from './object-fields.js';

/** SetDefaults_StorageClass. */
export function defaultStorageClass(object: KubeObject): void {
  const o = object as Record<string, unknown>;
  setDefault(o, 'reclaimPolicy', 'Delete');
  setDefault(o, 'volumeBindingMode', 'Immediate');
}

/** maxProvisionerParameterLen and maxProvisionerParameterSize. */
const maxParameters = 512;
const maxParameterSize = 256 * 1024;
const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** validateParameters (empty allowed). */
function parametersErrors(params: Json): FieldError[] {
  const entries = Object.entries(params);
  if (entries.length > maxParameters) return [fieldError.tooLong('parameters', maxParameters)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === '') errs.push(fieldError.invalid('parameters', k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(text(v));
  }
  if (size > maxParameterSize) errs.push(fieldError.tooLong('parameters', maxParameterSize));
  return errs;
}

/**
 * validateAllowedTopologies with ValidateTopologySelectorTerm: values required and unique, keys label names and
 * unique in a term, terms unique. kube compares each term also with as many empty terms as the list is long, so a
 * term without expressions is always reported as a duplicate.
 */
function allowedTopologiesErrors(terms: Json[]): FieldError[] {
  const errs: FieldError[] = [];
  const previous: string[] = terms.map(() => '{}');
  terms.forEach((term, i) => {
    const exprs = new Map<string, string[]>();
    objects(term['matchLabelExpressions']).forEach((req, j) => {
      const at = `allowedTopologies[${i}].matchLabelExpressions[${j}]`;
      const values = list(req['values']).map(text);
      if (values.length === 0) errs.push(fieldError.required(`${at}.values`));
      values.forEach((v, k) => {
        if (values.indexOf(v) !== k) errs.push(fieldError.duplicate(`${at}.values[${k}]`, v));
      });
      const key = text(req['key']);
      errs.push(...qualifiedName(key, `${at}.key`));
      if (exprs.has(key)) errs.push(fieldError.duplicate(`${at}.key`, key));
      exprs.set(key, [...new Set(values)].sort());
    });
    const canonical = JSON.stringify(Object.fromEntries([...exprs.entries()].sort(([a], [b]) => (a < b ? -1 : 1))));
    if (previous.includes(canonical)) errs.push(fieldError.duplicate(`allowedTopologies[${i}].matchLabelExpressions`, ''));
    previous.push(canonical);
  });
  return errs;
}

/** ValidateStorageClass (1.27). */
export function validateStorageClass(object: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const provisioner = text(object['provisioner']);
  if (provisioner === '') errs.push(fieldError.required('provisioner'));
  else errs.push(...qualifiedName(provisioner.toLowerCase(), 'provisioner'));
  errs.push(...parametersErrors(obj(object['parameters'])));
  const reclaim = text(object['reclaimPolicy']);
  if (reclaim !== '' && !reclaimPolicies.includes(reclaim)) errs.push(fieldError.notSupported('reclaimPolicy', reclaim, reclaimPolicies));
  if (!isSet(object['volumeBindingMode'])) errs.push(fieldError.required('volumeBindingMode'));
  else if (!bindingModes.includes(text(object['volumeBindingMode']))) errs.push(fieldError.notSupported('volumeBindingMode', object['volumeBindingMode'], bindingModes));
  return [...errs, ...allowedTopologiesErrors(objects(object['allowedTopologies']))];
}

/** ValidateStorageClassUpdate: the immutable fields only (1.27 does not validate the rest again). */
function validateStorageClassUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!sameJson(object['parameters'] ?? {}, old['parameters'] ?? {})) errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (object['provisioner'] !== old['provisioner']) errs.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (object['reclaimPolicy'] !== old['reclaimPolicy']) errs.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...immutable('volumeBindingMode', object['volumeBindingMode'], old['volumeBindingMode']));
  return errs;
}

/** The storageclass strategy. */
export function storageClassStrategy(): Strategy {
  return defineStrategy({
    defaults: defaultStorageClass,
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  });
}
