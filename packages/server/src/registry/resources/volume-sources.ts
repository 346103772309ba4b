/**
 * Volume sources as kube-apiserver 1.27 validates them (pkg/apis/core/validation validateVolumeSource and
 * ValidatePersistentVolumeSpec's source part): exactly one source, checked in kube's order (a second one is
 * Forbidden at its own field), and each source's own rules, with kube's field paths even where they differ from the
 * JSON names (a GCE disk's errors under `persistentDisk`, CephFS's second source as `cephFS`, a second downward API
 * source as `downwarAPI`).
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isDns1123Subdomain } from '../../meta/name-rules.js';
import { dns1123Label, dns1123Subdomain, inclusiveRange, isSet, list, num, obj, objects, text, type Json } from './field-checks.js';
import { quantityAt } from './resource-names.js';
import { downwardApiFileErrors, fileModeErrors, keyToPathErrors, localDescendingPath, localNonReservedPath, noBacksteps } from './volume-paths.js';
import { validateClaimSpec, validateTemplateObjectMeta } from './persistentvolumeclaims.js';

type SourceCheck = (source: Json, path: string, at: string) => FieldError[];

const pdPartitionMessage = inclusiveRange(1, 255);
const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

function required(source: Json, key: string, path: string, detail = ''): FieldError[] {
  return text(source[key]) === '' ? [fieldError.required(`${path}.${key}`, detail)] : [];
}

function hostPath(source: Json, path: string): FieldError[] {
  const p = text(source['path']);
  if (p === '') return [fieldError.required(`${path}.path`)];
  const errs = noBacksteps(p, `${path}.path`);
  const type = source['type'];
  if (typeof type === 'string' && !hostPathTypes.includes(type)) errs.push(fieldError.notSupported(`${path}.type`, type, hostPathTypes));
  return errs;
}

function partition(source: Json, path: string): FieldError[] {
  const p = num(source['partition']);
  return p < 0 || p > 255 ? [fieldError.invalid(`${path}.partition`, p, pdPartitionMessage)] : [];
}

const iqnPattern = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\s]+)$/;
const euiPattern = /^eui.[A-Za-z0-9]{16}$/;
const naaPattern = /^naa.[A-Za-z0-9]{32}$/;

/** The IQN format check of iSCSI names; `prefixMessage` words a name of no known kind. */
function iqnErrors(value: string, path: string, prefixMessage: string): FieldError[] {
  if (!value.startsWith('iqn') && !value.startsWith('eui') && !value.startsWith('naa')) return [fieldError.invalid(path, value, prefixMessage)];
  const pattern = value.startsWith('iqn') ? iqnPattern : value.startsWith('eui') ? euiPattern : naaPattern;
  return pattern.test(value) ? [] : [fieldError.invalid(path, value, 'must be valid format')];
}

/** validateISCSIVolumeSource and its persistent volume form (`pv`: the volume's name, for the length rule). */
function iscsi(source: Json, path: string, pv: { name: string } | undefined): FieldError[] {
  const errs = required(source, 'targetPortal', path);
  const initiator = source['initiatorName'];
  if (pv !== undefined && isSet(initiator) && `${pv.name}:${text(source['targetPortal'])}`.length > 64) {
    errs.push(fieldError.invalid(`${path}.targetportal`, text(source['targetPortal']), 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
  }
  const iqn = text(source['iqn']);
  if (iqn === '') errs.push(fieldError.required(`${path}.iqn`));
  else errs.push(...iqnErrors(iqn, `${path}.iqn`, pv === undefined ? 'must be valid format starting with iqn, eui, or naa' : 'must be valid format'));
  const lun = num(source['lun']);
  if (lun < 0 || lun > 255) errs.push(fieldError.invalid(`${path}.lun`, lun, inclusiveRange(0, 255)));
  if ((source['chapAuthDiscovery'] === true || source['chapAuthSession'] === true) && !isSet(source['secretRef'])) errs.push(fieldError.required(`${path}.secretRef`));
  if (pv !== undefined && isSet(source['secretRef']) && text(obj(source['secretRef'])['name']) === '') errs.push(fieldError.required(`${path}.secretRef.name`));
  if (isSet(initiator)) {
    const name = text(initiator);
    const at = `${path}.initiatorname`;
    if (!name.startsWith('iqn') && !name.startsWith('eui') && !name.startsWith('naa')) {
      errs.push(fieldError.invalid(at, name, pv === undefined ? 'must be valid format starting with iqn, eui, or naa' : 'must be valid format'));
    } else errs.push(...iqnErrors(name, at, ''));
  }
  return errs;
}

function fc(source: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = list(source['targetWWNs']);
  const wwids = list(source['wwids']);
  if (wwns.length < 1 && wwids.length < 1) errs.push(fieldError.required(`${path}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) errs.push(fieldError.invalid(`${path}.targetWWNs`, wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    if (!isSet(source['lun'])) errs.push(fieldError.required(`${path}.lun`, 'lun is required if targetWWNs is specified'));
    else if (num(source['lun']) < 0 || num(source['lun']) > 255) errs.push(fieldError.invalid(`${path}.lun`, source['lun'], inclusiveRange(0, 255)));
  }
  return errs;
}

function flocker(source: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = text(source['datasetName']);
  const uuid = text(source['datasetUUID']);
  if (name === '' && uuid === '') errs.push(fieldError.required(path, 'one of datasetName and datasetUUID is required'));
  if (name !== '' && uuid !== '') errs.push(fieldError.invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(fieldError.invalid(`${path}.datasetName`, name, "must not contain '/'"));
  return errs;
}

/** net.SplitHostPort's acceptance of `host:port`. */
function isHostPort(value: string): boolean {
  if (value.startsWith('[')) return /^\[[^\]]*\]:[^:]*$/.test(value);
  return (value.match(/:/g) ?? []).length === 1;
}

function quobyte(source: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const registry = text(source['registry']);
  const message = 'must be a host:port pair or multiple pairs separated by commas';
  if (registry === '') errs.push(fieldError.required(`${path}.registry`, message));
  else if (text(source['tenant']).length >= 65) errs.push(fieldError.required(`${path}.tenant`, 'must be a UUID and may not exceed a length of 64 characters'));
  else for (const pair of registry.split(',')) if (!isHostPort(pair)) errs.push(fieldError.invalid(`${path}.registry`, registry, message));
  return [...errs, ...required(source, 'volume', path)];
}

function nfs(source: Json, path: string): FieldError[] {
  const errs = [...required(source, 'server', path), ...required(source, 'path', path)];
  if (!text(source['path']).startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, text(source['path']), 'must be an absolute path'));
  return errs;
}

function flex(source: Json, path: string): FieldError[] {
  const errs = required(source, 'driver', path);
  for (const key of Object.keys(obj(source['options']))) {
    const domain = `.${(key.includes('/') ? key.slice(0, key.indexOf('/')) : key).toLowerCase()}`;
    if (domain.endsWith('.kubernetes.io') || domain.endsWith('.k8s.io')) {
      errs.push(fieldError.invalid(`${path}.options[${key}]`, key, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
  }
  return errs;
}

const cachingModes = ['None', 'ReadOnly', 'ReadWrite'];
const diskKinds = ['Dedicated', 'Managed', 'Shared'];

function azureDisk(source: Json, path: string): FieldError[] {
  const errs = [...required(source, 'diskName', path), ...required(source, 'diskURI', path)];
  const caching = source['cachingMode'];
  if (typeof caching === 'string' && !cachingModes.includes(caching)) errs.push(fieldError.notSupported(`${path}.cachingMode`, caching, cachingModes));
  const kind = source['kind'];
  if (typeof kind === 'string' && !diskKinds.includes(kind)) errs.push(fieldError.notSupported(`${path}.kind`, kind, diskKinds));
  const uri = text(source['diskURI']);
  if (kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
    errs.push(fieldError.notSupported(`${path}.diskURI`, uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  }
  if (typeof kind === 'string' && kind !== 'Managed' && !uri.startsWith('https://')) {
    errs.push(fieldError.notSupported(`${path}.diskURI`, uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  }
  return errs;
}

/** storageos and its persistent volume form, whose secret reference also needs a namespace. */
function storageos(source: Json, path: string, pv: boolean): FieldError[] {
  const name = text(source['volumeName']);
  const errs = name === '' ? [fieldError.required(`${path}.volumeName`)] : dns1123Label(name, `${path}.volumeName`);
  const ns = text(source['volumeNamespace']);
  if (ns !== '') errs.push(...dns1123Label(ns, `${path}.volumeNamespace`));
  if (isSet(source['secretRef'])) {
    const ref = obj(source['secretRef']);
    if (text(ref['name']) === '') errs.push(fieldError.required(`${path}.secretRef.name`));
    if (pv && text(ref['namespace']) === '') errs.push(fieldError.required(`${path}.secretRef.namespace`));
  }
  return errs;
}

/** ValidateCSIDriverName. */
export function csiDriverNameErrors(driver: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (driver === '') errs.push(fieldError.required(path));
  if (driver.length > 63) errs.push(fieldError.tooLong(path, 63));
  for (const msg of isDns1123Subdomain(driver.toLowerCase())) errs.push(fieldError.invalid(path, driver, msg));
  return errs;
}

function csi(source: Json, path: string): FieldError[] {
  const errs = csiDriverNameErrors(text(source['driver']), `${path}.driver`);
  if (isSet(source['nodePublishSecretRef'])) {
    const name = text(obj(source['nodePublishSecretRef'])['name']);
    if (name === '') errs.push(fieldError.required(`${path}.nodePublishSecretRef.name`));
    else for (const msg of isDns1123Subdomain(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
  }
  return errs;
}

function secret(source: Json, path: string): FieldError[] {
  const errs = [...required(source, 'secretName', path), ...fileModeErrors(source['defaultMode'], `${path}.defaultMode`)];
  objects(source['items']).forEach((item, i) => errs.push(...keyToPathErrors(item, `${path}.items[${i}]`)));
  return errs;
}

function configMap(source: Json, path: string): FieldError[] {
  const errs = [...required(source, 'name', path), ...fileModeErrors(source['defaultMode'], `${path}.defaultMode`)];
  objects(source['items']).forEach((item, i) => errs.push(...keyToPathErrors(item, `${path}.items[${i}]`)));
  return errs;
}

function downwardApi(source: Json, path: string): FieldError[] {
  const errs = fileModeErrors(source['defaultMode'], `${path}.defaultMode`);
  for (const file of objects(source['items'])) errs.push(...downwardApiFileErrors(file, path));
  return errs;
}

/** validateProjectionSources with the projected volume's default mode. */
function projected(source: Json, path: string): FieldError[] {
  const errs = fileModeErrors(source['defaultMode'], `${path}.defaultMode`);
  const paths = new Set<string>();
  const claim = (p: string, bad: unknown): void => {
    if (paths.has(p)) errs.push(fieldError.invalid(path, bad, 'conflicting duplicate paths'));
    else paths.add(p);
  };
  objects(source['sources']).forEach((projection, i) => {
    const at = `${path}.sources[${i}]`;
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      if (!isSet(projection[kind])) continue;
      count++;
      const s = obj(projection[kind]);
      if (text(s['name']) === '') errs.push(fieldError.required(`${at}.${kind}.name`));
      objects(s['items']).forEach((item, j) => {
        errs.push(...keyToPathErrors(item, `${at}.${kind}.items[${j}]`));
        if (text(item['path']) !== '') claim(text(item['path']), text(s['name']));
      });
    }
    if (isSet(projection['downwardAPI'])) {
      count++;
      for (const file of objects(obj(projection['downwardAPI'])['items'])) {
        errs.push(...downwardApiFileErrors(file, `${at}.downwardAPI`));
        if (text(file['path']) !== '') claim(text(file['path']), text(file['path']));
      }
    }
    if (isSet(projection['serviceAccountToken'])) {
      count++;
      const token = obj(projection['serviceAccountToken']);
      const seconds = num(token['expirationSeconds']);
      if (seconds < 600) errs.push(fieldError.invalid(`${at}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(fieldError.invalid(`${at}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
      // kube reports the token's path at the projected volume's `path`.
      if (text(token['path']) === '') errs.push(fieldError.required(`${path}.path`));
      else errs.push(...localNonReservedPath(text(token['path']), `${path}.path`));
    }
    if (count > 1) errs.push(fieldError.forbidden(at, 'may not specify more than 1 volume type'));
  });
  return errs;
}

function ephemeral(source: Json, path: string): FieldError[] {
  if (!isSet(source['volumeClaimTemplate'])) return [fieldError.required(`${path}.volumeClaimTemplate`)];
  const template = obj(source['volumeClaimTemplate']);
  const at = `${path}.volumeClaimTemplate`;
  return [...validateTemplateObjectMeta(obj(template['metadata']), `${at}.metadata`), ...validateClaimSpec(obj(template['spec']), `${at}.spec`, { allowInvalidLabelValueInSelector: false })];
}

function emptyDir(source: Json, path: string): FieldError[] {
  if (!isSet(source['sizeLimit'])) return [];
  const { q, errs } = quantityAt(source['sizeLimit'], `${path}.sizeLimit`);
  if (q !== undefined && q.nano < 0n) return [fieldError.forbidden(`${path}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')];
  return errs;
}

const podSources: readonly [json: string, forbiddenAs: string, checkAs: string, check: SourceCheck][] = [
  ['emptyDir', 'emptyDir', 'emptyDir', emptyDir],
  ['hostPath', 'hostPath', 'hostPath', hostPath],
  ['gitRepo', 'gitRepo', 'gitRepo', (s, p) => [...required(s, 'repository', p), ...localDescendingPath(text(s['directory']), `${p}.directory`)]],
  ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk', (s, p) => [...required(s, 'pdName', p), ...partition(s, p)]],
  ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => [...required(s, 'volumeID', p), ...partition(s, p)]],
  ['secret', 'secret', 'secret', secret],
  ['nfs', 'nfs', 'nfs', nfs],
  ['iscsi', 'iscsi', 'iscsi', (s, p) => iscsi(s, p, undefined)],
  ['glusterfs', 'glusterfs', 'glusterfs', (s, p) => [...required(s, 'endpoints', p), ...required(s, 'path', p)]],
  ['flocker', 'flocker', 'flocker', flocker],
  ['persistentVolumeClaim', 'persistentVolumeClaim', 'persistentVolumeClaim', (s, p) => required(s, 'claimName', p)],
  ['rbd', 'rbd', 'rbd', (s, p) => [...(list(s['monitors']).length === 0 ? [fieldError.required(`${p}.monitors`)] : []), ...required(s, 'image', p)]],
  ['cinder', 'cinder', 'cinder', (s, p) => [...required(s, 'volumeID', p), ...(isSet(s['secretRef']) ? required(obj(s['secretRef']), 'name', `${p}.secretRef`) : [])]],
  ['cephfs', 'cephFS', 'cephfs', (s, p) => (list(s['monitors']).length === 0 ? [fieldError.required(`${p}.monitors`)] : [])],
  ['quobyte', 'quobyte', 'quobyte', quobyte],
  ['downwardAPI', 'downwarAPI', 'downwardAPI', downwardApi],
  ['fc', 'fc', 'fc', fc],
  ['flexVolume', 'flexVolume', 'flexVolume', flex],
  ['configMap', 'configMap', 'configMap', configMap],
  ['azureFile', 'azureFile', 'azureFile', (s, p) => [...required(s, 'secretName', p), ...required(s, 'shareName', p)]],
  ['vsphereVolume', 'vsphereVolume', 'vsphereVolume', (s, p) => required(s, 'volumePath', p)],
  ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk', (s, p) => required(s, 'pdID', p)],
  ['portworxVolume', 'portworxVolume', 'portworxVolume', (s, p) => required(s, 'volumeID', p)],
  ['azureDisk', 'azureDisk', 'azureDisk', azureDisk],
  ['storageos', 'storageos', 'storageos', (s, p) => storageos(s, p, false)],
  ['projected', 'projected', 'projected', projected],
  ['scaleIO', 'scaleIO', 'scaleIO', (s, p) => [...required(s, 'gateway', p), ...required(s, 'system', p), ...required(s, 'volumeName', p)]],
  ['csi', 'csi', 'csi', csi],
  ['ephemeral', 'ephemeral', 'ephemeral', ephemeral],
];

/** The JSON names of a Volume's sources. */
export const podVolumeSourceFields: readonly string[] = podSources.map(([json]) => json);

/**
 * validateVolumeSource for the volume at `path` (`volumes[i]`); `podName` is the pod's name when the spec is a
 * pod's (ephemeral volumes name the claim they create after it).
 */
export function podVolumeSourceErrors(volume: Json, path: string, podName: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [json, forbiddenAs, checkAs, check] of podSources) {
    if (!isSet(volume[json])) continue;
    if (count > 0) {
      errs.push(fieldError.forbidden(`${path}.${forbiddenAs}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...check(obj(volume[json]), `${path}.${checkAs}`, path));
    if (json === 'iscsi' && isSet(obj(volume[json])['initiatorName']) && `${text(volume['name'])}:${text(obj(volume[json])['targetPortal'])}`.length > 64) {
      errs.push(fieldError.invalid(`${path}.name`, text(volume['name']), 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
    }
    if (json === 'ephemeral' && podName !== undefined && podName !== '' && text(volume['name']) !== '') {
      const claimName = `${podName}-${text(volume['name'])}`;
      for (const msg of isDns1123Subdomain(claimName)) errs.push(fieldError.invalid(`${path}.name`, text(volume['name']), `PVC name "${claimName}": ${msg}`));
    }
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a volume type'));
  return errs;
}

/** validatePVSecretReference. */
function pvSecretReference(ref: Json, path: string): FieldError[] {
  const name = text(ref['name']);
  const ns = text(ref['namespace']);
  return [
    ...(name === '' ? [fieldError.required(`${path}.name`)] : dns1123Subdomain(name, `${path}.name`)),
    ...(ns === '' ? [fieldError.required(`${path}.namespace`)] : dns1123Label(ns, `${path}.namespace`)),
  ];
}

function pvCsi(source: Json, path: string): FieldError[] {
  const errs = [...csiDriverNameErrors(text(source['driver']), `${path}.driver`), ...required(source, 'volumeHandle', path)];
  for (const ref of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    if (isSet(source[ref])) errs.push(...pvSecretReference(obj(source[ref]), `${path}.${ref}`));
  }
  return errs;
}

function pvGlusterfs(source: Json, path: string): FieldError[] {
  const errs = [...required(source, 'endpoints', path), ...required(source, 'path', path)];
  if (isSet(source['endpointsNamespace'])) {
    const ns = text(source['endpointsNamespace']);
    if (ns === '') errs.push(fieldError.invalid(`${path}.endpointsNamespace`, ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
    else errs.push(...dns1123Label(ns, `${path}.endpointsNamespace`));
  }
  return errs;
}

function pvCinder(source: Json, path: string): FieldError[] {
  const errs = required(source, 'volumeID', path);
  if (isSet(source['secretRef'])) errs.push(...required(obj(source['secretRef']), 'name', `${path}.secretRef`), ...required(obj(source['secretRef']), 'namespace', `${path}.secretRef`));
  return errs;
}

function pvAzureFile(source: Json, path: string): FieldError[] {
  const errs = [...required(source, 'secretName', path), ...required(source, 'shareName', path)];
  if (isSet(source['secretNamespace']) && text(source['secretNamespace']) === '') errs.push(fieldError.required(`${path}.secretNamespace`));
  return errs;
}

function local(source: Json, path: string): FieldError[] {
  const p = text(source['path']);
  return p === '' ? [fieldError.required(`${path}.path`)] : noBacksteps(p, `${path}.path`);
}

/** [json name, name of the second-source error, name the checks report under, check, always counted]. */
const pvSources: readonly [string, string, string, SourceCheck, boolean][] = [
  ['hostPath', 'hostPath', 'hostPath', hostPath, false],
  ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk', (s, p) => [...required(s, 'pdName', p), ...partition(s, p)], false],
  ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => [...required(s, 'volumeID', p), ...partition(s, p)], false],
  ['glusterfs', 'glusterfs', 'glusterfs', pvGlusterfs, false],
  ['flocker', 'flocker', 'flocker', flocker, false],
  ['nfs', 'nfs', 'nfs', nfs, false],
  ['rbd', 'rbd', 'rbd', (s, p) => [...(list(s['monitors']).length === 0 ? [fieldError.required(`${p}.monitors`)] : []), ...required(s, 'image', p)], false],
  ['quobyte', 'quobyte', 'quobyte', quobyte, false],
  ['cephfs', 'cephFS', 'cephfs', (s, p) => (list(s['monitors']).length === 0 ? [fieldError.required(`${p}.monitors`)] : []), false],
  ['iscsi', 'iscsi', 'iscsi', (s, p) => iscsi(s, p, { name: '' }), false],
  ['cinder', 'cinder', 'cinder', pvCinder, false],
  ['fc', 'fc', 'fc', fc, false],
  // kube counts a FlexVolume without the one-source check.
  ['flexVolume', 'flexVolume', 'flexVolume', flex, true],
  ['azureFile', 'azureFile', 'azureFile', pvAzureFile, false],
  ['vsphereVolume', 'vsphereVolume', 'vsphereVolume', (s, p) => required(s, 'volumePath', p), false],
  ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk', (s, p) => required(s, 'pdID', p), false],
  ['portworxVolume', 'portworxVolume', 'portworxVolume', (s, p) => required(s, 'volumeID', p), false],
  ['azureDisk', 'azureDisk', 'azureDisk', azureDisk, false],
  ['scaleIO', 'scaleIO', 'scaleIO', (s, p) => [...required(s, 'gateway', p), ...required(s, 'system', p), ...required(s, 'volumeName', p)], false],
  ['local', 'local', 'local', local, false],
  ['storageos', 'storageos', 'storageos', (s, p) => storageos(s, p, true), false],
  ['csi', 'csi', 'csi', pvCsi, false],
];

/** The JSON names of a PersistentVolumeSource's fields. */
export const persistentVolumeSourceFields: readonly string[] = pvSources.map(([json]) => json);

/**
 * The source part of ValidatePersistentVolumeSpec at `path` (`spec`) for the volume named `pvName`: one source,
 * each checked; a local volume needs node affinity (`hasNodeAffinity`).
 */
export function persistentVolumeSourceErrors(spec: Json, path: string, pvName: string, hasNodeAffinity: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [json, forbiddenAs, checkAs, check, always] of pvSources) {
    if (!isSet(spec[json])) continue;
    if (count > 0 && !always) {
      errs.push(fieldError.forbidden(`${path}.${forbiddenAs}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    const source = obj(spec[json]);
    errs.push(...(json === 'iscsi' ? iscsi(source, `${path}.iscsi`, { name: pvName }) : check(source, `${path}.${checkAs}`, path)));
    if (json === 'local' && !hasNodeAffinity) errs.push(fieldError.required(`${path}.nodeAffinity`, 'Local volume requires node affinity'));
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a volume type'));
  return errs;
}
