/**
 * kubectl's lines for volume sources: a Pod's `Volumes:` section (describeVolumes) and a PersistentVolume's
 * `Source:` (the print*VolumeSource functions), one `Type:` line naming the source and its fields below, four
 * spaces in. Fields print as Go's `%v` does: `false` and `0` when unset, slices as `[a b]`, secret references in
 * their generated String() form (`&LocalObjectReference{Name:x,}`, `nil` when unset).
 */
import { formatQuantity, parseQuantity } from './quantity.js';
import { goMap, goSlice, orEmpty, orZero } from './go-format.js';
import type { Names } from '@svc-apiserver/api';
import type { Any } from './describe-context.js';
import type { DescribeWriter } from './describe-writer.js';
import { writePersistentVolumeClaim } from './persistent-volume-claim-lines.js';

/** A source's lines: the `Type:` description and its fields, label then value. */
interface SourceLayout {
  readonly type: string;
  readonly fields: (src: Any) => Array<readonly [string, string]>;
}

const bool = (v: unknown): string => (v === true ? 'true' : 'false');
const localRef = (r: Any | undefined): string => (r ? `&LocalObjectReference{Name:${r.name ?? ''},}` : 'nil');
const secretRef = (r: Any | undefined): string => (r ? `&SecretReference{Name:${r.name ?? ''},Namespace:${r.namespace ?? ''},}` : 'nil');

const hostPath: SourceLayout = { type: 'HostPath (bare host directory volume)', fields: (s) => [['Path:', orEmpty(s.path)], ['HostPathType:', s.type ?? '<none>']] };
const gcePD: SourceLayout = {
  type: 'GCEPersistentDisk (a Persistent Disk resource in Google Compute Engine)',
  fields: (s) => [['PDName:', orEmpty(s.pdName)], ['FSType:', orEmpty(s.fsType)], ['Partition:', orZero(s.partition)], ['ReadOnly:', bool(s.readOnly)]],
};
const awsEBS: SourceLayout = {
  type: 'AWSElasticBlockStore (a Persistent Disk resource in AWS)',
  fields: (s) => [['VolumeID:', orEmpty(s.volumeID)], ['FSType:', orEmpty(s.fsType)], ['Partition:', orZero(s.partition)], ['ReadOnly:', bool(s.readOnly)]],
};
const nfs: SourceLayout = {
  type: 'NFS (an NFS mount that lasts the lifetime of a pod)',
  fields: (s) => [['Server:', orEmpty(s.server)], ['Path:', orEmpty(s.path)], ['ReadOnly:', bool(s.readOnly)]],
};
const iscsi = (ref: (r: Any | undefined) => string): SourceLayout => ({
  type: "ISCSI (an ISCSI Disk resource that is attached to a kubelet's host machine and then exposed to the pod)",
  fields: (s) => [
    ['TargetPortal:', orEmpty(s.targetPortal)], ['IQN:', orEmpty(s.iqn)], ['Lun:', orZero(s.lun)], ['ISCSIInterface', orEmpty(s.iscsiInterface)],
    ['FSType:', orEmpty(s.fsType)], ['ReadOnly:', bool(s.readOnly)], ['Portals:', goSlice(s.portals)], ['DiscoveryCHAPAuth:', bool(s.chapAuthDiscovery)],
    ['SessionCHAPAuth:', bool(s.chapAuthSession)], ['SecretRef:', ref(s.secretRef)], ['InitiatorName:', s.initiatorName ?? '<none>'],
  ],
});
const glusterfs: SourceLayout = {
  type: "Glusterfs (a Glusterfs mount on the host that shares a pod's lifetime)",
  fields: (s) => [['EndpointsName:', orEmpty(s.endpoints)], ['Path:', orEmpty(s.path)], ['ReadOnly:', bool(s.readOnly)]],
};
const glusterfsPV: SourceLayout = {
  type: glusterfs.type,
  fields: (s) => [['EndpointsName:', orEmpty(s.endpoints)], ['EndpointsNamespace:', s.endpointsNamespace ?? '<unset>'], ['Path:', orEmpty(s.path)], ['ReadOnly:', bool(s.readOnly)]],
};
const rbd = (ref: (r: Any | undefined) => string): SourceLayout => ({
  type: "RBD (a Rados Block Device mount on the host that shares a pod's lifetime)",
  fields: (s) => [
    ['CephMonitors:', goSlice(s.monitors)], ['RBDImage:', orEmpty(s.image)], ['FSType:', orEmpty(s.fsType)], ['RBDPool:', orEmpty(s.pool)],
    ['RadosUser:', orEmpty(s.user)], ['Keyring:', orEmpty(s.keyring)], ['SecretRef:', ref(s.secretRef)], ['ReadOnly:', bool(s.readOnly)],
  ],
});
const quobyte: SourceLayout = {
  type: "Quobyte (a Quobyte mount on the host that shares a pod's lifetime)",
  fields: (s) => [['Registry:', orEmpty(s.registry)], ['Volume:', orEmpty(s.volume)], ['ReadOnly:', bool(s.readOnly)]],
};
const vsphere: SourceLayout = {
  type: 'vSphereVolume (a Persistent Disk resource in vSphere)',
  fields: (s) => [['VolumePath:', orEmpty(s.volumePath)], ['FSType:', orEmpty(s.fsType)], ['StoragePolicyName:', orEmpty(s.storagePolicyName)]],
};
const cinder = (ref: (r: Any | undefined) => string): SourceLayout => ({
  type: 'Cinder (a Persistent Disk resource in OpenStack)',
  fields: (s) => [['VolumeID:', orEmpty(s.volumeID)], ['FSType:', orEmpty(s.fsType)], ['ReadOnly:', bool(s.readOnly)], ['SecretRef:', ref(s.secretRef)]],
});
const azureDisk: SourceLayout = {
  type: 'AzureDisk (an Azure Data Disk mount on the host and bind mount to the pod)',
  // the server defaults kind, fsType, cachingMode and readOnly, which kubectl reads through pointers
  fields: (s) => [
    ['DiskName:', orEmpty(s.diskName)], ['DiskURI:', orEmpty(s.diskURI)], ['Kind: ', s.kind ?? 'Shared'], ['FSType:', s.fsType ?? 'ext4'],
    ['CachingMode:', s.cachingMode ?? 'ReadWrite'], ['ReadOnly:', bool(s.readOnly)],
  ],
};
const photon: SourceLayout = { type: 'PhotonPersistentDisk (a Persistent Disk resource in photon platform)', fields: (s) => [['PdID:', orEmpty(s.pdID)], ['FSType:', orEmpty(s.fsType)]] };
const portworx: SourceLayout = { type: 'PortworxVolume (a Portworx Volume resource)', fields: (s) => [['VolumeID:', orEmpty(s.volumeID)]] };
const scaleIOFields = (s: Any): Array<readonly [string, string]> => [
  ['Gateway:', orEmpty(s.gateway)], ['System:', orEmpty(s.system)], ['Protection Domain:', orEmpty(s.protectionDomain)],
  ['Storage Pool:', orEmpty(s.storagePool)], ['Storage Mode:', orEmpty(s.storageMode)], ['VolumeName:', orEmpty(s.volumeName)],
];
const scaleIO: SourceLayout = {
  type: 'ScaleIO (a persistent volume backed by a block device in ScaleIO)',
  fields: (s) => [...scaleIOFields(s), ['FSType:', orEmpty(s.fsType)], ['ReadOnly:', bool(s.readOnly)]],
};
const scaleIOPV: SourceLayout = {
  type: scaleIO.type,
  fields: (s) => [...scaleIOFields(s), ['SecretName:', orEmpty(s.secretRef?.name)], ['SecretNamespace:', orEmpty(s.secretRef?.namespace)], ['FSType:', orEmpty(s.fsType)], ['ReadOnly:', bool(s.readOnly)]],
};
const local: SourceLayout = { type: 'LocalVolume (a persistent volume backed by local storage on a node)', fields: (s) => [['Path:', orEmpty(s.path)]] };
const cephfs = (ref: (r: Any | undefined) => string): SourceLayout => ({
  type: "CephFS (a CephFS mount on the host that shares a pod's lifetime)",
  fields: (s) => [
    ['Monitors:', goSlice(s.monitors)], ['Path:', orEmpty(s.path)], ['User:', orEmpty(s.user)], ['SecretFile:', orEmpty(s.secretFile)],
    ['SecretRef:', ref(s.secretRef)], ['ReadOnly:', bool(s.readOnly)],
  ],
});
const storageOS: SourceLayout = {
  type: 'StorageOS (a StorageOS Persistent Disk resource)',
  fields: (s) => [['VolumeName:', orEmpty(s.volumeName)], ['VolumeNamespace:', orEmpty(s.volumeNamespace)], ['FSType:', orEmpty(s.fsType)], ['ReadOnly:', bool(s.readOnly)]],
};
const fc: SourceLayout = {
  type: 'FC (a Fibre Channel disk)',
  fields: (s) => [['TargetWWNs:', (s.targetWWNs ?? []).join(', ')], ['LUN:', s.lun === undefined ? '<none>' : String(s.lun)], ['FSType:', orEmpty(s.fsType)], ['ReadOnly:', bool(s.readOnly)]],
};
const azureFile: SourceLayout = {
  type: 'AzureFile (an Azure File Service mount on the host and bind mount to the pod)',
  fields: (s) => [['SecretName:', orEmpty(s.secretName)], ['ShareName:', orEmpty(s.shareName)], ['ReadOnly:', bool(s.readOnly)]],
};
const azureFilePV: SourceLayout = {
  type: azureFile.type,
  fields: (s) => [['SecretName:', orEmpty(s.secretName)], ['SecretNamespace:', orEmpty(s.secretNamespace)], ['ShareName:', orEmpty(s.shareName)], ['ReadOnly:', bool(s.readOnly)]],
};
const flex = (ref: (r: Any | undefined) => string): SourceLayout => ({
  type: 'FlexVolume (a generic volume resource that is provisioned/attached using an exec based plugin)',
  fields: (s) => [['Driver:', orEmpty(s.driver)], ['FSType:', orEmpty(s.fsType)], ['SecretRef:', ref(s.secretRef)], ['ReadOnly:', bool(s.readOnly)], ['Options:', goMap(s.options)]],
});
const flocker: SourceLayout = { type: 'Flocker (a Flocker volume mounted by the Flocker agent)', fields: (s) => [['DatasetName:', orEmpty(s.datasetName)], ['DatasetUUID:', orEmpty(s.datasetUUID)]] };

/** Writes a source: `Type:` two levels in, its fields below it. */
function writeSource(w: DescribeWriter, layout: SourceLayout, src: Any): void {
  w.write(2, `Type:\t${layout.type}\n${layout.fields(src).map(([label, value]) => `    ${label}\t${value}\n`).join('')}`);
}

/** kubectl's printCSIPersistentVolumeAttributesMultiline: `VolumeAttributes:` with `k=v` lines, cut at 140 characters. */
function writeCSIAttributes(w: DescribeWriter, attributes: Any | undefined): void {
  w.write(2, 'VolumeAttributes:\t');
  const keys = Object.keys(attributes ?? {}).sort();
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((key, i) => {
    if (i !== 0) w.write(2, '\t');
    const line = `${key}=${String(attributes?.[key])}`;
    w.write(2, line.length > 140 ? `${line.slice(0, 140)}...\n` : `${line}\n`);
  });
}

const emptyDirSource = (w: DescribeWriter, s: Any): void => {
  const limit = parseQuantity(s.sizeLimit);
  const sizeLimit = limit !== undefined && limit.nano > 0n ? formatQuantity(limit) : '<unset>';
  writeSource(w, { type: "EmptyDir (a temporary directory that shares a pod's lifetime)", fields: () => [['Medium:', orEmpty(s.medium)], ['SizeLimit:', sizeLimit]] }, s);
};

/** `%v` of a `*bool`: Go prints a pointer's address, which no other program can know; the value stands in for it. */
const boolPointer = (v: unknown): string => (v === undefined || v === null ? '<nil>' : String(v));

const projectedSource = (w: DescribeWriter, s: Any): void => {
  w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
  for (const source of s.sources ?? []) {
    if (source.secret) w.write(2, `SecretName:\t${orEmpty(source.secret.name)}\n    SecretOptionalName:\t${boolPointer(source.secret.optional)}\n`);
    else if (source.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
    else if (source.configMap) w.write(2, `ConfigMapName:\t${orEmpty(source.configMap.name)}\n    ConfigMapOptional:\t${boolPointer(source.configMap.optional)}\n`);
    else if (source.serviceAccountToken) w.write(2, `TokenExpirationSeconds:\t${source.serviceAccountToken.expirationSeconds ?? 3600}\n`);
  }
};

const downwardAPISource = (w: DescribeWriter, s: Any): void => {
  w.write(2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
  for (const item of s.items ?? []) {
    if (item.fieldRef) w.write(3, `${item.fieldRef.fieldPath} -> ${item.path}\n`);
    if (item.resourceFieldRef) w.write(3, `${item.resourceFieldRef.resource} -> ${item.path}\n`);
  }
};

const csiSource = (w: DescribeWriter, s: Any): void => {
  writeSource(w, { type: 'CSI (a Container Storage Interface (CSI) volume source)', fields: () => [['Driver:', orEmpty(s.driver)], ['FSType:', orEmpty(s.fsType)], ['ReadOnly:', bool(s.readOnly)]] }, s);
  writeCSIAttributes(w, s.volumeAttributes);
};

const csiPVSource = (w: DescribeWriter, s: Any): void => {
  writeSource(w, {
    type: 'CSI (a Container Storage Interface (CSI) volume source)',
    fields: () => [['Driver:', orEmpty(s.driver)], ['FSType:', orEmpty(s.fsType)], ['VolumeHandle:', orEmpty(s.volumeHandle)], ['ReadOnly:', bool(s.readOnly)]],
  }, s);
  writeCSIAttributes(w, s.volumeAttributes);
};

/** How a source prints: a layout, or a writer of its own. */
type SourcePrinter = SourceLayout | ((w: DescribeWriter, s: Any) => void);

/** An ephemeral volume: its claim template's lines, two levels in. */
const ephemeralSource = (names: Names) => (w: DescribeWriter, s: Any): void => {
  w.write(2, 'Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)\n');
  if (s.volumeClaimTemplate) writePersistentVolumeClaim(w.nested(2), s.volumeClaimTemplate, false, names);
};

/** A Pod volume's source printers in kubectl's order of precedence. */
function podSources(names: Names): Array<readonly [string, SourcePrinter]> {
  return [
    ['hostPath', hostPath], ['emptyDir', emptyDirSource], ['gcePersistentDisk', gcePD], ['awsElasticBlockStore', awsEBS],
    ['gitRepo', { type: 'GitRepo (a volume that is pulled from git when the pod is created)', fields: (s) => [['Repository:', orEmpty(s.repository)], ['Revision:', orEmpty(s.revision)]] }],
    ['secret', { type: 'Secret (a volume populated by a Secret)', fields: (s) => [['SecretName:', orEmpty(s.secretName)], ['Optional:', bool(s.optional)]] }],
    ['configMap', { type: 'ConfigMap (a volume populated by a ConfigMap)', fields: (s) => [['Name:', orEmpty(s.name)], ['Optional:', bool(s.optional)]] }],
    ['nfs', nfs], ['iscsi', iscsi(localRef)], ['glusterfs', glusterfs],
    ['persistentVolumeClaim', { type: 'PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)', fields: (s) => [['ClaimName:', orEmpty(s.claimName)], ['ReadOnly:', bool(s.readOnly)]] }],
    ['ephemeral', ephemeralSource(names)], ['rbd', rbd(localRef)], ['quobyte', quobyte], ['downwardAPI', downwardAPISource], ['azureDisk', azureDisk],
    ['vsphereVolume', vsphere], ['cinder', cinder(localRef)], ['photonPersistentDisk', photon], ['portworxVolume', portworx], ['scaleIO', scaleIO],
    ['cephfs', cephfs(localRef)], ['storageos', storageOS], ['fc', fc], ['azureFile', azureFile], ['flexVolume', flex(localRef)], ['flocker', flocker],
    ['projected', projectedSource], ['csi', csiSource],
  ];
}

/** A PersistentVolume's source printers in kubectl's order of precedence. */
const pvSources: Array<readonly [string, SourcePrinter]> = [
  ['hostPath', hostPath], ['gcePersistentDisk', gcePD], ['awsElasticBlockStore', awsEBS], ['nfs', nfs], ['iscsi', iscsi(secretRef)],
  ['glusterfs', glusterfsPV], ['rbd', rbd(secretRef)], ['quobyte', quobyte], ['vsphereVolume', vsphere], ['cinder', cinder(secretRef)],
  ['azureDisk', azureDisk], ['photonPersistentDisk', photon], ['portworxVolume', portworx], ['scaleIO', scaleIOPV], ['local', local],
  ['cephfs', cephfs(secretRef)], ['storageos', storageOS], ['fc', fc], ['azureFile', azureFilePV], ['flexVolume', flex(secretRef)],
  ['flocker', flocker], ['csi', csiPVSource],
];

/** Prints the first source present in `spec`, `<unknown>` when none is. */
function writeFirstSource(w: DescribeWriter, spec: Any, printers: ReadonlyArray<readonly [string, SourcePrinter]>): void {
  const found = printers.find(([key]) => spec[key] !== undefined && spec[key] !== null);
  if (found === undefined) {
    w.write(1, '<unknown>\n');
    return;
  }
  const [key, printer] = found;
  if (typeof printer === 'function') printer(w, spec[key] as Any);
  else writeSource(w, printer, spec[key] as Any);
}

/** A PersistentVolume's `Source:` lines (describePersistentVolume). */
export function writePersistentVolumeSource(w: DescribeWriter, spec: Any): void {
  writeFirstSource(w, spec, pvSources);
}

/**
 * kubectl's describeVolumes: `Volumes:` with each volume's name and source lines, `<none>` when there is none;
 * `space` is the indent of a pod template's section (names then get one more space, as kubectl's do).
 */
export function writeVolumes(w: DescribeWriter, volumes: readonly Any[] | undefined, space: string, names: Names): void {
  if (!volumes || volumes.length === 0) {
    w.write(0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(0, `${space}Volumes:\n`);
  const printers = podSources(names);
  for (const volume of volumes) {
    w.write(1, `${space === '' ? '' : ' '}${volume.name}:\n`);
    writeFirstSource(w, volume, printers);
  }
}
