/**
 * PersistentVolumeClaims (pkg/registry/core/persistentvolumeclaim; pkg/apis/core/validation
 * ValidatePersistentVolumeClaim and ValidatePersistentVolumeClaimUpdate): status subresource, phase Pending on
 * create, `spec.volumeMode` defaulted to `Filesystem` (SetDefaults_PersistentVolumeClaimSpec); at least one known
 * access mode (ReadWriteOncePod alone), a positive storage request, a valid class name; after creation the spec is
 * immutable except `volumeName` (set once) and, on a bound claim, the storage request, which may only grow.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { sameJson, setDefault, specOf, validateLabelSelector } from './pod-spec.js';
import { quantityValue } from './quantity.js';
import { dropDisabledClaimFields } from './dropped-fields.js';

type Json = Record<string, unknown>;

/** The access modes kube accepts, in its sorted order. */
export const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const volumeModes = ['Block', 'Filesystem'];

/** SetDefaults_PersistentVolumeClaim. */
export function defaultPersistentVolumeClaim(object: KubeObject): void {
  setDefault(specOf(object), 'volumeMode', 'Filesystem');
}

/** The access mode checks shared by claims and volumes (ValidatePersistentVolumeClaimSpec, ValidatePersistentVolumeSpec). */
export function validateAccessModes(modes: unknown, path: string): FieldError[] {
  const list = Array.isArray(modes) ? modes : [];
  if (list.length === 0) return [fieldError.required(path, 'at least 1 access mode is required')];
  const errs: FieldError[] = [];
  let once = false;
  let other = false;
  for (const mode of list) {
    if (!accessModes.includes(String(mode))) errs.push(fieldError.notSupported(path, mode, accessModes));
    if (mode === 'ReadWriteOncePod') once = true;
    else if (accessModes.includes(String(mode))) other = true;
  }
  if (once && other) errs.push(fieldError.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** ValidatePositiveQuantityValue at `path`. */
export function positiveQuantity(value: unknown, path: string): FieldError[] {
  const v = quantityValue(value);
  return v !== undefined && v > 0 ? [] : [fieldError.invalid(path, value, 'must be greater than zero')];
}

/** ValidatePersistentVolumeClaimSpec at `path`. */
export function validateClaimSpec(spec: Json, path: string): FieldError[] {
  const errs = validateAccessModes(spec['accessModes'], `${path}.accessModes`);
  if (spec['selector'] !== undefined && spec['selector'] !== null) errs.push(...validateLabelSelector(spec['selector'], `${path}.selector`));
  const requests = record(record(spec['resources'])?.['requests']) ?? {};
  if (requests['storage'] === undefined) errs.push(fieldError.required(`${path}.resources[storage]`));
  else errs.push(...positiveQuantity(requests['storage'], `${path}.resources[storage]`));
  const className = spec['storageClassName'];
  if (typeof className === 'string' && className !== '') {
    for (const msg of isDns1123Subdomain(className)) errs.push(fieldError.invalid(`${path}.storageClassName`, className, msg));
  }
  const mode = spec['volumeMode'];
  if (mode !== undefined && mode !== null && !volumeModes.includes(String(mode))) errs.push(fieldError.notSupported(`${path}.volumeMode`, mode, volumeModes));
  return errs;
}

function validateClaim(object: KubeObject): FieldError[] {
  return validateClaimSpec(record(object['spec']) ?? {}, 'spec');
}

function storageOf(spec: Json): unknown {
  return record(record(spec['resources'])?.['requests'])?.['storage'];
}

/** ValidatePersistentVolumeClaimUpdate. */
function validateClaimUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateClaim(object);
  const spec = structuredClone(record(object['spec']) ?? {});
  const before = structuredClone(record(old['spec']) ?? {});
  // The volume binder sets volumeName once.
  const oldVolume = before['volumeName'];
  if (typeof oldVolume !== 'string' || oldVolume === '') {
    if (spec['volumeName'] === undefined) delete before['volumeName'];
    else before['volumeName'] = spec['volumeName'];
  }
  // A claim without a class may get one once (the default class admission does the same).
  const oldClass = before['storageClassName'];
  const newClass = spec['storageClassName'];
  if ((typeof oldClass !== 'string' || oldClass === '') && typeof newClass === 'string' && newClass !== '') {
    delete spec['storageClassName'];
    delete before['storageClassName'];
  }
  const bound = record(object.status)?.['phase'] === 'Bound';
  const requests = record(record(spec['resources'])?.['requests']);
  if (bound && requests !== undefined) {
    const oldStorage = storageOf(before);
    if (oldStorage === undefined) delete requests['storage'];
    else requests['storage'] = oldStorage;
  }
  if (!sameJson(spec, before)) errs.push(fieldError.forbidden('spec', 'spec is immutable after creation except resources.requests for bound claims'));
  const newSize = quantityValue(storageOf(record(object['spec']) ?? {})) ?? 0;
  const oldSize = quantityValue(storageOf(record(old['spec']) ?? {})) ?? 0;
  if (newSize < oldSize) errs.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  const mode = record(object['spec'])?.['volumeMode'];
  const oldMode = record(old['spec'])?.['volumeMode'];
  if (!sameJson(mode, oldMode)) errs.push(fieldError.invalid('volumeMode', mode ?? null, 'field is immutable'));
  return errs;
}

/** The persistentvolumeclaim strategy. */
export function persistentVolumeClaimStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate: (object) => {
      dropDisabledClaimFields(specOf(object), undefined);
      defaultPersistentVolumeClaim(object);
      object.status = { phase: 'Pending' };
    },
    prepareForUpdate: (object, old) => {
      dropDisabledClaimFields(specOf(object), record(old['spec']));
      defaultPersistentVolumeClaim(object);
    },
    validate: validateClaim,
    validateUpdate: validateClaimUpdate,
  });
}
