/**
 * PersistentVolumes (pkg/registry/core/persistentvolume; pkg/apis/core/validation ValidatePersistentVolume and
 * ValidatePersistentVolumeUpdate): cluster-scoped, status subresource, phase Pending on create,
 * `spec.persistentVolumeReclaimPolicy` defaulted to `Retain` and `spec.volumeMode` to `Filesystem`
 * (SetDefaults_PersistentVolume); a positive storage capacity, known access modes, exactly one volume source, a
 * known reclaim policy; the volume source and volume mode are immutable after creation.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';
import { defineStrategy } from '../default-strategy.js';
import type { Strategy } from '../strategy.js';
import { positiveQuantity, validateAccessModes } from './persistentvolumeclaims.js';
import { sameJson, setDefault, specOf } from './pod-spec.js';

const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const volumeModes = ['Block', 'Filesystem'];

/** The fields of a PersistentVolumeSource (one volume type each). */
const volumeSources = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'csi', 'fc', 'flexVolume', 'flocker',
  'gcePersistentDisk', 'glusterfs', 'hostPath', 'iscsi', 'local', 'nfs', 'photonPersistentDisk', 'portworxVolume',
  'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
];

/** SetDefaults_PersistentVolume. */
export function defaultPersistentVolume(object: KubeObject): void {
  const spec = specOf(object);
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
}

function sourceOf(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(volumeSources.filter((k) => spec[k] !== undefined && spec[k] !== null).map((k) => [k, spec[k]]));
}

/** ValidatePersistentVolumeSpec's common checks and the volume source count. */
function validatePersistentVolume(object: KubeObject): FieldError[] {
  const spec = record(object['spec']) ?? {};
  const errs = validateAccessModes(spec['accessModes'], 'spec.accessModes');
  const capacity = record(spec['capacity']) ?? {};
  if (Object.keys(capacity).length === 0) errs.push(fieldError.required('spec.capacity'));
  if (capacity['storage'] === undefined || Object.keys(capacity).length !== 1) {
    errs.push(fieldError.notSupported('spec.capacity', Object.keys(capacity), ['storage']));
  } else {
    errs.push(...positiveQuantity(capacity['storage'], 'spec.capacity[storage]'));
  }
  const policy = spec['persistentVolumeReclaimPolicy'];
  if (policy !== undefined && !reclaimPolicies.includes(String(policy))) errs.push(fieldError.notSupported('spec.persistentVolumeReclaimPolicy', policy, reclaimPolicies));
  const className = spec['storageClassName'];
  if (typeof className === 'string' && className !== '') {
    for (const msg of isDns1123Subdomain(className)) errs.push(fieldError.invalid('spec.storageClassName', className, msg));
  }
  const mode = spec['volumeMode'];
  if (mode !== undefined && !volumeModes.includes(String(mode))) errs.push(fieldError.notSupported('spec.volumeMode', mode, volumeModes));
  const sources = Object.keys(sourceOf(spec));
  if (sources.length === 0) errs.push(fieldError.required('spec', 'must specify a volume type'));
  else if (sources.length > 1) errs.push(fieldError.forbidden(`spec.${sources[1]}`, 'may not specify more than 1 volume type'));
  const hostPath = record(spec['hostPath']);
  if (hostPath !== undefined && (typeof hostPath['path'] !== 'string' || hostPath['path'] === '')) errs.push(fieldError.required('spec.hostPath.path'));
  const nfs = record(spec['nfs']);
  if (nfs !== undefined) {
    if (typeof nfs['server'] !== 'string' || nfs['server'] === '') errs.push(fieldError.required('spec.nfs.server'));
    if (typeof nfs['path'] !== 'string' || nfs['path'] === '') errs.push(fieldError.required('spec.nfs.path'));
    else if (!nfs['path'].startsWith('/')) errs.push(fieldError.invalid('spec.nfs.path', nfs['path'], 'must be an absolute path'));
  }
  const csi = record(spec['csi']);
  if (csi !== undefined) {
    if (typeof csi['driver'] !== 'string' || csi['driver'] === '') errs.push(fieldError.required('spec.csi.driver'));
    if (typeof csi['volumeHandle'] !== 'string' || csi['volumeHandle'] === '') errs.push(fieldError.required('spec.csi.volumeHandle'));
  }
  const local = record(spec['local']);
  if (local !== undefined) {
    if (typeof local['path'] !== 'string' || local['path'] === '') errs.push(fieldError.required('spec.local.path'));
    if (spec['nodeAffinity'] === undefined) errs.push(fieldError.required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  return errs;
}

/** ValidatePersistentVolumeUpdate: the volume source and volume mode are immutable; node affinity is set once. */
function validatePersistentVolumeUpdate(object: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePersistentVolume(object);
  const spec = record(object['spec']) ?? {};
  const before = record(old['spec']) ?? {};
  const source = structuredClone(sourceOf(spec));
  const oldSource = sourceOf(before);
  // A CSI volume may gain a controllerExpandSecretRef.
  const csi = record(source['csi']);
  const oldCsi = record(oldSource['csi']);
  if (csi !== undefined && oldCsi !== undefined && oldCsi['controllerExpandSecretRef'] === undefined) delete csi['controllerExpandSecretRef'];
  if (!sameJson(source, oldSource)) errs.push(fieldError.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  if (!sameJson(spec['volumeMode'], before['volumeMode'])) errs.push(fieldError.invalid('volumeMode', spec['volumeMode'] ?? null, 'field is immutable'));
  if (before['nodeAffinity'] !== undefined && !sameJson(spec['nodeAffinity'], before['nodeAffinity'])) {
    errs.push(fieldError.invalid('nodeAffinity', spec['nodeAffinity'] ?? null, 'field is immutable'));
  }
  return errs;
}

/** The persistentvolume strategy. */
export function persistentVolumeStrategy(): Strategy {
  return defineStrategy({
    hasStatus: true,
    returnDeletedObject: true,
    prepareForCreate: (object) => {
      defaultPersistentVolume(object);
      object.status = { phase: 'Pending' };
    },
    prepareForUpdate: defaultPersistentVolume,
    validate: validatePersistentVolume,
    validateUpdate: validatePersistentVolumeUpdate,
  });
}
