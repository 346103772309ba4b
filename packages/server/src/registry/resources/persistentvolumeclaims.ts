/**
 * PersistentVolumeClaims (pkg/registry/core/persistentvolumeclaim; pkg/apis/core/validation
 * ValidatePersistentVolumeClaim, its update and status update, 1.27): status subresource, phase Pending on create,
 * `spec.volumeMode` defaulted to `Filesystem` and quantities written canonically; `dataSource` and `dataSourceRef`
 * mirror each other (AnyVolumeDataSource, on in 1.27); at least one known access mode (ReadWriteOncePod alone), a
 * positive storage request, a valid selector, class and data sources; after creation the spec is immutable except
 * `volumeName` (set once), a class set where none was (RetroactiveDefaultStorageClass), and on a bound claim the
 * storage request, which may only grow. Warnings for the beta class annotation and fractional byte values.
 */
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { parseQuantity, compareQuantities, milliValue, formatQuantity } from '../../meta/quantity.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy, genericStatusStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { validateAnnotations, validateLabels } from '../../meta/object-meta-validation.js';
import { dns1123Label, dns1123Subdomain, isSet, list, obj, oneOf, text, type Json } from './field-checks.js';
import { hasInvalidLabelValue, validateLabelSelector } from './label-checks.js';
import { basicResourceErrors, canonicalizeResourceList, positiveQuantityErrors, resourceQuantityErrors } from './resource-names.js';
import { sameJson, setDefault, specOf } from './object-fields.js';
import { dropDisabledClaimFields, dropDisabledClaimStatusFields } from './dropped-fields.js';
import { coreMetaErrors } from './core-meta.js';

/** The access modes kube accepts, in its sorted order. */
export const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const volumeModes = ['Block', 'Filesystem'];

/** SetDefaults_PersistentVolumeClaimSpec and the quantity round trip (claims and claim templates). */
export function defaultClaimSpec(spec: Json): void {
  setDefault(spec, 'volumeMode', 'Filesystem');
  const resources = record(spec['resources']);
  canonicalizeResourceList(resources?.['requests']);
  canonicalizeResourceList(resources?.['limits']);
}

/** SetDefaults_PersistentVolumeClaim's spec part on a claim (a StatefulSet's claim templates take it too). */
export function defaultPersistentVolumeClaim(object: KubeObject): void {
  defaultClaimSpec(specOf(object));
}

/**
 * NormalizeDataSources (only with AnyVolumeDataSource, on by default in 1.27): a lone `dataSource` is copied to `dataSourceRef`, a lone
 * `dataSourceRef` without a namespace to `dataSource`.
 */
function normalizeDataSources(spec: Json): void {
  const source = record(spec['dataSource']);
  const ref = record(spec['dataSourceRef']);
  const pick = (from: Json): Json => Object.fromEntries(['apiGroup', 'kind', 'name'].filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));
  if (source !== undefined && ref === undefined) spec['dataSourceRef'] = pick(source);
  else if (ref !== undefined && source === undefined && text(ref['namespace']) === '') spec['dataSource'] = pick(ref);
}

/** The access mode checks shared by claims and volumes; `required` is the message of an empty list. */
export function validateAccessModes(modes: unknown, path: string, required = 'at least 1 access mode is required'): FieldError[] {
  const all = list(modes);
  const errs = all.length === 0 ? [fieldError.required(path, required)] : [];
  let once = false;
  let other = false;
  for (const mode of all) {
    if (!accessModes.includes(text(mode))) errs.push(fieldError.notSupported(path, mode, accessModes));
    if (mode === 'ReadWriteOncePod') once = true;
    else if (accessModes.includes(text(mode))) other = true;
  }
  if (once && other) errs.push(fieldError.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** validateDataSource / validateDataSourceRef. */
function dataSourceErrors(source: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (text(source['name']) === '') errs.push(fieldError.required(`${path}.name`));
  if (text(source['kind']) === '') errs.push(fieldError.required(`${path}.kind`));
  const group = text(source['apiGroup']);
  if (group === '' && source['kind'] !== 'PersistentVolumeClaim') errs.push(fieldError.invalid(path, text(source['kind']), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group !== '') errs.push(...dns1123Subdomain(group, `${path}.apiGroup`));
  const ns = text(source['namespace']);
  if (ns !== '') errs.push(...dns1123Label(ns, `${path}.namespace`));
  return errs;
}

/** What a claim spec's check relaxes for an object already stored with it. */
export interface ClaimSpecOptions {
  readonly allowInvalidLabelValueInSelector: boolean;
}

/** ValidatePersistentVolumeClaimSpec at `path`. */
export function validateClaimSpec(spec: Json, path: string, options: ClaimSpecOptions): FieldError[] {
  const errs = validateAccessModes(spec['accessModes'], `${path}.accessModes`);
  errs.push(...validateLabelSelector(spec['selector'], `${path}.selector`, options));
  const storage = obj(obj(spec['resources'])['requests'])['storage'];
  const at = `${path}.resources[storage]`;
  if (storage === undefined) errs.push(fieldError.required(at));
  else {
    const positive = positiveQuantityErrors(storage, at);
    errs.push(...(positive.length > 0 ? positive : resourceQuantityErrors('storage', storage, at)));
  }
  if (text(spec['storageClassName']) !== '') errs.push(...dns1123Subdomain(text(spec['storageClassName']), `${path}.storageClassName`));
  if (isSet(spec['volumeMode'])) errs.push(...oneOf(spec['volumeMode'], `${path}.volumeMode`, volumeModes, true).filter((e) => e.type !== 'FieldValueRequired'));
  if (isSet(spec['dataSource'])) errs.push(...dataSourceErrors(obj(spec['dataSource']), `${path}.dataSource`));
  if (isSet(spec['dataSourceRef'])) errs.push(...dataSourceErrors(obj(spec['dataSourceRef']), `${path}.dataSourceRef`));
  const source = record(spec['dataSource']);
  const ref = record(spec['dataSourceRef']);
  if (ref !== undefined && text(ref['namespace']) !== '') {
    if (source !== undefined) errs.push(fieldError.invalid(path, `${path}.dataSource`, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (source !== undefined && ref !== undefined) {
    if (source['apiGroup'] !== ref['apiGroup'] || source['kind'] !== ref['kind'] || source['name'] !== ref['name']) {
      errs.push(fieldError.invalid(path, `${path}.dataSource`, 'must match dataSourceRef'));
    }
  }
  return errs;
}

/** The metadata fields a claim template may set (ValidateTemplateObjectMeta's allow list). */
const templateMetaFields: Readonly<Record<string, string>> = {
  name: 'name', generateName: 'generateName', namespace: 'namespace', selfLink: 'selfLink', uid: 'uID',
  resourceVersion: 'resourceVersion', generation: 'generation', creationTimestamp: 'creationTimestamp',
  deletionTimestamp: 'deletionTimestamp', deletionGracePeriodSeconds: 'deletionGracePeriodSeconds',
  ownerReferences: 'ownerReferences', finalizers: 'finalizers', managedFields: 'managedFields',
};

/** ValidateTemplateObjectMeta: labels and annotations only (Go's field names give `uID` for the uid). */
export function validateTemplateObjectMeta(meta: Json, path: string): FieldError[] {
  const errs = [
    ...validateAnnotations(meta['annotations'] as Record<string, string> | undefined, `${path}.annotations`),
    ...validateLabels(meta['labels'] as Record<string, string> | undefined, `${path}.labels`),
  ];
  for (const [field, goName] of Object.entries(templateMetaFields)) {
    const v = meta[field];
    if (v !== undefined && v !== null && v !== '' && v !== 0 && !(Array.isArray(v) && v.length === 0)) errs.push(fieldError.forbidden(`${path}.${goName}`, 'cannot be set'));
  }
  return errs;
}

function storageOf(spec: Json): unknown {
  return obj(obj(spec['resources'])['requests'])['storage'];
}

/** The beta storage class annotation in a flavour. */
function classAnnotation(names: Names): string {
  return names.domain('storage-class', 'volume.beta');
}

/** ValidatePersistentVolumeClaimUpdate (1.27). */
function validateClaimUpdate(object: KubeObject, old: KubeObject, names: Names, gates: FeatureGates): FieldError[] {
  const oldSpecRaw = obj(old['spec']);
  const errs = validateClaim(object, { allowInvalidLabelValueInSelector: hasInvalidLabelValue(oldSpecRaw['selector']) }, names);
  const spec = structuredClone(obj(object['spec']));
  const before = structuredClone(oldSpecRaw);
  if (text(before['volumeName']) === '') {
    if (spec['volumeName'] === undefined) delete before['volumeName'];
    else before['volumeName'] = spec['volumeName'];
  }
  const key = classAnnotation(names);
  const annotations = object.metadata?.annotations ?? {};
  const oldAnnotations = old.metadata?.annotations ?? {};
  const oldClass = before['storageClassName'];
  const newClass = spec['storageClassName'];
  const fromAnnotation = oldAnnotations[key] !== undefined && oldClass === undefined && typeof newClass === 'string' && newClass === oldAnnotations[key] &&
    (annotations[key] === undefined || annotations[key] === oldAnnotations[key]);
  if (fromAnnotation) delete spec['storageClassName'];
  else {
    if ((annotations[key] ?? '') !== (oldAnnotations[key] ?? '')) errs.push(fieldError.invalid(`metadata.annotations.${key}`, annotations[key] ?? '', 'field is immutable'));
    // RetroactiveDefaultStorageClass (on by default in 1.27): a class may be set on a claim that had none.
    if (gates.RetroactiveDefaultStorageClass && typeof newClass === 'string' && oldClass === undefined && (oldAnnotations[key] === undefined || newClass === oldAnnotations[key])) delete spec['storageClassName'];
  }
  const requests = record(obj(spec['resources'])['requests']);
  if (record(object.status)?.['phase'] === 'Bound' && requests !== undefined) {
    const oldStorage = storageOf(before);
    if (oldStorage === undefined) delete requests['storage'];
    else requests['storage'] = oldStorage;
  }
  if (!sameJson(spec, before)) errs.push(fieldError.forbidden('spec', 'spec is immutable after creation except resources.requests for bound claims'));
  const newSize = parseQuantity(storageOf(obj(object['spec'])) ?? 0);
  const oldSize = parseQuantity(storageOf(oldSpecRaw) ?? 0);
  if (newSize !== undefined && oldSize !== undefined && compareQuantities(newSize, oldSize) < 0) {
    errs.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  const mode = obj(object['spec'])['volumeMode'];
  if (!sameJson(mode, oldSpecRaw['volumeMode'])) errs.push(fieldError.invalid('volumeMode', mode ?? null, 'field is immutable'));
  return errs;
}

function validateClaim(object: KubeObject, options: ClaimSpecOptions, names: Names): FieldError[] {
  return [...coreMetaErrors(object, names), ...validateClaimSpec(obj(object['spec']), 'spec', options)];
}

/** GetWarningsForPersistentVolumeClaimSpec: fractional byte storage values. */
export function claimSpecWarnings(spec: Json, path: string): string[] {
  const out: string[] = [];
  for (const kind of ['requests', 'limits']) {
    const q = parseQuantity(obj(obj(spec['resources'])[kind])['storage'] ?? 0);
    if (q !== undefined && milliValue(q) % 1000n !== 0n) out.push(`${path}.resources.${kind}[storage]: fractional byte value ${JSON.stringify(formatQuantity(q))} is invalid, must be an integer`);
  }
  return out;
}

/** GetWarningsForPersistentVolumeClaim. */
function claimWarnings(object: KubeObject, names: Names): string[] {
  const key = classAnnotation(names);
  const out = object.metadata?.annotations?.[key] !== undefined ? [`metadata.annotations[${key}]: deprecated since v1.8; use "storageClassName" attribute instead`] : [];
  return [...out, ...claimSpecWarnings(obj(object['spec']), 'spec')];
}

/** ValidatePersistentVolumeClaimStatusUpdate: access modes kept, capacities valid. */
function validateClaimStatus(object: KubeObject): FieldError[] {
  const errs = list(obj(object['spec'])['accessModes']).length === 0 ? [fieldError.required('Spec.accessModes')] : [];
  for (const [name, value] of Object.entries(obj(obj(object.status)['capacity']))) errs.push(...basicResourceErrors(value, `status.capacity[${name}]`));
  return errs;
}

/** The persistentvolumeclaim strategy of a flavour. */
export function persistentVolumeClaimStrategy(names: Names, gates: FeatureGates = defaultFeatureGates): Strategy {
  const prepare = (object: KubeObject, old?: KubeObject): void => {
    const spec = specOf(object);
    dropDisabledClaimFields(spec, record(old?.['spec']), gates);
    if (old === undefined && gates.AnyVolumeDataSource) normalizeDataSources(spec);
  };
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    defaults: defaultPersistentVolumeClaim,
    prepareForCreate: (object) => {
      prepare(object);
      object.status = { phase: 'Pending' };
    },
    prepareForUpdate: prepare,
    validate: (object) => validateClaim(object, { allowInvalidLabelValueInSelector: false }, names),
    validateUpdate: (object, old) => validateClaimUpdate(object, old, names, gates),
    warnings: (object) => claimWarnings(object, names),
    status: {
      prepareForUpdate(object, old) {
        genericStatusStrategy.prepareForUpdate(object, old);
        const status = record(object.status);
        if (status !== undefined) {
          dropDisabledClaimStatusFields(status, record(old.status), gates);
          canonicalizeResourceList(status['capacity']);
        }
      },
      validateUpdate: (object) => validateClaimStatus(object),
    },
  });
}
