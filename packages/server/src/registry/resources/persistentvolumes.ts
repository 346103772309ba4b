/**
 * PersistentVolumes (pkg/registry/core/persistentvolume; pkg/apis/core/validation ValidatePersistentVolume and
 * ValidatePersistentVolumeUpdate, 1.27): cluster-scoped, status subresource, phase Pending on create,
 * `spec.persistentVolumeReclaimPolicy` defaulted to `Retain`, `spec.volumeMode` to `Filesystem` and the capacity
 * written canonically (SetDefaults_PersistentVolume); known access modes, a positive storage capacity and nothing
 * else, a known reclaim policy (not Recycle for a host path of `/`), valid node affinity, exactly one valid volume
 * source, a valid class and volume mode; the source (but a CSI volume's new expansion secret), the volume mode and a
 * set node affinity are immutable. Warnings for the beta class annotation and deprecated node labels.
 */
import { fieldError, type FieldError, type KubeObject, type Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { validateAccessModes } from './persistentvolumeclaims.js';
import { sameJson, setDefault, specOf } from './object-fields.js';
import { dns1123Subdomain, isSet, obj, objects, oneOf, text, type Json } from './field-checks.js';
import { basicResourceErrors, canonicalizeResourceList, positiveQuantityErrors } from './resource-names.js';
import { persistentVolumeSourceErrors, persistentVolumeSourceFields } from './volume-sources.js';
import { nodeSelectorErrors } from './pod-scheduling.js';
import { nodeSelectorTermWarnings } from './pod-warnings.js';
import { coreMetaErrors } from './core-meta.js';

const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];

/** SetDefaults_PersistentVolume (and the capacity's quantity round trip). */
export function defaultPersistentVolume(object: KubeObject): void {
  const spec = specOf(object);
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
  canonicalizeResourceList(spec['capacity']);
}

/** path.Clean for the host path `/` rule. */
function isRoot(p: string): boolean {
  return p !== '' && p.split('/').every((part) => part === '' || part === '.');
}

/** ValidatePersistentVolumeSpec (not inline) at `spec`. */
function validateSpec(spec: Json, name: string): FieldError[] {
  const errs = validateAccessModes(spec['accessModes'], 'spec.accessModes', '');
  const capacity = obj(spec['capacity']);
  if (Object.keys(capacity).length === 0) errs.push(fieldError.required('spec.capacity'));
  if (capacity['storage'] === undefined || Object.keys(capacity).length > 1) errs.push(fieldError.notSupported('spec.capacity', capacity, ['storage']));
  for (const [resource, value] of Object.entries(capacity)) {
    errs.push(...basicResourceErrors(value, `spec.capacity[${resource}]`), ...positiveQuantityErrors(value, `spec.capacity[${resource}]`));
  }
  if (text(spec['persistentVolumeReclaimPolicy']) !== '') errs.push(...oneOf(spec['persistentVolumeReclaimPolicy'], 'spec.persistentVolumeReclaimPolicy', reclaimPolicies, false));
  const affinity = spec['nodeAffinity'];
  if (isSet(affinity)) {
    const required = obj(affinity)['required'];
    if (isSet(required)) errs.push(...nodeSelectorErrors(obj(required), 'spec.nodeAffinity.required'));
    else errs.push(fieldError.required('spec.nodeAffinity.required', 'must specify required node constraints'));
  }
  errs.push(...persistentVolumeSourceErrors(spec, 'spec', name, isSet(affinity)));
  if (isSet(spec['hostPath']) && isRoot(text(obj(spec['hostPath'])['path'])) && spec['persistentVolumeReclaimPolicy'] === 'Recycle') {
    errs.push(fieldError.forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (text(spec['storageClassName']) !== '') errs.push(...dns1123Subdomain(text(spec['storageClassName']), 'spec.storageClassName'));
  if (isSet(spec['volumeMode'])) errs.push(...oneOf(spec['volumeMode'], 'spec.volumeMode', ['Block', 'Filesystem'], false));
  return errs;
}

function validatePersistentVolume(object: KubeObject, names: Names): FieldError[] {
  return [...coreMetaErrors(object, names), ...validateSpec(obj(object['spec']), object.metadata?.name ?? '')];
}

function sourceOf(spec: Json): Json {
  return Object.fromEntries(persistentVolumeSourceFields.filter((k) => isSet(spec[k])).map((k) => [k, spec[k]]));
}

/** ValidatePersistentVolumeUpdate (1.27). */
function validatePersistentVolumeUpdate(object: KubeObject, old: KubeObject, names: Names): FieldError[] {
  const errs = validatePersistentVolume(object, names);
  const spec = obj(object['spec']);
  const before = obj(old['spec']);
  const source = structuredClone(sourceOf(spec));
  const oldSource = sourceOf(before);
  // A CSI volume may gain a controllerExpandSecretRef.
  const csi = record(source['csi']);
  const oldCsi = record(oldSource['csi']);
  if (csi !== undefined && oldCsi !== undefined && oldCsi['controllerExpandSecretRef'] === undefined) delete csi['controllerExpandSecretRef'];
  if (!sameJson(source, oldSource)) errs.push(fieldError.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  if (!sameJson(spec['volumeMode'], before['volumeMode'])) errs.push(fieldError.invalid('volumeMode', spec['volumeMode'] ?? null, 'field is immutable'));
  if (isSet(before['nodeAffinity']) && !sameJson(spec['nodeAffinity'], before['nodeAffinity'])) {
    errs.push(fieldError.invalid('nodeAffinity', spec['nodeAffinity'] ?? null, 'field is immutable'));
  }
  return errs;
}

/** GetWarningsForPersistentVolume (1.27): the beta class annotation, deprecated node labels in the node affinity. */
function persistentVolumeWarnings(object: KubeObject, names: Names): string[] {
  const key = names.domain('storage-class', 'volume.beta');
  const out = object.metadata?.annotations?.[key] !== undefined ? [`metadata.annotations[${key}]: deprecated since v1.8; use "storageClassName" attribute instead`] : [];
  const terms = objects(obj(obj(obj(object['spec'])['nodeAffinity'])['required'])['nodeSelectorTerms']);
  terms.forEach((term, i) => out.push(...nodeSelectorTermWarnings(names, term, `spec.nodeAffinity.required.nodeSelectorTerms[${i}]`)));
  return out;
}

/** The persistentvolume strategy of a flavour. */
export function persistentVolumeStrategy(names: Names): Strategy {
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    defaults: defaultPersistentVolume,
    prepareForCreate: (object) => {
      object.status = { phase: 'Pending' };
    },
    validate: (object) => validatePersistentVolume(object, names),
    validateUpdate: (object, old) => validatePersistentVolumeUpdate(object, old, names),
    warnings: (object) => persistentVolumeWarnings(object, names),
  });
}
